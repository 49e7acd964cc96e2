"""Tests for combat/rules/trauma.py (seed 003, TRAUMA_TABLE.md): Troop Survival Rolls, ELITE Trauma rolls and
their consequences, with the sentences explain_trauma gives them (trauma_explain.py). The table itself is tested in
test_trauma_table.py; the rulings T-1 to T-9 are pinned in test_rulings.py."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import (
    Casualty,
    DiceExhausted,
    ScriptedDice,
    TraumaTable,
    explain_trauma,
    settle_capture,
    trauma_step,
)
from combat.tests.rules.strategies import DrawnDice, casualties

TABLE = TraumaTable.default()


def _elite(faces, **fields):
    """One ELITE casualty's outcome, with the D66 typed in as `faces`."""
    return trauma_step([Casualty("hero", elite=True, **fields)], ScriptedDice(faces))[0]


# --- Troops -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "survived"), [(1, False), (2, False), (3, True), (4, True), (5, True), (6, True)]
)
def test_a_troop_survival_roll_removes_it_on_1_or_2(face, survived):
    dice = ScriptedDice([face])
    outcome = trauma_step([Casualty("trooper", elite=False)], dice)[0]
    assert outcome.rolls == (face,)
    assert outcome.entry is None
    assert outcome.survived is survived
    assert outcome.removed is not survived
    assert outcome.battlekit == ("kept" if survived else "lost")
    assert outcome.reason == (None if survived else "dead")
    assert [roll.sides for roll in dice.log] == [6]


def test_troops_roll_before_elite_models_each_in_the_order_given():
    # 003 "Elite Models": "After rolling for any Troops, you must make a D66 roll for any ELITE models".
    group = [
        Casualty("hero", elite=True),
        Casualty("t1", elite=False),
        Casualty("sergeant", elite=True),
        Casualty("t2", elite=False),
    ]
    outcomes = trauma_step(group, ScriptedDice([3, 1, 4, 5, 6, 3]))
    assert [(outcome.id, outcome.rolls) for outcome in outcomes] == [
        ("t1", (3,)),
        ("t2", (1,)),
        ("hero", (45,)),
        ("sergeant", (63,)),
    ]


def test_the_same_casualty_twice_is_refused():
    with pytest.raises(ValueError, match="casualty 'a' is listed twice"):
        trauma_step([Casualty("a", elite=False), Casualty("a", elite=True)], ScriptedDice([3, 4, 5]))


# --- ELITE models -------------------------------------------------------------------------------------------------


def test_an_elite_model_rolls_d66_3_then_4_for_muscle_damage():
    outcome = _elite([3, 4], scars=0, name="Brother Ezra")
    assert outcome.rolls == (34,)
    assert outcome.entry.code == "muscle_damage"
    assert outcome.scars == 1
    assert outcome.scar_gained
    assert outcome.injuries == frozenset({"muscle_damage"})
    assert outcome.battlekit == "heavy_lost"
    assert outcome.survived
    assert not outcome.removed
    assert explain_trauma(outcome) == (
        "Brother Ezra: D66 34, Muscle Damage — Battle Scar 1 of 3; it cannot carry HEAVY Battlekit, and any it "
        "has is lost."
    )


def test_an_injury_the_model_already_has_is_rolled_again_and_every_roll_kept():
    outcome = _elite([1, 4, 4, 5], injuries={"hand_wound"})
    assert outcome.rolls == (14, 45)
    assert [entry.code for entry in outcome.rerolled] == ["hand_wound"]
    assert outcome.entry.code == "full_recovery"
    assert outcome.scars == 0
    assert explain_trauma(outcome) == (
        "hero: D66 45 after rerolling 14 (Hand Wound), an Injury it already has (RULING T-5), Full Recovery — no "
        "Injury and no Scar."
    )


def test_a_second_lost_an_eye_blinds_the_model_without_a_reroll():
    outcome = _elite([1, 5], injuries={"lost_an_eye"}, scars=1)
    assert outcome.rolls == (15,)
    assert outcome.removed
    assert outcome.reason == "blinded"
    assert outcome.battlekit == "lost"
    assert not outcome.survived
    assert "blinded and removed from the roster with all its Battlekit" in explain_trauma(outcome)


