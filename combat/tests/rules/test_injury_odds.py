"""The exact odds of an Injury Roll (combat/rules/injury.py `injury_odds`, combat/rules/kept_dice.py) and the
properties every roll keeps: the odds sum to 1 and agree with `resolve_injury` over every face of the dice, a pool
never keeps more dice than it rolls, markers stay within 0..6 (TC_IN_GAME.md; RULINGS I-1 to I-7)."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from combat.rules import (
    INJURY_RESULTS,
    MAX_MARKERS,
    InjuryRoll,
    ScriptedDice,
    TcModel,
    injury_odds,
    injury_pool,
    resolve_injury,
)
from combat.rules.kept_dice import keep_dice, kept_sum_counts
from combat.tests.rules.strategies import injury_rolls, tc_models

# --- exact numbers ------------------------------------------------------------------------------------------------


def test_a_plain_injury_roll_on_2d6():
    # 2-6: 15 of 36 rolls; 7-8: 11; 9-12: 10 (no 2D6 roll is 1 or less).
    assert injury_odds(TcModel(), InjuryRoll()) == {
        "no_effect": Fraction(0),
        "minor_hit": Fraction(15, 36),
        "down": Fraction(11, 36),
        "out_of_action": Fraction(10, 36),
    }


def test_machine_armour_makes_no_effect_possible():
    # 2D6 - 3, counted by hand: 2-4 on the dice is 1 or less, 5-9 a Minor Hit, 10-11 Down, 12 Out of Action.
    assert injury_odds(TcModel(), InjuryRoll(armour="machine")) == {
        "no_effect": Fraction(1 + 2 + 3, 36),
        "minor_hit": Fraction(4 + 5 + 6 + 5 + 4, 36),
        "down": Fraction(3 + 2, 36),
        "out_of_action": Fraction(1, 36),
    }


def test_a_tough_model_cannot_be_taken_out_of_action_by_its_first_roll():
    fresh = injury_odds(TcModel(tough=True), InjuryRoll())
    used = injury_odds(TcModel(tough=True, tough_used=True), InjuryRoll())

    assert fresh["out_of_action"] == 0
    assert fresh["down"] == Fraction(11 + 10, 36)
    assert used == injury_odds(TcModel(), InjuryRoll())


def test_one_plus_die_keeps_the_two_highest_of_three():
    # The two highest of 3D6, counted by kept_sum_counts (checked against every roll below).
    odds = injury_odds(TcModel(), InjuryRoll(critical=True))
    assert odds["out_of_action"] == Fraction(sum(kept_sum_counts(3, 2, True)[s] for s in range(9, 13)), 216)
    assert odds["out_of_action"] > injury_odds(TcModel(), InjuryRoll())["out_of_action"]


@pytest.mark.parametrize(("dice", "keep"), [(n, k) for n in range(1, 7) for k in range(1, min(n, 3) + 1)])
def test_kept_dice_counts_agree_with_every_roll_of_the_dice(dice, keep):
    for highest in (True, False, *((None,) if keep == dice else ())):
        every = Counter(
            sum(keep_dice(faces, keep=keep, highest=highest)) for faces in product(range(1, 7), repeat=dice)
        )
        assert kept_sum_counts(dice, keep, highest) == dict(every)


def test_kept_dice_refuse_a_keep_the_pool_cannot_give():
    with pytest.raises(ValueError, match="keep must be 1 to dice"):
        kept_sum_counts(2, 3, True)
    with pytest.raises(ValueError, match="every die is kept: keep 2 must equal dice 3"):
        kept_sum_counts(3, 2, None)


def test_a_big_pool_is_counted_without_walking_every_roll():
    # 28 dice is 6**28 rolls: counted, not enumerated.
    counts = kept_sum_counts(28, 3, True)
    assert sum(counts.values()) == 6**28
    assert (min(counts), max(counts)) == (3, 18)


# --- properties ---------------------------------------------------------------------------------------------------


@st.composite
def small_rolls(draw):
    """A model and a roll whose pool is at most 4 dice, so every face can be walked."""
    target = draw(tc_models())
    inputs = draw(injury_rolls(target, most_dice=1))
    return target, inputs


@given(small_rolls())
@settings(max_examples=60, deadline=None)
def test_the_odds_sum_to_1_and_agree_with_resolve_injury_over_every_face(case):
    target, inputs = case
    pool = injury_pool(target, inputs)
    assume(pool.dice <= 4)  # 1296 rolls at most; kept_sum_counts is checked on bigger pools above
    odds = injury_odds(target, inputs)

    counted = Counter(
        resolve_injury(target, inputs, ScriptedDice(faces)).result
        for faces in product(range(1, 7), repeat=pool.dice)
    )

    assert set(odds) == set(INJURY_RESULTS)
    assert sum(odds.values()) == 1
    assert odds == {result: Fraction(counted[result], 6**pool.dice) for result in INJURY_RESULTS}


@given(st.data())
def test_the_pool_never_keeps_more_dice_than_it_rolls(data):
    target = data.draw(tc_models())
    inputs = data.draw(injury_rolls(target, most_dice=6))
    pool = injury_pool(target, inputs)

    assert pool.keep <= pool.dice
    assert pool.keep == (3 if inputs.bloodbath else 2)  # RULING I-1: the base count is kept
    assert pool.dice == pool.keep + abs(pool.net_dice)
    assert (pool.highest is None) == (pool.dice == pool.keep)


@given(st.data())
def test_markers_stay_within_0_and_6_after_any_roll(data):
    target = data.draw(tc_models())
    inputs = data.draw(injury_rolls(target, most_dice=6))
    pool = injury_pool(target, inputs)
    faces = data.draw(st.lists(st.integers(1, 6), min_size=pool.dice, max_size=pool.dice))

    outcome = resolve_injury(target, inputs, ScriptedDice(faces))

    assert 0 <= outcome.after.blood <= MAX_MARKERS
    assert 0 <= outcome.after.blessings <= MAX_MARKERS
    assert len(outcome.kept) == pool.keep <= len(outcome.faces) == pool.dice
    assert outcome.after.blood == target.blood - pool.blood_cost + outcome.blood_placed  # I-3
    assert outcome.after.blessings == target.blessings - inputs.blessings_spent
    assert injury_odds(target, inputs)[outcome.result] > 0
