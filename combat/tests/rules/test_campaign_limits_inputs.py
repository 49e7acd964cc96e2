"""Tests for combat/rules/campaign_limits.py's checked inputs: a roster fighter and a standing refuse bad fields
naming the field (RULINGS C-2, W-2), so an organiser reads which number is wrong."""

import pytest

from combat.rules import RosterFighter, Standing, warband_value


def test_c_2_a_roster_fighter_refuses_a_negative_cost_or_a_removed_mark_that_is_not_yes_or_no_naming_it():
    with pytest.raises(ValueError, match=r"^cost must be 0 or more, got -5$"):
        RosterFighter(cost=-5)
    with pytest.raises(ValueError, match=r"^a Battlekit cost must be 0 or more, got -1$"):
        RosterFighter(cost=5, battlekit=(3, -1))
    with pytest.raises(ValueError, match=r"^removed must be True or False, got 'no'$"):
        RosterFighter(cost=5, removed="no")
    assert warband_value([RosterFighter(cost=0), RosterFighter(cost=20, battlekit=(0, 5))]) == 25


def test_w_2_a_standing_refuses_negative_wins_naming_them():
    with pytest.raises(ValueError, match=r"^wins must be 0 or more, got -1$"):
        Standing("The Iron Saints", victory_points=3, wins=-1)
    with pytest.raises(ValueError, match=r"^victory_points must be 0 or more, got -2$"):
        Standing("The Iron Saints", victory_points=-2, wins=0)
    assert Standing("The Iron Saints", victory_points=0, wins=0) == Standing("The Iron Saints", 0, 0, False)