def test_a_second_lost_an_eye_that_is_also_the_last_scar_is_still_blinded():
    # docs/engine.md: "the result's own removal wins over Unfit For Duty".
    outcome = _elite([1, 5], injuries={"lost_an_eye"}, scars=2)
    assert outcome.reason == "blinded"
    assert outcome.battlekit == "lost"
    assert outcome.scars == 3


def test_the_third_battle_scar_makes_the_model_unfit_for_duty():
    outcome = _elite([2, 4], scars=2, injuries={"hand_wound", "leg_wound"})
    assert outcome.entry.code == "dark_memory"
    assert outcome.scars == 3
    assert outcome.removed
    assert outcome.reason == "unfit_for_duty"
    assert outcome.battlekit == "arsenal"
    assert explain_trauma(outcome) == (
        "hero: D66 24, Dark Memory — Battle Scar 3 of 3; record the enemy warband; -1 DICE on Melee Attacks against "
        "it; so it is Unfit For Duty: removed from the roster, its Battlekit and Glory Items go to the Arsenal "
        "(RULING T-4)."
    )


def test_a_higher_scar_limit_keeps_the_model_on_the_roster():
    outcome = _elite([2, 4], scars=2, scar_limit=4)
    assert outcome.scars == 3
    assert not outcome.removed


def test_muscle_damage_as_the_last_scar_loses_the_heavy_battlekit_and_sends_the_rest_to_the_arsenal():
    outcome = _elite([3, 4], scars=2)
    assert outcome.reason == "unfit_for_duty"
    assert outcome.battlekit == "arsenal"
    assert outcome.heavy_battlekit_lost
    assert "the rest of its Battlekit and its Glory Items go to the Arsenal" in explain_trauma(outcome)


def test_a_minor_wound_scars_and_misses_the_next_game_and_can_come_again():
    outcome = _elite([3, 5], scars=1, injuries={"hand_wound"})
    assert outcome.misses_next_game
    assert outcome.scars == 2
    assert outcome.injuries == frozenset({"hand_wound"})  # not an Injury the model keeps
    assert (
        explain_trauma(outcome) == "hero: D66 35, Minor Wound — Battle Scar 2 of 3; it misses the next game."
    )


def test_robbed_loses_all_battlekit_but_no_scar():
    outcome = _elite([3, 6], scars=2)
    assert outcome.battlekit == "lost"
    assert outcome.scars == 2
    assert outcome.survived
    assert explain_trauma(outcome) == (
        "hero: D66 36, Robbed — all its Battlekit is lost, except Battlekit that cannot be lost; no Injury and no Scar."
    )


def test_dead_removes_the_model_and_all_its_battlekit():
    outcome = _elite([1, 1], scars=1)
    assert outcome.removed
    assert outcome.reason == "dead"
    assert outcome.battlekit == "lost"
    assert outcome.scars == 1
    assert (
        explain_trauma(outcome)
        == "hero: D66 11, Dead — removed from the roster with all its Battlekit (RULING T-6)."
    )


def test_captured_waits_for_the_ransom():
    outcome = _elite([1, 2], scars=2)
    assert outcome.pending == "ransom"
    assert not outcome.survived
    assert not outcome.removed
    assert outcome.scars == 2
    assert "the players may agree a ransom" in explain_trauma(outcome)


def test_a_paid_ransom_counts_as_full_recovery():
    paid = settle_capture(_elite([1, 2], scars=2), ransom_paid=True)
    assert paid.entry.code == "captured"
    assert paid.survived
    assert not paid.removed
    assert paid.pending is None
    assert paid.scars == 2
    assert paid.battlekit == "kept"
    assert explain_trauma(paid) == (
        "hero: D66 12, Captured, ransom paid — counts as Full Recovery: no Injury and no Scar (RULING T-8)."
    )


def test_an_unpaid_ransom_has_the_model_executed():
    executed = settle_capture(_elite([1, 2]), ransom_paid=False)
    assert executed.removed
    assert executed.reason == "executed"
    assert executed.battlekit == "lost"
    assert not executed.survived
    assert "executed and removed from the roster with all its Battlekit" in explain_trauma(executed)


def test_only_a_captured_outcome_can_be_settled():
    with pytest.raises(ValueError, match="'hero' is not waiting for a ransom"):
        settle_capture(_elite([4, 4]), ransom_paid=True)
    with pytest.raises(ValueError, match="ransom_paid must be True or False, got 'yes'"):
        settle_capture(_elite([1, 2]), ransom_paid="yes")


