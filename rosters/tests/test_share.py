"""Read-only sharing: the organiser makes and revokes a link; the link reads the campaign, its rosters and history,
cannot write, and stops working once revoked or replaced."""

import datetime as dt
import re

import pghistory
import pytest
from django.urls import reverse

from campaigns.models import Campaign, GamePlayer
from rosters.history.entries import HistoryFilter
from rosters.history.feed import history_page
from rosters.services.battlekit import item_create
from rosters.services.fighters import fighter_create
from rosters.services.games import GameEntry, game_record
from rosters.services.injuries import injury_add
from rosters.services.warbands import warband_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def marcus(warband, player):
    fighter = fighter_create(warband=warband, by=player, name="Brother Marcus", elite=True, xp=5)
    injury_add(fighter=fighter, by=player, code="14", name="Hand Wound", d66=14)
    item_create(warband=warband, fighter=fighter, name="Lance", by=player)
    return fighter


@pytest.fixture
def game1(campaign, warband, rival_warband, organiser, marcus):
    game = game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 5, 1),
        entries=[
            GameEntry(warband=warband, result="loss", out_of_action=[marcus]),
            GameEntry(warband=rival_warband, result="win"),
        ],
    )
    with pghistory.context(action="post_game.apply", game=game.pk, warband=warband.pk, user=organiser.pk):
        GamePlayer.objects.filter(game=game, warband=warband).update(post_game="done")
    return game


@pytest.fixture
def shared(client, organiser, campaign):
    client.force_login(organiser)
    response = client.post(reverse("campaign_share_create", args=[campaign.pk]))
    assert response.status_code == 302
    client.logout()
    campaign.refresh_from_db()
    assert campaign.share_token
    return campaign.share_token


def share_urls(token, warband, game) -> list[str]:
    return [
        reverse("share_campaign", args=[token]),
        reverse("share_history", args=[token]),
        reverse("share_warband", args=[token, warband.pk]),
        reverse("share_as_of", args=[token, warband.pk, game.pk]),
    ]


def test_anyone_with_the_link_reads_the_campaign_rosters_and_history(
    client, shared, campaign, warband, game1
):
    home = client.get(reverse("share_campaign", args=[shared]))
    assert home.status_code == 200
    html = home.content.decode()
    assert campaign.name in html
    assert "Iron Sepulchre" in html
    assert "Heretic Legion" in html
    assert "Brother Marcus was taken Out of Action in Game 1" in html
    roster = client.get(reverse("share_warband", args=[shared, warband.pk])).content.decode()
    assert "Brother Marcus" in roster
    assert "Hand Wound" in roster
    assert "Lance" in roster
    assert "Iron Sepulchre played Game 1 (loss)" in roster
    as_of = client.get(reverse("share_as_of", args=[shared, warband.pk, game1.pk])).content.decode()
    assert "Iron Sepulchre after Game 1" in as_of
    assert "right after its post-game was applied" in as_of
    history = client.get(reverse("share_history", args=[shared]), {"warband": warband.pk})
    assert history.status_code == 200
    assert "Brother Marcus suffered Hand Wound (D66 14)" in history.content.decode()


def test_the_shared_pages_carry_no_way_to_write(client, shared, warband, game1):
    for url in share_urls(shared, warband, game1):
        response = client.get(url)
        html = response.content.decode()
        assert response["X-Robots-Tag"] == "noindex, nofollow"
        assert 'method="post"' not in html.lower(), url
        assert "csrfmiddlewaretoken" not in html, url
        assert not re.search(r"hx-(post|put|patch|delete)=", html), url
        # Every link stays inside the shared pages (or goes to log in, sign up, the home page, static files).
        for href in re.findall(r'href="(/[^"]*)"', html):
            assert (
                href.startswith((f"/share/{shared}/", "/static/", "/accounts/", "/?", "/#")) or href == "/"
            ), (
                url,
                href,
            )


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_shared_pages_refuse_every_write(client, shared, warband, game1, method):
    for url in share_urls(shared, warband, game1):
        assert getattr(client, method)(url).status_code == 405, url


def test_the_member_pages_still_ask_for_a_login(client, shared, campaign, warband, marcus):
    for url in (
        reverse("warband_detail", args=[warband.pk]),
        reverse("fighter_xp", args=[marcus.pk]),
        reverse("campaign_history", args=[campaign.pk]),
        reverse("warband_export", args=[warband.pk]),
    ):
        response = client.post(url, {"delta": 1})
        assert response.status_code in (302, 405), url
        if response.status_code == 302:
            assert reverse("login") in response["Location"]
    marcus.refresh_from_db()
    assert marcus.xp == 5


