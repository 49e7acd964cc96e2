"""Confusion on the board (combat/services/tracker/confusion.py): friends within 3", the Tests, Flee or Take
Fatigue (RULINGS D-6, D-7, D-9, D-10)."""

import pytest

from combat.models import TrackerFighter
from combat.services.tracker.confusion import (
    tracker_confusion_choose,
    tracker_confusion_test,
    tracker_mark_friends,
)
from combat.services.tracker.errors import TrackerError
from combat.tests.tracker_helpers import damage, snapshot

pytestmark = pytest.mark.django_db

INCAPACITATED = TrackerFighter.Status.INCAPACITATED
FLED = TrackerFighter.Status.FLED


def test_forced_flee_when_the_confused_model_cannot_take_fatigue(table, player, player2):
    joe = table.tracked("Double-Joe")
    joe.fatigue = 2
    joe.save()
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(
        game=table.game, friend_ids=[table["Double-Joe"].pk], by=player2, version=table.version
    )
    action = tracker_confusion_test(game=table.game, faces=[8, 6], by=player2, version=table.version)

    joe = table.tracked("Double-Joe")
    # RULING D-7: at 2 Fatigue it cannot Take Fatigue, so it must Flee; no choice is asked.
    assert joe.status == FLED
    assert "RULING D-7" in action.summary
    assert table.tracker.pending is None


def test_a_confused_model_may_choose_to_flee(table, player, player2):
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(game=table.game, friend_ids=[table["Kit"].pk], by=player2, version=table.version)
    tracker_confusion_test(game=table.game, faces=[10, 10], by=player2, version=table.version)
    action = tracker_confusion_choose(game=table.game, choice="flee", by=player2, version=table.version)
    assert table.tracked("Kit").status == FLED
    assert "RULING D-9" in action.summary


def test_take_fatigue_is_refused_when_the_model_cannot(table, player, player2):
    kit = table.tracked("Kit")
    kit.fatigue = 2
    kit.save()
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(game=table.game, friend_ids=[table["Kit"].pk], by=player2, version=table.version)
    before = snapshot(table.game)
    with pytest.raises(TrackerError):
        tracker_confusion_choose(game=table.game, choice="fatigue", by=player2, version=table.version)
    assert snapshot(table.game) == before


def test_friends_within_3_must_be_friendly_and_in_play(table, player, player2):
    damage(table, "Fidus", 4, player)
    version = table.version
    with pytest.raises(TrackerError, match="not a Friendly model"):
        tracker_mark_friends(game=table.game, friend_ids=[table["Brick"].pk], by=player2, version=version)
    with pytest.raises(TrackerError, match="not a Friendly model"):
        tracker_mark_friends(game=table.game, friend_ids=[table["Fidus"].pk], by=player2, version=version)
    assert table.version == version


def test_no_friend_ticked_means_no_confusion_test(table, player, player2):
    damage(table, "Fidus", 4, player)
    action = tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)
    assert "no Confusion Test" in action.summary
    assert table.tracker.pending is None


def test_the_last_fighter_of_a_crew_has_no_confusion_to_wait_for(table, player):
    for name in ("Fidus", "Double-Joe", "Mags"):
        row = table.tracked(name)
        row.status = FLED
        row.save()
    action = damage(table, "Kit", 8, player)
    assert "no friend is left in play" in action.summary
    assert table.tracker.pending is None