def test_a_head_wound_stops_xp_gain():
    outcome = _elite([2, 2])
    assert not outcome.can_gain_xp
    assert outcome.scars == 1
    assert (
        explain_trauma(outcome) == "hero: D66 22, Head Wound — Battle Scar 1 of 3; it can no longer gain XP."
    )


def test_bitter_lessons_gains_d3_xp():
    dice = ScriptedDice([6, 5, 2])
    outcome = trauma_step([Casualty("hero", elite=True)], dice)[0]
    assert outcome.xp_gained == 2
    assert outcome.rolls == (65,)  # the D3 is in the dice log only
    assert [roll.sides for roll in dice.log] == [6, 6, 3]
    assert explain_trauma(outcome) == "hero: D66 65, Bitter Lessons — gains 2 XP; no Injury and no Scar."


def test_a_sniper_priest_treats_lost_an_eye_as_full_recovery():
    outcome = _elite([1, 5], full_recovery_instead={"lost_an_eye"}, injuries={"lost_an_eye"})
    assert outcome.entry.code == "lost_an_eye"
    assert outcome.treated_as_full_recovery
    assert not outcome.removed
    assert outcome.scars == 0
    assert "treats it as Full Recovery" in explain_trauma(outcome, name="Sniper Priest")


@pytest.mark.parametrize("roll", [[6, 4], [6, 6]])
def test_hardened_and_prominent_scar_give_no_scar(roll):
    outcome = _elite(roll, scars=2)
    assert outcome.scars == 2
    assert outcome.survived


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"elite": True, "scars": 3}, "'x' has 3 Battle Scars, at its limit 3"),
        ({"elite": True, "scars": -1}, "scars must be 0 or more, got -1"),
        ({"elite": True, "scar_limit": 0}, "scar_limit must be 1 or more, got 0"),
        ({"elite": True, "injuries": "hand_wound"}, "got the text 'hand_wound'"),
        ({"elite": "yes"}, "elite must be True or False, got 'yes'"),
    ],
)
def test_an_impossible_casualty_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        Casualty("x", **fields)


def test_a_casualty_with_every_result_of_an_all_injury_table_is_refused_before_any_roll():
    rows = [dict(row, scar=True, injury=True) for row in TABLE.to_rows()]
    rows[4]["code"] = "eye_wound"  # no Lost an Eye, whose repeat would blind rather than reroll
    table = TraumaTable.from_rows(rows)
    dice = ScriptedDice([1, 1])
    with pytest.raises(ValueError, match="'hero' already has every result"):
        trauma_step([Casualty("hero", elite=True, injuries=table.codes)], dice, table=table)
    assert dice.log == []


def test_entered_dice_that_run_out_say_which_die_is_missing():
    with pytest.raises(DiceExhausted) as raised:
        _elite([3])
    assert raised.value.sides == 6


# --- properties --------------------------------------------------------------------------------------------------


@given(st.lists(casualties(), max_size=5, unique_by=lambda casualty: casualty.id), st.data())
def test_the_same_scripted_dice_always_give_the_same_trauma_step(group, data):
    drawn = DrawnDice(data)
    first = trauma_step(group, drawn)
    assert trauma_step(group, ScriptedDice(drawn.faces)) == first
    assert trauma_step(group, ScriptedDice(drawn.faces)) == first


@given(casualties(elite=True, id="hero"), st.data())
def test_an_elite_outcome_is_consistent(casualty, data):
    dice = DrawnDice(data)
    (outcome,) = trauma_step([casualty], dice)
    assert [roll.sides for roll in dice.log][: 2 * len(outcome.rolls)] == [6] * 2 * len(outcome.rolls)
    assert len(outcome.rolls) == len(outcome.rerolled) + 1
    assert outcome.entry == TABLE.lookup(outcome.rolls[-1])
    assert outcome.scars in (casualty.scars, casualty.scars + 1)
    assert outcome.scars <= casualty.scar_limit
    assert (outcome.reason is not None) == outcome.removed
    assert not (outcome.survived and outcome.removed)
    assert outcome.survived == (not outcome.removed and outcome.pending is None)
    assert casualty.injuries <= outcome.injuries
    assert outcome.battlekit in ("kept", "lost", "heavy_lost", "arsenal")
    assert (outcome.battlekit == "arsenal") <= (outcome.reason == "unfit_for_duty")
    assert 0 <= outcome.xp_gained <= 3
    assert explain_trauma(outcome).endswith(".")
