"""The board's "+1 Harm" and "+1 Injury" (combat/services/tracker/marks.py)."""

import pytest

from combat.models import TrackerAction, TrackerFighter
from combat.services.tracker.board import tracker_undo
from combat.services.tracker.errors import TrackerConflict, TrackerError
from combat.services.tracker.marks import tracker_mark
from combat.tests.tracker_helpers import damage, snapshot

pytestmark = pytest.mark.django_db


def mark(table, name, what, by):
    return tracker_mark(game=table.game, target_id=table[name].pk, mark=what, by=by, version=table.version)


def test_one_harm_is_marked_and_undone(table, player):
    action = mark(table, "Brick", "harm", player)
    assert table.tracked("Brick").harm == 1
    assert action.kind == TrackerAction.Kind.HARM
    assert action.summary == "Brick suffers 1 Harm (1 of 3 now)."
    tracker_undo(game=table.game, by=player, version=table.version)
    assert table.tracked("Brick").harm == 0


def test_harm_at_the_limit_is_refused_and_changes_nothing(table, player):
    TrackerFighter.objects.filter(pk=table.tracked("Vera").pk).update(harm=3)
    before, version = snapshot(table.game), table.version
    # 000 "Harm": Excess Harm outside Damage has no effect (RULING D-2), so nothing is recorded.
    with pytest.raises(TrackerError, match="Excess Harm, which has no effect outside Damage"):
        mark(table, "Vera", "harm", player)
    assert snapshot(table.game) == before
    assert table.version == version


def test_an_injury_below_health_is_marked(table, player):
    action = mark(table, "Brick", "injury", player)
    brick = table.tracked("Brick")
    assert (brick.injuries, brick.harm, brick.status) == (1, 0, TrackerFighter.Status.ACTIVE)
    assert action.kind == TrackerAction.Kind.INJURY
    assert action.summary == "Brick suffers an Injury (1 of 3 Injury Boxes marked)."


def test_an_injury_that_incapacitates_sets_off_confusion_and_harsh_lessons(table, player2):
    # Mags, a Champion with Health 2 and one Injury: the second Incapacitates her, the same event as the Damage
    # table's (RULING D-8): Harsh Lessons for her crew (RULING D-11), and the Confusion Tests first (RULING D-10).
    damage(table, "Mags", 5, player2)
    action = mark(table, "Mags", "injury", player2)
    mags = table.tracked("Mags")
    assert mags.status == TrackerFighter.Status.INCAPACITATED
    assert table.tracker.pending == {
        "kind": "confusion",
        "stage": "friends",
        "incapacitated": table["Mags"].pk,
    }
    assert table.sam.warband_id in table.tracker.harsh_lessons
    assert "Mags is Incapacitated: its Injuries equal its Health (RULING D-8)." in action.summary
    assert "Harsh Lessons" in action.summary


def test_marks_are_refused_on_a_stale_board_and_for_an_unknown_mark(table, player, player2):
    damage(table, "Brick", 2, player2)
    with pytest.raises(TrackerConflict):
        tracker_mark(game=table.game, target_id=table["Brick"].pk, mark="harm", by=player, version=0)
    with pytest.raises(TrackerError, match="1 Harm or 1 Injury"):
        mark(table, "Brick", "fatigue", player)
    assert table.tracked("Brick").harm == 1
