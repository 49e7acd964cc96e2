"""Whole `ConfusionSequence` states after each Confusion Test and choice (seed 000 "Confusion", RULINGS D-6, D-7,
D-10)."""

import pytest

from combat.rules import (
    ConfusionResult,
    ConfusionSequence,
    FriendlyModel,
    ScriptedDice,
    StatTestResult,
    confusion_tests_due,
    explain_confusion,
)

ANN = FriendlyModel("ann", intelligence=4, fatigue=1)
BO = FriendlyModel("bo", intelligence=4, fatigue=2)
FAILED = StatTestResult((9, 9), 0)


def test_ruling_D_10_the_tests_due_start_with_none_made():
    assert confusion_tests_due(incapacitated="cy", friends_within_3=[ANN, BO]) == ConfusionSequence(
        "cy", (ANN, BO)
    )


def test_ruling_D_6_a_passed_test_keeps_the_models_fatigue():
    sequence = confusion_tests_due(incapacitated="cy", friends_within_3=[ANN]).test(ScriptedDice([3, 9]))
    assert sequence == ConfusionSequence(
        "cy", (ANN,), (ConfusionResult(ANN, StatTestResult((3, 9), 1), None, 1),)
    )


def test_a_failed_test_waits_for_the_choice():
    sequence = confusion_tests_due(incapacitated="cy", friends_within_3=[ANN]).test(ScriptedDice([9, 9]))
    assert sequence == ConfusionSequence("cy", (ANN,), (), ConfusionResult(ANN, FAILED, None, 1))
    assert sequence.choose("fatigue") == ConfusionSequence(
        "cy", (ANN,), (ConfusionResult(ANN, FAILED, "fatigue", 2),)
    )


def test_ruling_D_7_a_confused_model_at_2_fatigue_flees_at_once_with_its_fatigue():
    sequence = confusion_tests_due(incapacitated="cy", friends_within_3=[BO]).test(ScriptedDice([9, 9]))
    assert sequence == ConfusionSequence("cy", (BO,), (ConfusionResult(BO, FAILED, "flee", 2, True),))


def test_ruling_D_7_a_kept_state_awaiting_a_model_at_2_fatigue_may_flee_but_not_take_fatigue():
    kept = ConfusionSequence("cy", (BO,), (), ConfusionResult(BO, FAILED, None, 2))
    assert kept.choose("flee") == ConfusionSequence("cy", (BO,), (ConfusionResult(BO, FAILED, "flee", 2),))
    with pytest.raises(ValueError, match=r"^'bo' has 2 Fatigue and cannot Take Fatigue \(RULING D-7\)$"):
        kept.choose("fatigue")


def test_explain_confusion_counts_two_hits():
    result = ConfusionResult(ANN, StatTestResult((1, 2), 2), None, 1)
    assert explain_confusion(result) == (
        "ann's Confusion Test (2I against Intelligence 4): 1, 2 — 2 Hits, passed: nothing happens (RULING D-6)."
    )


def test_friends_within_3_must_be_friendly_models():
    with pytest.raises(ValueError, match="^friends_within_3 must hold FriendlyModel values, got 'ann'$"):
        confusion_tests_due(incapacitated="cy", friends_within_3=["ann"])
