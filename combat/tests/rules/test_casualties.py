"""Tests for combat/rules/casualties.py: what becomes of a casualty's Battlekit, and the order casualties roll in.

003_37ee4a105d59703a.txt ("Models Killed In Action", "Unfit For Duty"), TRAUMA_TABLE.md (34 Muscle Damage, 36
Robbed) and RULINGS T-1, T-4, T-6.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import (
    ARSENAL,
    KEPT,
    LOST,
    Casualty,
    KitPiece,
    ScriptedDice,
    battlekit_fate,
    full_recovery_instead,
    settle_capture,
    trauma_order,
    trauma_step,
)
from combat.rules.casualties import CasualtyRoll, casualty_roll
from combat.tests.rules.strategies import DrawnDice, casualties

SWORD = KitPiece("Trench Sword")
HAMMER = KitPiece("Great Hammer", keywords=("HEAVY", "TWO-HANDED"))
RELIC = KitPiece("Bound Relic", removable=False)
HEAVY_RELIC = KitPiece("Iron Reliquary", keywords=("heavy",), removable=False)
KIT = (SWORD, HAMMER, RELIC, HEAVY_RELIC)


def _fate_after(faces, *, scars=0, items=KIT, ransom_paid=None):
    """The fate of `items` for one ELITE model's Trauma Step with these dice, as the engine answers it."""
    (outcome,) = trauma_step([Casualty("hero", elite=True, scars=scars)], ScriptedDice(faces))
    if ransom_paid is not None:
        outcome = settle_capture(outcome, ransom_paid=ransom_paid)
    return battlekit_fate(
        outcome.battlekit, items, removed=outcome.removed, heavy_battlekit_lost=outcome.heavy_battlekit_lost
    )


# -- Battlekit --------------------------------------------------------------------------------------------------


def test_a_dead_model_loses_all_its_battlekit_even_what_cannot_be_removed():
    # 003 "Models Killed In Action": "all its Battlekit is lost"; RULING T-6: nothing goes to the Arsenal.
    assert _fate_after([1, 1]) == (LOST, LOST, LOST, LOST)


def test_a_troop_that_fails_its_survival_roll_loses_all_its_battlekit():
    # RULING T-2: 1-2 the model is removed from the roster with all its Battlekit.
    (outcome,) = trauma_step([Casualty("trooper", elite=False)], ScriptedDice([2]))
    fates = battlekit_fate(outcome.battlekit, KIT, removed=outcome.removed)
    assert fates == (LOST, LOST, LOST, LOST)


def test_an_executed_captive_loses_all_its_battlekit_and_a_ransomed_one_keeps_it():
    # TRAUMA_TABLE.md 12, Captured; RULING T-6 (executed) and T-8 (a paid ransom counts as Full Recovery).
    assert _fate_after([1, 2], ransom_paid=False) == (LOST, LOST, LOST, LOST)
    assert _fate_after([1, 2], ransom_paid=True) == (KEPT, KEPT, KEPT, KEPT)


def test_robbed_loses_all_battlekit_except_battlekit_that_cannot_be_lost():
    # TRAUMA_TABLE.md 36, Robbed: "all its Battlekit is lost, except Battlekit that cannot be lost".
    assert _fate_after([3, 6]) == (LOST, LOST, KEPT, KEPT)


def test_muscle_damage_loses_only_the_heavy_battlekit():
    # TRAUMA_TABLE.md 34, Muscle Damage: "cannot carry HEAVY Battlekit; any it has is lost" (any case of keyword).
    assert _fate_after([3, 4]) == (KEPT, LOST, KEPT, LOST)


def test_unfit_for_duty_sends_the_battlekit_to_the_arsenal_unless_it_cannot_be_removed():
    # 003 "Unfit For Duty", RULING T-4: to the Arsenal, "unless it has a rule that says it cannot be removed from
    # the model" (that piece leaves with it).
    assert _fate_after([2, 4], scars=2) == (ARSENAL, ARSENAL, KEPT, KEPT)


def test_muscle_damage_as_the_last_scar_loses_the_heavy_battlekit_and_sends_the_rest_to_the_arsenal():
    # docs/rules.md, "Readings the rulings leave open": the HEAVY Battlekit is lost first, the rest to the Arsenal.
    assert _fate_after([3, 4], scars=2) == (ARSENAL, LOST, KEPT, LOST)


def test_a_result_that_keeps_the_battlekit_keeps_every_piece():
    # TRAUMA_TABLE.md 63, Full Recovery, and every result that says nothing of Battlekit.
    assert _fate_after([6, 3]) == (KEPT, KEPT, KEPT, KEPT)
    assert battlekit_fate("kept", ()) == ()


def test_a_bad_battlekit_answer_or_piece_is_refused_naming_it():
    with pytest.raises(ValueError, match="'stolen'"):
        battlekit_fate("stolen", KIT)
    with pytest.raises(ValueError, match="'Trench Sword'"):
        battlekit_fate("lost", ["Trench Sword"])


