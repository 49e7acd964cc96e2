"""Tests for combat/rules/stat_tests.py: D10 pools, Hits on `<=` the stat, Bonus Dice."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import ScriptedDice, dice_pool, roll_test


def test_a_die_equal_to_or_lower_than_the_stat_is_a_hit():
    # RULINGS.md, facts: "Each die showing a number equal to or lower than the stat is a Hit".
    result = roll_test(ScriptedDice([1, 5, 6, 10]), dice_count=4, stat=5)
    assert result.faces == (1, 5, 6, 10)
    assert result.hits == 2
    assert result.duds == 2
    assert result.passed


def test_no_hit_is_a_failed_test():
    result = roll_test(ScriptedDice([9, 8]), dice_count=2, stat=7)
    assert result.hits == 0
    assert not result.passed


def test_an_empty_pool_rolls_nothing_and_scores_nothing():
    dice = ScriptedDice([])
    result = roll_test(dice, dice_count=0, stat=5)
    assert result.faces == ()
    assert result.hits == 0
    assert not result.passed
    assert dice.log == []


def test_the_test_rolls_ten_sided_dice():
    dice = ScriptedDice([10, 10, 10])
    roll_test(dice, dice_count=3, stat=10)
    assert [roll.sides for roll in dice.log] == [10, 10, 10]


def test_bonus_dice_are_extra_dice_in_the_pool():
    # RULINGS.md, facts: "Bonus Dice are extra dice added to the pool"; seed 000 "Harm": one per Harm on the Target.
    assert dice_pool(base=2, bonus_dice=3) == 5
    assert dice_pool(base=3) == 3
    result = roll_test(ScriptedDice([2, 9, 4, 7, 1]), dice_count=dice_pool(base=2, bonus_dice=3), stat=4)
    assert result.hits == 3


@pytest.mark.parametrize("stat", [0, 11, -1, 4.5])
def test_a_stat_out_of_range_is_refused(stat):
    with pytest.raises(ValueError, match=f"got {stat}"):
        roll_test(ScriptedDice([1]), dice_count=1, stat=stat)


def test_a_negative_pool_is_refused():
    with pytest.raises(ValueError, match="dice_count must be 0 or more, got -1"):
        roll_test(ScriptedDice([]), dice_count=-1, stat=5)
    with pytest.raises(ValueError, match="bonus_dice must be 0 or more, got -2"):
        dice_pool(base=2, bonus_dice=-2)


@given(st.lists(st.integers(1, 10), max_size=15), st.integers(1, 10))
def test_hits_are_the_faces_at_or_under_the_stat(faces, stat):
    result = roll_test(ScriptedDice(faces), dice_count=len(faces), stat=stat)
    assert result.faces == tuple(faces)
    assert result.hits == sum(face <= stat for face in faces)
    assert result.passed == (result.hits >= 1)
