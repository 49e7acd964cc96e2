"""Late joiners (CAMPAIGN_PHASE.md, "Campaigns"): the starting XP a warband joining late may tick, and how it may
be shared among its ELITE models (combat/rules/campaign_advancement.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import check_starting_xp, late_joiner_xp


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
