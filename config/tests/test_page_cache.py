"""Whole pages from the shared cache (config/page_cache.py): a page read again with nothing changed costs no
query, and no write, by whoever and through whichever process, is followed by the old page.

Each `as_process()` block has cache connections of its own, as another gunicorn worker or host would
(config/tests/shared_cache.py), against this machine's Redis under a key prefix of the test's own. A write's
replacement of the page generations runs once it commits: here, when `django_capture_on_commit_callbacks` runs it.
"""

import gzip
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.services.accounts import account_update
from campaigns.services.members import membership_remove
from config import page_versions
from config.page_cache import MEMBER_COOKIE
from config.tests.shared_cache import shared_redis_or_skip
from rosters.services.fighters import fighter_update

pytestmark = pytest.mark.django_db

CSRF_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"')


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    yield redis
    redis.flush()


def pages(campaign, warband, fighter) -> dict[str, str]:
    return {
        "roster": f"/warbands/{warband.pk}/",
        "campaign page": f"/campaigns/{campaign.pk}/",
        "dashboard": "/",
        "fighter card": f"/fighters/{fighter.pk}/",
        "history feed": f"/campaigns/{campaign.pk}/history/",
    }


def read(client, url: str, **headers):
    response = client.get(url, **headers)
    assert response.status_code == 200, response
    return response


def kept(client, shared, url: str, **headers):
    """The page read twice, as a browser does on its first visits: the first answer sets the cookies a kept page
    is looked up by (the CSRF token, whose generation), the second is kept."""
    with shared.as_process():
        read(client, url, **headers)
        assert MEMBER_COOKIE in client.cookies
        return read(client, url, **headers)


def without_tokens(body: bytes) -> bytes:
    return CSRF_TOKEN.sub(b"", body)


# What a page answered from the cache costs: one indexed query, whether its user may still load it
# (config/page_versions.py, `access_state`). A page rendered again costs more.
HIT_QUERIES = 1


def queries_of(client, url: str) -> int:
    """How many queries one read of `url` made (HIT_QUERIES when the cache answered it)."""
    with CaptureQueriesContext(connection) as captured:
        read(client, url)
    return len(captured)


def keep_all(client, shared, urls: dict[str, str]) -> None:
    """Every page of `urls` kept, and each then answered from the cache."""
    for url in urls.values():
        kept(client, shared, url)
    with shared.as_process():
        for name, url in urls.items():
            assert queries_of(client, url) == HIT_QUERIES, name


def misses(client, shared, urls: dict[str, str]) -> list[str]:
    """The pages of `urls` that were rendered again rather than answered from the cache."""
    with shared.as_process():
        return [name for name, url in urls.items() if queries_of(client, url) > HIT_QUERIES]


@pytest.mark.parametrize("name", ["roster", "campaign page", "dashboard", "fighter card", "history feed"])
def test_each_page_read_again_is_answered_from_redis_with_one_query_of_access(
    name, client, campaign, warband, player, make_fighter, shared, django_assert_num_queries
):
    url = pages(campaign, warband, make_fighter(warband, "Brick"))[name]
    client.force_login(player)
    second = kept(client, shared, url)
    with shared.as_process(), django_assert_num_queries(HIT_QUERIES):
        third = read(client, url)
    assert third.content == second.content
    assert third["Content-Type"] == second["Content-Type"]
    assert third["X-Frame-Options"] == "DENY"


