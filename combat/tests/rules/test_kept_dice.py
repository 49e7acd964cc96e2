"""Tests for combat/rules/kept_dice.py: keeping the highest or lowest dice and counting the sums they show
(TC_IN_GAME.md, "The Injury Roll": "roll, keep and add")."""

import pytest

from combat.rules.kept_dice import kept_sum_counts


@pytest.mark.parametrize(("dice", "keep"), [(3.0, 2), (3, 2.0), ("3", 2), (3, 0), (2, 3)])
def test_the_counts_refuse_dice_or_a_keep_that_are_not_whole_numbers_that_fit(dice, keep):
    with pytest.raises(ValueError, match="keep must be 1 to dice"):
        kept_sum_counts(dice, keep, True)


def test_two_d6_kept_whole_count_every_roll_once():
    counts = kept_sum_counts(2, 2, None)
    assert counts == {total: 6 - abs(total - 7) for total in range(2, 13)}
    assert sum(counts.values()) == 36
