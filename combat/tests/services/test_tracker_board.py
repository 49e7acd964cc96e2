"""The board's own steps (combat/services/tracker/board.py): set up, undo, versions, history context."""

import pytest

from campaigns.models import Game
from combat.models import DiceRoll, TrackerFighter
from combat.selectors.tracker_attack import AttackTest
from combat.services.tracker.board import tracker_start, tracker_undo
from combat.services.tracker.confusion import (
    tracker_confusion_choose,
    tracker_confusion_test,
    tracker_mark_friends,
)
from combat.services.tracker.damage import tracker_apply_damage, tracker_roll_attack
from combat.services.tracker.errors import TrackerBlocked, TrackerConflict, TrackerError
from combat.tests.tracker_helpers import damage, events_of, setup_game, snapshot

pytestmark = pytest.mark.django_db

INCAPACITATED = TrackerFighter.Status.INCAPACITATED
FLED = TrackerFighter.Status.FLED


def test_undo_restores_the_exact_previous_state_in_order(table, player, player2):
    states = [snapshot(table.game)]
    damage(table, "Brick", 2, player2)
    states.append(snapshot(table.game))
    damage(table, "Mags", 5, player)  # an Injury and 1 Harm
    states.append(snapshot(table.game))
    damage(table, "Mags", 10, player)  # Incapacitated: Harsh Lessons, Confusion pending
    states.append(snapshot(table.game))
    tracker_mark_friends(
        game=table.game,
        friend_ids=[table["Kit"].pk, table["Double-Joe"].pk],
        by=player2,
        version=table.version,
    )
    states.append(snapshot(table.game))
    tracker_confusion_test(game=table.game, faces=[10, 9], by=player2, version=table.version)
    states.append(snapshot(table.game))
    tracker_confusion_choose(game=table.game, choice="flee", by=player2, version=table.version)
    states.append(snapshot(table.game))
    assert table.tracked("Kit").status == FLED
    assert states[3]["harsh_lessons"]
    assert states[3]["pending"]

    current = states.pop()
    assert snapshot(table.game) == current
    while states:
        undone = tracker_undo(game=table.game, by=player, version=table.version)
        assert undone.undone
        assert undone.undone_by == player
        assert snapshot(table.game) == states.pop()
    with pytest.raises(TrackerError, match="Nothing to undo"):
        tracker_undo(game=table.game, by=player, version=table.version)


def test_undo_refuses_a_board_that_changed_unseen(table, player, player2):
    damage(table, "Brick", 2, player2)
    seen = table.version
    damage(table, "Kit", 1, player)
    with pytest.raises(TrackerConflict, match="Kit was changed by pat_player a moment ago"):
        tracker_undo(game=table.game, by=player2, version=seen)
    assert table.tracked("Kit").harm == 1


def test_undo_keeps_the_dice_log(table, player):
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Kit"].pk,
        attack=AttackTest(dice=2, stat=5),
        faces=[1, 2],
        by=player,
        version=0,
    )
    tracker_undo(game=table.game, by=player, version=table.version)
    assert DiceRoll.objects.filter(pk=action.rolls[0]).exists()
    assert table.tracked("Kit").status == TrackerFighter.Status.ACTIVE


def test_undo_marks_the_actions_rolls_undone_with_who_when_and_which_action(table, player, player2):
    kept = tracker_roll_attack(
        game=table.game,
        target_id=table["Brick"].pk,
        attack=AttackTest(dice=2, stat=5),
        faces=[3, 4],
        by=player2,
        version=0,
    )
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Kit"].pk,
        attack=AttackTest(dice=2, stat=5),
        faces=[1, 2],
        by=player,
        version=table.version,
    )
    undone = tracker_undo(game=table.game, by=player2, version=table.version)
    roll = DiceRoll.objects.get(pk=action.rolls[0])
    assert roll.status == DiceRoll.Status.UNDONE
    assert not roll.counts
    assert roll.status_by == player2
    assert roll.status_at == undone.undone_at
    assert roll.status_reason == f"Undo of: {action.summary}"
    assert roll.replaced_by is None
    # The earlier action's roll still counts: only the undone action's rolls are marked.
    assert DiceRoll.objects.get(pk=kept.rolls[0]).status == DiceRoll.Status.COUNTED


def test_a_failed_undo_marks_no_roll(table, player, player2):
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Kit"].pk,
        attack=AttackTest(dice=2, stat=5),
        faces=[1, 2],
        by=player,
        version=0,
    )
    seen = table.version
    damage(table, "Brick", 1, player2)
    tracker_undo(game=table.game, by=player, version=table.version)  # takes back the Damage, not the attack
    with pytest.raises(TrackerConflict):
        tracker_undo(game=table.game, by=player2, version=seen)
    assert DiceRoll.objects.get(pk=action.rolls[0]).status == DiceRoll.Status.COUNTED


# --- Start and end of the game --------------------------------------------------------------------------------


def test_a_stale_form_on_the_same_fighter_is_refused_and_changes_nothing(table, player, player2):
    seen = table.version
    damage(table, "Brick", 2, player2)
    before = snapshot(table.game)
    with pytest.raises(TrackerConflict) as refused:
        tracker_apply_damage(game=table.game, target_id=table["Brick"].pk, damage=2, by=player, version=seen)
    assert (
        str(refused.value)
        == "Brick was changed by quinn_player a moment ago; here is the board as it is now."
    )
    assert snapshot(table.game) == before


def test_a_stale_form_on_another_fighter_still_applies(table, player, player2):
    seen = table.version
    damage(table, "Brick", 2, player2)
    tracker_apply_damage(game=table.game, target_id=table["Kit"].pk, damage=1, by=player, version=seen)
    assert table.tracked("Kit").harm == 1
    assert table.tracked("Brick").harm == 1


def test_a_version_from_the_future_is_refused(table, player):
    with pytest.raises(TrackerError, match="does not come from this game's board"):
        tracker_apply_damage(game=table.game, target_id=table["Kit"].pk, damage=1, by=player, version=99)


def test_start_is_idempotent_and_leaves_out_who_misses_the_game(
    campaign, warband, rival_warband, make_fighter, player
):
    table = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        start=False,
    )
    make_fighter(warband, "Resting", misses_next_game=True)
    make_fighter(warband, "Gone", status="dead")
    first = tracker_start(game=table.game, by=player)
    assert tracker_start(game=table.game, by=player) == first
    names = set(TrackerFighter.objects.filter(tracker=first).values_list("fighter__name", flat=True))
    assert names == set(table.fighters)


def test_the_tracker_follows_games_in_progress_only(campaign, warband, player):
    game = Game.objects.create(
        campaign=campaign, number=5, played_on="2026-11-30", status=Game.Status.RECORDED
    )
    with pytest.raises(TrackerBlocked, match="games in progress only"):
        tracker_start(game=game, by=player)


def test_tracker_actions_leave_history_with_their_context(table, player):
    action = damage(table, "Brick", 2, player)
    event = events_of(table.tracked("Brick"))[-1]
    assert event.pgh_context.metadata["action"] == "tracker.damage"
    assert event.pgh_context.metadata["reason"] == action.summary
    assert event.pgh_context.metadata["fighter"] == table["Brick"].pk
