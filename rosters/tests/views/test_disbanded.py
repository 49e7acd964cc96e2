"""A disbanded warband ("A warband may be disbanded at the end of any game; a new one starts in its place",
CAMPAIGN_PHASE.md): marked wherever it is listed, and offered in no later game, while a game it played can still
be corrected with it in place."""

import datetime

import pytest
from django.urls import reverse

from campaigns.models import Game
from rosters.services import games as game_services
from rosters.services.errors import RosterRefused
from rosters.services.games import GameEntry
from rosters.services.warbands import warband_disband
from rosters.tests.views.test_games import game_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def disbanded(world, player):
    warband_disband(warband=world.warband, by=player)
    world.warband.refresh_from_db()
    return world


def test_the_dashboard_marks_a_disbanded_warband(client, player, disbanded):
    client.force_login(player)
    html = client.get(reverse("dashboard")).content.decode()
    link = f'href="{reverse("warband_detail", args=[disbanded.warband.pk])}"'
    row = html[html.index(link) :]
    assert '<span class="badge">Disbanded</span>' in row[: row.index("</td>")]


def test_the_shared_campaign_page_marks_a_disbanded_warband(client, organiser, disbanded):
    client.force_login(organiser)
    assert client.post(reverse("campaign_share_create", args=[disbanded.campaign.pk])).status_code == 302
    client.logout()
    disbanded.campaign.refresh_from_db()
    html = client.get(reverse("share_campaign", args=[disbanded.campaign.share_token])).content.decode()
    link = reverse("share_warband", args=[disbanded.campaign.share_token, disbanded.warband.pk])
    row = html[html.index(link) :]
    assert '<span class="badge">Disbanded</span>' in row[: row.index("</td>")]


def test_the_new_game_form_does_not_offer_a_disbanded_warband(client, player, disbanded):
    client.force_login(player)
    html = client.get(f"/campaigns/{disbanded.campaign.pk}/games/new/").content.decode()
    assert f'id="game-warband-{disbanded.warband.pk}"' not in html
    assert f'id="game-warband-{disbanded.rival.pk}"' in html


def test_finish_by_hand_of_a_later_game_does_not_offer_a_disbanded_warband(client, organiser, disbanded):
    later = game_services.game_start(
        campaign=disbanded.campaign,
        by=organiser,
        played_on=datetime.date(2025, 4, 2),
        warbands=[disbanded.rival, disbanded.organisers_band],
    )
    client.force_login(organiser)
    html = client.get(reverse("game_edit", args=[later.pk])).content.decode()
    assert "Finish by hand" in html
    assert f'id="game-warband-{disbanded.warband.pk}"' not in html
    assert f'id="game-warband-{disbanded.rival.pk}"' in html


def test_a_game_the_disbanded_warband_played_is_still_corrected_with_it(client, player, disbanded):
    client.force_login(player)
    url = reverse("game_edit", args=[disbanded.game.pk])
    assert f'id="game-warband-{disbanded.warband.pk}"' in client.get(url).content.decode()
    response = client.post(url, game_data(disbanded, results=("loss", "win")))
    assert response.status_code == 302
    assert disbanded.game.players.get(warband=disbanded.warband).result == "loss"


def test_a_new_game_with_a_disbanded_warband_is_refused_and_nothing_is_recorded(client, player, disbanded):
    client.force_login(player)
    response = client.post(f"/campaigns/{disbanded.campaign.pk}/games/new/", game_data(disbanded))
    assert response.status_code in (400, 422)
    assert not Game.objects.filter(campaign=disbanded.campaign, number=3).exists()


def test_the_game_services_refuse_a_disbanded_warband_in_a_new_game(player, disbanded):
    with pytest.raises(RosterRefused, match="was disbanded on .*: it plays no more games"):
        game_services.game_record(
            campaign=disbanded.campaign,
            by=player,
            played_on=datetime.date(2025, 4, 2),
            entries=[GameEntry(disbanded.warband, "win"), GameEntry(disbanded.rival, "loss")],
        )
    assert not Game.objects.filter(campaign=disbanded.campaign, number=3).exists()
