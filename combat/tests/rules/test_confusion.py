"""Tests for combat/rules/confusion.py (seed 000 "Confusion"): the Confusion Tests an Incapacitation makes due, one
at a time. The rulings D-6, D-7, D-9 and D-10 are pinned in test_rulings.py."""

import pytest

from combat.rules import (
    Combatant,
    FriendlyModel,
    ScriptedDice,
    can_take_fatigue,
    confusion_test,
    confusion_tests_due,
    explain_confusion,
)

# --- Confusion ---------------------------------------------------------------------------------------------------


def test_a_confusion_test_is_2_d10_against_intelligence():
    dice = ScriptedDice([6, 3])
    result = confusion_test(dice, intelligence=4)
    assert result.faces == (6, 3)
    assert result.hits == 1
    assert [roll.sides for roll in dice.log] == [10, 10]


@pytest.mark.parametrize("intelligence", [0, 11])
def test_a_confusion_test_refuses_an_intelligence_out_of_range(intelligence):
    with pytest.raises(ValueError, match=f"intelligence must be 1 to 10, got {intelligence}"):
        confusion_test(ScriptedDice([1, 1]), intelligence=intelligence)


def test_only_a_model_under_2_fatigue_can_take_fatigue():
    assert can_take_fatigue(Combatant(endurance=3, fatigue=0))
    assert can_take_fatigue(Combatant(endurance=3, fatigue=1))
    assert not can_take_fatigue(Combatant(endurance=3, fatigue=2))


def _three_friends():
    return confusion_tests_due(
        incapacitated="fidus",
        friends_within_3=[
            FriendlyModel("ann", intelligence=5),
            FriendlyModel("bo", intelligence=3, fatigue=1),
            FriendlyModel("cy", intelligence=4, fatigue=2),
        ],
    )


def test_confusion_tests_are_due_for_each_friend_marked_within_3_inches():
    sequence = _three_friends()
    assert [friend.id for friend in sequence.remaining] == ["ann", "bo", "cy"]
    assert sequence.next.id == "ann"
    assert sequence.choices == ()


def test_confusion_tests_go_in_the_order_the_player_chooses():
    sequence = _three_friends().test(ScriptedDice([2, 9]), friend="cy")
    assert [result.friend.id for result in sequence.results] == ["cy"]
    assert sequence.results[0].passed
    assert [friend.id for friend in sequence.remaining] == ["ann", "bo"]


def test_a_passed_confusion_test_does_nothing():
    sequence = _three_friends().test(ScriptedDice([5, 10]))
    result = sequence.results[0]
    assert result.passed
    assert result.choice is None
    assert result.fatigue_after == 0
    assert explain_confusion(result) == (
        "ann's Confusion Test (2I against Intelligence 5): 5, 10 — 1 Hit, passed: nothing happens (RULING D-6)."
    )


def test_a_failed_confusion_test_waits_for_flee_or_take_fatigue():
    sequence = _three_friends().test(ScriptedDice([9, 8]), friend="bo")
    assert sequence.awaiting is not None
    assert sequence.awaiting.confused
    assert sequence.choices == ("flee", "fatigue")
    assert sequence.next is None
    assert explain_confusion(sequence.awaiting) == (
        "bo's Confusion Test (2I against Intelligence 3): 9, 8 — no Hit, Confused: Flee or Take Fatigue."
    )
    settled = sequence.choose("fatigue")
    assert settled.awaiting is None
    assert settled.fatigued == ("bo",)
    assert settled.results[0].fatigue_after == 2
    assert explain_confusion(settled.results[0]) == (
        "bo's Confusion Test (2I against Intelligence 3): 9, 8 — no Hit, Confused: Takes Fatigue (2 now)."
    )


def test_a_confused_model_that_flees_is_removed_from_play():
    sequence = _three_friends().test(ScriptedDice([9, 8])).choose("flee")
    assert sequence.fled == ("ann",)
    assert sequence.results[0].fatigue_after == 0
    assert "Flees and is removed from play (not Incapacitated" in explain_confusion(sequence.results[0])


def test_the_next_confusion_test_waits_until_the_choice_is_made():
    sequence = _three_friends().test(ScriptedDice([9, 8]))
    with pytest.raises(ValueError, match="'ann' is Confused: choose flee or fatigue"):
        sequence.test(ScriptedDice([1, 1]))


def test_a_confused_model_with_2_fatigue_flees_at_once():
    sequence = _three_friends().test(ScriptedDice([9, 9]), friend="cy")
    assert sequence.awaiting is None
    result = sequence.results[0]
    assert result.fled
    assert result.forced
    assert explain_confusion(result, name="Cy") == (
        "Cy's Confusion Test (2I against Intelligence 4): 9, 9 — no Hit, Confused: Flees and is removed from play "
        "(2 Fatigue: it cannot Take Fatigue, RULING D-7)."
    )


def test_all_confusion_tests_resolved_one_at_a_time_finish_the_sequence():
    sequence = _three_friends()
    sequence = sequence.test(ScriptedDice([1, 1]))
    sequence = sequence.test(ScriptedDice([10, 10])).choose("fatigue")
    sequence = sequence.test(ScriptedDice([10, 10]))
    assert sequence.done
    assert [result.friend.id for result in sequence.results] == ["ann", "bo", "cy"]
    assert sequence.fled == ("cy",)
    assert sequence.fatigued == ("bo",)
    with pytest.raises(ValueError, match="no Confusion Test is left"):
        sequence.test(ScriptedDice([1, 1]))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda s: s.test(ScriptedDice([1, 1]), friend="zed"), "'zed' has no Confusion Test left"),
        (lambda s: s.choose("flee"), "no Confused model is waiting"),
        (lambda s: s.test(ScriptedDice([9, 9])).choose("hide"), "got 'hide'"),
    ],
)
def test_a_confusion_sequence_refuses_what_the_rules_do_not_allow(action, message):
    with pytest.raises(ValueError, match=message):
        action(_three_friends())


def test_confusion_tests_due_refuses_a_friend_twice_or_the_incapacitated_model_itself():
    with pytest.raises(ValueError, match="friend 'ann' is listed twice"):
        confusion_tests_due(
            incapacitated="fidus", friends_within_3=[FriendlyModel("ann", 5), FriendlyModel("ann", 5)]
        )
    with pytest.raises(ValueError, match="'fidus' does not test for its own"):
        confusion_tests_due(incapacitated="fidus", friends_within_3=[FriendlyModel("fidus", 5)])
