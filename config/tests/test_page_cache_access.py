"""A kept page is never served to a user who could not load it now, even when what changed told no one: a user
deactivated by a queryset update (no signal), a user deleted by SQL, a membership deleted or a role changed by a
queryset update (config/page_versions.py, `access_state`; config/page_cache.py). The next request then takes the
full path and is answered as a fresh load would be. Against this machine's Redis (config/tests/shared_cache.py)."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from campaigns.models import Membership
from config.page_cache import MEMBER_COOKIE
from config.tests.shared_cache import shared_redis_or_skip

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    yield redis
    redis.flush()


def kept_for(user, shared, url: str) -> Client:
    """A browser of `user` whose page at `url` is kept, and shown to be answered from the cache."""
    client = Client()
    client.force_login(user)
    with shared.as_process():
        for _ in range(2):
            assert client.get(url).status_code == 200
        assert MEMBER_COOKIE in client.cookies
        assert from_the_cache(client.get(url))
    return client


def from_the_cache(response) -> bool:
    # The full path runs the auth middleware, which gives the request its user; a kept answer never does.
    return not hasattr(response.wsgi_request, "user")


def again(client, shared, url: str):
    with shared.as_process():
        return client.get(url)


def to_login(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_user_deactivated_by_a_queryset_update_is_sent_to_log_in(campaign, player, shared):
    url = f"/campaigns/{campaign.pk}/"
    client = kept_for(player, shared, url)
    get_user_model().objects.filter(pk=player.pk).update(is_active=False)
    response = again(client, shared, url)
    assert not from_the_cache(response)
    assert to_login(response)


def test_a_user_deleted_by_sql_is_sent_to_log_in(campaign, spectator, shared):
    url = f"/campaigns/{campaign.pk}/"
    client = kept_for(spectator, shared, url)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM campaigns_membership WHERE user_id = %s", [spectator.pk])
        cursor.execute("DELETE FROM auth_user WHERE id = %s", [spectator.pk])
    response = again(client, shared, url)
    assert not from_the_cache(response)
    assert to_login(response)


def test_a_user_without_campaigns_deleted_by_sql_is_not_given_their_dashboard(outsider, shared):
    client = kept_for(outsider, shared, "/")
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM auth_user WHERE id = %s", [outsider.pk])
    response = again(client, shared, "/")
    assert not from_the_cache(response)
    assert outsider.username not in response.content.decode()


def test_a_membership_deleted_by_a_queryset_is_a_404_as_a_fresh_load(campaign, warband, player2, shared):
    pages = [f"/campaigns/{campaign.pk}/", f"/warbands/{warband.pk}/"]
    clients = [kept_for(player2, shared, url) for url in pages]
    Membership.objects.filter(campaign=campaign, user=player2).delete()
    for client, url in zip(clients, pages, strict=True):
        response = again(client, shared, url)
        assert not from_the_cache(response)
        assert response.status_code == 404


def test_a_role_changed_by_a_queryset_update_renders_the_page_for_the_role_now(campaign, organiser, shared):
    url = f"/campaigns/{campaign.pk}/"
    client = kept_for(organiser, shared, url)
    Membership.objects.filter(campaign=campaign, user=organiser).update(role=Membership.Role.SPECTATOR)
    response = again(client, shared, url)
    assert not from_the_cache(response)
    assert response.status_code == 200


def test_a_password_changed_by_a_queryset_update_ends_the_kept_pages(campaign, player, shared):
    url = f"/campaigns/{campaign.pk}/"
    client = kept_for(player, shared, url)
    get_user_model().objects.filter(pk=player.pk).update(password="!unusable")
    response = again(client, shared, url)
    assert not from_the_cache(response)
    assert to_login(response)


def test_nothing_changed_is_still_answered_from_the_cache(campaign, player, shared):
    url = f"/campaigns/{campaign.pk}/"
    client = kept_for(player, shared, url)
    Membership.objects.filter(campaign=campaign, user=player).update(role=Membership.Role.PLAYER)  # the same
    assert from_the_cache(again(client, shared, url))
