"""The end of the game on the board (combat/services/tracker/end.py)."""

import pytest

from campaigns.models import Game, GamePlayer, OutOfAction
from combat.models import TrackerFighter
from combat.services.tracker.confusion import (
    tracker_confusion_choose,
    tracker_confusion_test,
    tracker_mark_friends,
)
from combat.services.tracker.end import tracker_end_game
from combat.services.tracker.errors import TrackerBlocked, TrackerError
from combat.tests.tracker_helpers import damage, events_of

pytestmark = pytest.mark.django_db

INCAPACITATED = TrackerFighter.Status.INCAPACITATED
FLED = TrackerFighter.Status.FLED


def test_end_of_game_records_out_of_action_but_not_the_fled(table, player, player2, rival_warband):
    damage(table, "Fidus", 4, player)  # Incapacitated
    tracker_mark_friends(game=table.game, friend_ids=[table["Kit"].pk], by=player2, version=table.version)
    tracker_confusion_test(game=table.game, faces=[10, 10], by=player2, version=table.version)
    tracker_confusion_choose(game=table.game, choice="flee", by=player2, version=table.version)  # Kit Fled
    damage(table, "Mags", 10, player)  # Incapacitated Champion: Harsh Lessons
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)

    tracker_end_game(
        game=table.game,
        results={table.alex.pk: "win", table.sam.pk: "loss"},
        by=player,
        version=table.version,
        reason="Alex held the objective",
    )

    table.game.refresh_from_db()
    assert table.game.status == Game.Status.RECORDED
    # RULING D-9: Kit Fled, so it is not Out of Action.
    out = set(OutOfAction.objects.filter(player__game=table.game).values_list("fighter__name", flat=True))
    assert out == {"Fidus", "Mags"}
    assert set(OutOfAction.objects.values_list("player_id", flat=True)) == {table.sam.pk}
    table.alex.refresh_from_db()
    table.sam.refresh_from_db()
    assert (table.alex.result, table.sam.result) == ("win", "loss")
    assert table.alex.post_game == table.sam.post_game == GamePlayer.PostGame.PENDING
    rival_warband.refresh_from_db()
    assert rival_warband.crew_xp == 1
    # The roster itself is untouched by the game's Harm and Injuries.
    table["Mags"].refresh_from_db()
    assert table["Mags"].status == "active"

    context = events_of(table.game)[-1].pgh_context.metadata
    assert context["action"] == "tracker.end_game"
    assert context["game"] == table.game.pk
    assert context["reason"] == "Alex held the objective"
    assert context["user"] == player.pk
    ooa = OutOfAction.objects.filter(fighter=table["Fidus"]).get()
    assert events_of(ooa)[-1].pgh_context.metadata["action"] == "tracker.end_game"
    assert events_of(rival_warband)[-1].pgh_context.metadata["action"] == "tracker.end_game"

    with pytest.raises(TrackerBlocked, match="game is over"):
        damage(table, "Brick", 1, player)


def test_end_of_game_waits_for_the_confusion_tests(table, player):
    damage(table, "Fidus", 4, player)
    with pytest.raises(TrackerBlocked, match="Confusion Tests for Fidus"):
        tracker_end_game(
            game=table.game,
            results={table.alex.pk: "win", table.sam.pk: "loss"},
            by=player,
            version=table.version,
        )
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS
    assert not OutOfAction.objects.exists()


def test_end_of_game_needs_every_result(table, player):
    with pytest.raises(TrackerError, match="Enter Heretic Legion's result"):
        tracker_end_game(game=table.game, results={table.alex.pk: "win"}, by=player, version=0)
    with pytest.raises(TrackerError, match="Enter Iron Sepulchre's result"):
        tracker_end_game(
            game=table.game, results={table.alex.pk: "won", table.sam.pk: "loss"}, by=player, version=0
        )
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS


def test_end_of_game_records_each_sides_victory_points(table, player):
    tracker_end_game(
        game=table.game,
        results={table.alex.pk: "win", table.sam.pk: "loss"},
        victory_points={table.alex.pk: 9},
        by=player,
        version=table.version,
    )
    table.alex.refresh_from_db()
    table.sam.refresh_from_db()
    assert (table.alex.victory_points, table.sam.victory_points) == (9, 0)  # one left out scores 0


@pytest.mark.parametrize("points", [-1, 101, "5", 2.5])
def test_end_of_game_refuses_victory_points_out_of_range_and_changes_nothing(table, player, points):
    with pytest.raises(TrackerError, match="Victory Points must be a whole number from 0 to 100"):
        tracker_end_game(
            game=table.game,
            results={table.alex.pk: "win", table.sam.pk: "loss"},
            victory_points={table.alex.pk: points},
            by=player,
            version=table.version,
        )
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS
    assert not GamePlayer.objects.filter(game=table.game).exclude(result="").exists()