def test_a_kept_page_is_compressed_once_and_is_the_page(
    client, warband, player, make_fighter, shared, django_assert_num_queries
):
    make_fighter(warband, "Brick")
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    plain = kept(client, shared, url).content
    kept(client, shared, url, HTTP_ACCEPT_ENCODING="gzip, br")
    with shared.as_process(), django_assert_num_queries(HIT_QUERIES):
        response = read(client, url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert int(response["Content-Length"]) == len(response.content)
    assert without_tokens(gzip.decompress(response.content)) == without_tokens(plain)


def test_a_write_through_one_process_is_seen_by_the_next_read_through_another(
    client, warband, player, organiser, make_fighter, shared, django_capture_on_commit_callbacks
):
    brick = make_fighter(warband, "Brick")
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    kept(client, shared, url)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        fighter_update(fighter=brick, by=organiser, changes={"name": "Brick the Second"})
    with shared.as_process():
        assert "Brick the Second" in read(client, url).content.decode()


def test_a_write_posted_by_another_member_is_seen_by_the_next_read(
    client, warband, player, organiser, make_fighter, shared, django_capture_on_commit_callbacks
):
    brick = make_fighter(warband, "Brick", xp=1)
    url = f"/fighters/{brick.pk}/"
    client.force_login(player)
    before = kept(client, shared, url).content
    other = Client()
    other.force_login(organiser)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        assert other.post(f"/fighters/{brick.pk}/xp/", {"delta": 3}).status_code == 302
    with shared.as_process():
        after = read(client, url).content
    brick.refresh_from_db()
    assert brick.xp == 4
    assert without_tokens(after) != without_tokens(before)
    assert b">4<" in after or b" 4 " in after or b"4 XP" in after


def test_the_sender_of_any_write_reads_their_pages_again(
    client, warband, player, shared, django_capture_on_commit_callbacks
):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    kept(client, shared, url)
    with shared.as_process():
        token = page_versions.generations(player.pk)[0]
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            client.post(f"/warbands/{warband.pk}/items/new/", {"name": ""})  # refused: it wrote nothing
        assert callbacks  # yet the sender's pages are read again
        assert page_versions.generations(player.pk)[0] != token


def test_another_session_is_never_given_the_kept_page(client, warband, player, player2, outsider, shared):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    kept(client, shared, url)
    for intruder in (player2, outsider):
        other = Client()
        other.force_login(intruder)
        other.cookies[MEMBER_COOKIE] = str(player.pk)  # the hint is only which key to read
        other.cookies["csrftoken"] = client.cookies["csrftoken"].value
        with shared.as_process():
            response = other.get(url)
        assert hasattr(response.wsgi_request, "user")  # the full path, with its own access check
        if intruder == outsider:
            assert response.status_code == 404
        else:
            assert intruder.username in response.content.decode()


def test_a_session_that_changed_takes_the_full_path(client, warband, player, shared):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    kept(client, shared, url)
    with shared.as_process():
        session = client.session
        session["seen_tour"] = True  # anything a page might read from the session
        session.save()
        assert (
            queries_of(client, url) > HIT_QUERIES
        )  # rendered again, and kept under the session as it is now...
        assert queries_of(client, url) == HIT_QUERIES  # ...then answered from it


def test_a_member_taken_out_is_not_given_their_kept_page(
    client, campaign, warband, player2, organiser, shared, django_capture_on_commit_callbacks
):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player2)
    kept(client, shared, url)
    membership = campaign.memberships.get(user=player2)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        membership_remove(membership=membership, by=organiser)
    with shared.as_process():
        assert client.get(url).status_code == 404


def test_a_password_changed_elsewhere_ends_the_kept_pages_of_other_sessions(
    client, warband, player, shared, django_capture_on_commit_callbacks
):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    kept(client, shared, url)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        user = get_user_model().objects.get(pk=player.pk)
        user.set_password("an entirely new one 42")
        user.save()
    with shared.as_process():
        response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_name_changed_is_shown_on_the_pages_of_everyone_in_its_campaigns(
    client, campaign, player, player2, shared, django_capture_on_commit_callbacks
):
    url = f"/campaigns/{campaign.pk}/"
    client.force_login(player)
    kept(client, shared, url)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        account_update(user=player2, display_name="Quinn the Unbroken", email="quinn@example.org")
    with shared.as_process():
        assert "Quinn the Unbroken" in read(client, url).content.decode()


def test_a_write_through_the_admin_renders_every_page_again(
    client, warband, player, shared, django_capture_on_commit_callbacks
):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    kept(client, shared, url)
    with shared.as_process():
        assert queries_of(client, url) == HIT_QUERIES
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        page_versions.everything_changed()
    with shared.as_process():
        assert queries_of(client, url) > HIT_QUERIES


@pytest.mark.parametrize("query", ["?undo=signed-offer", "?page=2"])
def test_an_answer_to_a_parameter_the_view_does_not_read_is_never_kept(
    query, client, warband, player, shared
):
    url = f"/warbands/{warband.pk}/{query}"
    client.force_login(player)
    kept(client, shared, url)
    with shared.as_process():
        assert queries_of(client, url) > HIT_QUERIES


def test_a_first_visit_without_the_csrf_cookie_is_never_kept(client, warband, player, shared):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    with shared.as_process():
        read(client, url)
        client.cookies.pop("csrftoken")
        read(client, url)  # renders a token of a new secret, which the browser is only now given
    assert not [key for key in shared.stored_keys() if b":page:" in key]


def test_without_a_shared_cache_nothing_is_kept(client, warband, player):
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    read(client, url)
    read(client, url)
    assert queries_of(client, url) > HIT_QUERIES
    assert MEMBER_COOKIE not in client.cookies


def test_a_kept_page_is_served_private_and_never_stored_as_the_full_path_answers(
    client, warband, player, shared, django_assert_num_queries
):
    """The header is the page's own (config/middleware.py): kept with it, served from Redis with it."""
    url = f"/warbands/{warband.pk}/"
    client.force_login(player)
    assert kept(client, shared, url)["Cache-Control"] == "private, no-store"
    with shared.as_process(), django_assert_num_queries(HIT_QUERIES):
        assert read(client, url)["Cache-Control"] == "private, no-store"