def test_revoking_the_link_makes_it_404_at_once(client, organiser, shared, campaign, warband, game1):
    client.force_login(organiser)
    response = client.post(reverse("campaign_share_revoke", args=[campaign.pk]))
    assert response.status_code == 302
    client.logout()
    campaign.refresh_from_db()
    assert campaign.share_token is None
    for url in share_urls(shared, warband, game1):
        assert client.get(url).status_code == 404, url


def test_a_new_link_replaces_the_old_one(client, organiser, shared, campaign, warband, game1):
    client.force_login(organiser)
    client.post(reverse("campaign_share_create", args=[campaign.pk]))
    client.logout()
    campaign.refresh_from_db()
    assert campaign.share_token != shared
    assert client.get(reverse("share_campaign", args=[shared])).status_code == 404
    assert client.get(reverse("share_campaign", args=[campaign.share_token])).status_code == 200


def test_unknown_tokens_and_other_campaigns_rows_are_404(client, shared, organiser, warband, game1, player):
    assert client.get(reverse("share_campaign", args=["not-a-token"])).status_code == 404
    assert client.get(reverse("share_campaign", args=["x" * 65])).status_code == 404
    other = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    foreign = warband_create(campaign=other, owner=player, name="Foreign", by=player)
    assert client.get(reverse("share_warband", args=[shared, foreign.pk])).status_code == 404
    assert client.get(reverse("share_as_of", args=[shared, foreign.pk, game1.pk])).status_code == 404


def test_a_campaign_never_shared_has_no_link(client, campaign):
    assert campaign.share_token is None
    assert client.get("/share/None/").status_code == 404
    assert client.get("/share//").status_code == 404


@pytest.mark.parametrize("who", ["player", "player2", "spectator"])
def test_only_the_organiser_shares_or_revokes(request, client, who, campaign):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("campaign_share", args=[campaign.pk])).status_code == 403
    assert client.post(reverse("campaign_share_create", args=[campaign.pk])).status_code == 403
    assert client.post(reverse("campaign_share_revoke", args=[campaign.pk])).status_code == 403
    campaign.refresh_from_db()
    assert campaign.share_token is None


def test_outsiders_get_404_and_anonymous_visitors_log_in(client, outsider, campaign):
    urls = [
        reverse("campaign_share", args=[campaign.pk]),
        reverse("campaign_share_create", args=[campaign.pk]),
        reverse("campaign_share_revoke", args=[campaign.pk]),
    ]
    for url in urls:
        response = client.post(url) if "new" in url or "revoke" in url else client.get(url)
        assert response.status_code == 302
        assert reverse("login") in response["Location"]
    client.force_login(outsider)
    for url in urls:
        response = client.post(url) if "new" in url or "revoke" in url else client.get(url)
        assert response.status_code == 404


def test_the_share_controls_swap_in_place_with_htmx(client, organiser, campaign):
    client.force_login(organiser)
    response = client.post(
        reverse("campaign_share_create", args=[campaign.pk]), headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="share-link"')
    campaign.refresh_from_db()
    assert f"/share/{campaign.share_token}/" in html
    response = client.post(
        reverse("campaign_share_revoke", args=[campaign.pk]), headers={"HX-Request": "true"}
    )
    assert "Make a read-only link" in response.content.decode()


def test_the_settings_page_has_the_share_controls(client, organiser, campaign):
    client.force_login(organiser)
    html = client.get(reverse("campaign_settings", args=[campaign.pk])).content.decode()
    assert 'id="share-link"' in html
    assert reverse("campaign_share_create", args=[campaign.pk]) in html
    response = client.post(reverse("campaign_share_create", args=[campaign.pk]), {"next": "settings"})
    assert response["Location"] == reverse("campaign_settings", args=[campaign.pk])


def test_sharing_is_in_the_history_but_the_token_is_not(client, organiser, campaign, shared):
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="campaign"))
    texts = [c.sentence for e in page.entries for c in e.changes]
    assert "A read-only link was shared — by olga_organiser" in texts
    assert not any(shared in t for t in texts)
    client.force_login(organiser)
    html = client.get(reverse("campaign_history", args=[campaign.pk])).content.decode()
    assert shared not in html
