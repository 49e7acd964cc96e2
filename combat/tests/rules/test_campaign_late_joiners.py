"""Late joiners (CAMPAIGN_PHASE.md, "Campaigns"): the starting XP a warband joining late may tick, and how it may
be shared among its ELITE models (combat/rules/campaign_advancement.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import campaign_limits, check_starting_xp, late_joiner_threshold, late_joiner_xp


def test_a_late_joiner_ticks_1_xp_per_battle_of_the_warband_that_played_most():
    assert late_joiner_xp(battles_played=[3, 5, 1]) == 5
    assert late_joiner_xp(battles_played=[]) == 0


@given(st.lists(st.integers(0, 12), min_size=1))
def test_the_allowance_is_never_below_any_warbands_battles(counts):
    assert all(late_joiner_xp(battles_played=counts) >= count for count in counts)


def test_it_is_shared_among_elite_models_as_the_player_likes():
    check_starting_xp({"agnes": 3, "marcus": 2}, allowance=5, elite={"agnes", "marcus"})
    check_starting_xp(
        {"agnes": 1, "kell": 0}, allowance=5, elite={"agnes"}
    )  # not all of it, nothing to a Troop


def test_a_troop_a_negative_share_or_more_than_the_allowance_is_refused_by_name():
    with pytest.raises(ValueError, match="kell is not ELITE"):
        check_starting_xp({"kell": 1}, allowance=5, elite={"agnes"})
    with pytest.raises(ValueError, match="the starting XP of agnes must be 0 or more"):
        check_starting_xp({"agnes": -1}, allowance=5, elite={"agnes"})
    with pytest.raises(ValueError, match="6 starting XP shared, but only 5 may be ticked"):
        check_starting_xp({"agnes": 4, "marcus": 2}, allowance=5, elite={"agnes", "marcus"})
    with pytest.raises(ValueError, match="battles played must be 0 or more"):
        late_joiner_xp(battles_played=[2, -1])


@pytest.mark.parametrize("allowance", [-1, "5", 2.0, None])
def test_an_allowance_that_is_not_a_count_is_refused_by_its_name(allowance):
    with pytest.raises(ValueError, match=r"^allowance must be 0 or more, got "):
        check_starting_xp({}, allowance=allowance, elite=set())


def test_a_late_joiner_builds_at_the_threshold_of_the_battle_the_warband_that_played_most_plays_next():
    # RULING C-1: battles played 3 -> battle 4, 1000 ducats for a 700 start; the Papal States start 200 lower.
    assert late_joiner_threshold(battles_played=[3, 1, 0]) == 1000
    assert late_joiner_threshold(battles_played=[3], starting_value=500) == 800
    # No battle played yet: not a late joiner, its own starting value.
    assert late_joiner_threshold(battles_played=[], starting_value=650) == 650
    assert late_joiner_threshold(battles_played=[0, 0]) == 700
    assert late_joiner_threshold(battles_played=[11]) == 1800


def test_there_is_no_battle_13_to_join_and_a_negative_count_is_refused():
    with pytest.raises(ValueError, match="there is no battle 13 to join"):
        late_joiner_threshold(battles_played=[12, 4])
    with pytest.raises(ValueError, match="battles played must be 0 or more"):
        late_joiner_threshold(battles_played=[-1])
    with pytest.raises(ValueError, match="starting_value must be 0 or more"):
        late_joiner_threshold(battles_played=[2], starting_value=-5)


@given(st.lists(st.integers(0, 11), min_size=1), st.integers(0, 2000))
def test_a_late_joiners_own_next_threshold_is_the_one_it_built_at(counts, starting_value):
    """Founded at the current Threshold Value, its own battle 1 (RULING C-1) is fielded at exactly that value."""
    built = late_joiner_threshold(battles_played=counts, starting_value=starting_value)
    assert campaign_limits(battle=1, starting_value=built).threshold == built
    assert built == campaign_limits(battle=max(counts) + 1, starting_value=starting_value).threshold
