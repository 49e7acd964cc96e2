"""config/middleware.py's `PrivateCacheMiddleware`: every answer to a logged-in user is `private, no-store` unless
its view says its own; an anonymous reader's public page, the service worker, the manifest and the offline page
keep what they say."""

import pytest
from django.urls import reverse

from config.middleware import PRIVATE
from rosters.services.price_lists import price_list_copy_demo

pytestmark = pytest.mark.django_db


def addresses(campaign, warband) -> dict[str, str]:
    return {
        "dashboard": "/",
        "campaign page": f"/campaigns/{campaign.pk}/",
        "roster": f"/warbands/{warband.pk}/",
        "warband export": reverse("warband_export", args=[warband.pk]),
        "history CSV": reverse("campaign_history_csv", args=[campaign.pk]),
        "price list CSV": reverse("price_list_export", args=[campaign.pk, "battlekit"]) + "?format=csv",
        "price list JSON": reverse("price_list_export", args=[campaign.pk, "fighters"]) + "?format=json",
        "rules page": reverse("rules"),
    }


@pytest.mark.parametrize(
    "name",
    [
        "dashboard",
        "campaign page",
        "roster",
        "warband export",
        "history CSV",
        "price list CSV",
        "price list JSON",
        "rules page",
    ],
)
def test_a_logged_in_users_pages_and_downloads_are_private_and_never_stored(
    client, campaign, warband, organiser, player, name
):
    price_list_copy_demo(campaign=campaign, by=organiser)
    client.force_login(player)
    response = client.get(addresses(campaign, warband)[name])
    assert response.status_code == 200
    assert response["Cache-Control"] == PRIVATE


def test_a_refusal_and_a_redirect_to_a_logged_in_user_are_private_too(client, campaign, warband, spectator):
    client.force_login(spectator)
    assert client.get(f"/warbands/{warband.pk}/edit/")["Cache-Control"] == PRIVATE  # 403
    assert client.get(f"/join/{campaign.invitation_code}/")["Cache-Control"] == PRIVATE  # 302 to the campaign


def test_an_anonymous_readers_public_page_is_left_alone(client):
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    assert not response.has_header("Cache-Control")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        # never_cache: a new worker reaches every phone on its next visit
        ("service_worker", ("no-store", "no-cache", "max-age=0")),
        ("web_manifest", ("public", "max-age=3600")),
        ("offline", ("public", "max-age=0")),
    ],
)
def test_a_view_that_says_its_own_cache_control_keeps_it(client, player, name, words):
    client.force_login(player)
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert response["Cache-Control"] != PRIVATE
    assert all(word in response["Cache-Control"] for word in words)