pieces = st.builds(
    KitPiece,
    name=st.text("abc", min_size=1, max_size=3),
    keywords=st.lists(st.sampled_from(("HEAVY", "heavy", "TWO-HANDED", "RELIC")), max_size=2).map(tuple),
    removable=st.booleans(),
)


@given(st.data(), casualties(), st.lists(pieces, max_size=6))
def test_every_piece_gets_exactly_one_fate_and_nothing_reaches_the_arsenal_but_from_unfit_for_duty(
    data, casualty, items
):
    dice = DrawnDice(data)
    try:
        (outcome,) = trauma_step([casualty], dice)
    except ValueError:
        return  # a casualty with every result of the table: no roll can be used
    if outcome.pending == "ransom":
        outcome = settle_capture(outcome, ransom_paid=data.draw(st.booleans()))
    fates = battlekit_fate(
        outcome.battlekit, items, removed=outcome.removed, heavy_battlekit_lost=outcome.heavy_battlekit_lost
    )
    assert len(fates) == len(items)
    assert set(fates) <= {KEPT, LOST, ARSENAL}
    if ARSENAL in fates:
        assert outcome.reason == "unfit_for_duty"  # RULING T-4
    if outcome.removed and outcome.reason != "unfit_for_duty":
        assert set(fates) <= {LOST}  # RULING T-6
    for item, fate in zip(items, fates, strict=True):
        if fate == ARSENAL:
            assert item.removable


# -- Troops first -----------------------------------------------------------------------------------------------


def test_troops_come_first_then_elite_models_each_in_the_order_given():
    # RULING T-1; docs/engine.md: "Troops first, then ELITE models, each in the order given".
    group = [
        Casualty("hero", elite=True),
        Casualty("t1", elite=False),
        Casualty("sergeant", elite=True),
        Casualty("t2", elite=False),
    ]
    assert [casualty.id for casualty in trauma_order(group)] == ["t1", "t2", "hero", "sergeant"]


def test_trauma_order_asks_who_is_elite_of_any_row():
    rows = [("Brother Marcus", True), ("Yeoman Jon", False)]
    assert trauma_order(rows, elite=lambda row: row[1]) == (("Yeoman Jon", False), ("Brother Marcus", True))
    assert trauma_order([]) == ()


@given(st.data(), st.lists(casualties(), max_size=6, unique_by=lambda casualty: casualty.id))
def test_trauma_order_is_the_order_trauma_step_rolls_and_answers_in(data, group):
    # The post-game wizard shows its casualties in `trauma_order`; `trauma_step` must roll them in that order.
    try:
        outcomes = trauma_step(group, DrawnDice(data))
    except ValueError:
        return  # a casualty with every result of the table: no roll can be used
    assert [outcome.id for outcome in outcomes] == [casualty.id for casualty in trauma_order(group)]


# -- the fighter's own rules ------------------------------------------------------------------------------------


def test_a_sniper_priest_by_type_or_keyword_treats_lost_an_eye_as_full_recovery():
    # TRAUMA_TABLE.md 15, Lost an Eye: "a Sniper Priest treats this result as Full Recovery".
    assert full_recovery_instead(fighter_type="Sniper Priest") == {"lost_an_eye"}
    assert full_recovery_instead(fighter_type="Trench Cleric", keywords=["SNIPER PRIEST"]) == {"lost_an_eye"}
    assert full_recovery_instead(fighter_type="Trench Cleric", keywords=["ELITE"]) == frozenset()
    assert full_recovery_instead() == frozenset()
    (outcome,) = trauma_step(
        [
            Casualty(
                "ezra", elite=True, full_recovery_instead=full_recovery_instead(fighter_type="sniper priest")
            )
        ],
        ScriptedDice([1, 5]),
    )
    assert (outcome.entry.code, outcome.treated_as_full_recovery, outcome.scar_gained) == (
        "lost_an_eye",
        True,
        False,
    )


# The roll a casualty's Trauma Step asks for (RULINGS T-2, T-3; TRAUMA_TABLE.md 65).


@pytest.mark.parametrize(
    ("elite", "sides", "roll"),
    [
        (False, 6, CasualtyRoll("survival", 6, 1)),  # T-2: a Troop's Survival Roll, one D6
        (True, 6, CasualtyRoll("trauma", 6, 2)),  # T-3: an ELITE model's D66
        (True, 3, CasualtyRoll("bitter_lessons", 3, 1)),  # Bitter Lessons: "gains D3 extra XP"
        (False, 3, CasualtyRoll("bitter_lessons", 3, 1)),
    ],
)
def test_which_die_a_casualtys_roll_uses(elite, sides, roll):
    assert casualty_roll(elite=elite, sides_asked=sides) == roll


def test_the_casualty_roll_refuses_a_die_the_trauma_step_never_rolls():
    with pytest.raises(ValueError, match="the Trauma Step rolls D6 and D3 only, got a D10"):
        casualty_roll(elite=True, sides_asked=10)
    with pytest.raises(ValueError, match="elite must be True or False"):
        casualty_roll(elite=None, sides_asked=6)
