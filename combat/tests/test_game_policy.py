"""Game policy: deleting a game that has a tracker board, a post-game or dice rolled for it is
the organiser's alone; a player who took part still deletes a bare game entered by mistake."""

import datetime

import pytest

from campaigns.models import Game
from combat.models import DiceRoll, TrackerGame
from rosters.services.games import GameEntry, game_record, game_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(campaign, player, warband, rival_warband):
    return game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2025, 3, 1),
        entries=[GameEntry(warband, "win"), GameEntry(rival_warband, "loss")],
    )


@pytest.fixture
def played_game(campaign, player, warband, rival_warband):
    return game_start(
        campaign=campaign, by=player, played_on=datetime.date(2025, 3, 1), warbands=[warband, rival_warband]
    )


def delete(client, user, game):
    client.force_login(user)
    return client.post(f"/games/{game.pk}/delete/")


def with_tracker(game):
    TrackerGame.objects.create(game=game)
    return game


def with_dice(game):
    DiceRoll.objects.create(
        campaign=game.campaign, game=game, source="server", sides=6, faces=[4], purpose="test"
    )
    return game


@pytest.mark.parametrize("records", [with_tracker, with_dice], ids=["tracker board", "dice rolled"])
@pytest.mark.parametrize(
    ("who", "status", "deleted"),
    [("player", 403, False), ("player2", 403, False), ("spectator", 403, False), ("organiser", 302, True)],
)
def test_a_game_with_records_elsewhere_is_deleted_by_the_organiser_alone(
    client, request, played_game, records, who, status, deleted
):
    game = records(played_game)
    response = delete(client, request.getfixturevalue(who), game)
    assert response.status_code == status
    assert Game.objects.filter(pk=game.pk).exists() is not deleted


@pytest.mark.parametrize(("who", "status"), [("player", 302), ("player2", 302), ("spectator", 403)])
def test_a_bare_game_is_still_deleted_by_a_player_who_took_part(client, request, game, who, status):
    assert delete(client, request.getfixturevalue(who), game).status_code == status
    assert Game.objects.filter(pk=game.pk).exists() is (status != 302)


@pytest.mark.parametrize("records", [with_tracker, with_dice], ids=["tracker board", "dice rolled"])
def test_the_game_page_offers_delete_only_to_who_may_delete(client, played_game, records, player, organiser):
    client.force_login(player)
    assert "Delete this game" in client.get(f"/games/{played_game.pk}/").content.decode()
    records(played_game)
    # Once another app keeps records of the game, the player is not offered what the POST would refuse.
    assert "Delete this game" not in client.get(f"/games/{played_game.pk}/").content.decode()
    client.force_login(organiser)
    assert "Delete this game" in client.get(f"/games/{played_game.pk}/").content.decode()
