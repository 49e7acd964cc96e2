"""Tests for combat/rules/health_pools.py (seed 004): whole models removed, lost Health Points carried, excess
ignored, casualties from the back. The rulings H-1 to H-3 are pinned in test_rulings.py."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import Formation, HealthPool, explain_pool_loss, lose_health_points, remove_casualties


def test_the_ten_trolls_lose_7_then_2_health_points():
    # 004: "a unit of 10 Trolls (3 Health Points each) loses 7 Health Points. Remove two whole models (6 Health
    # Points), leaving 1 lost Health Point, which is kept track of. Later, this unit loses 2 Health Points, which is
    # enough to remove a single Troll since 1 Health Point was lost from the previous attack."
    trolls = HealthPool(models=10, hp_per_model=3)
    first = lose_health_points(trolls, 7)
    assert first.removed == 2
    assert first.after == HealthPool(models=8, hp_per_model=3, lost=1)
    second = lose_health_points(first.after, 2)
    assert second.removed == 1
    assert second.after == HealthPool(models=7, hp_per_model=3, lost=0)
    assert explain_pool_loss(first, model="Troll") == (
        "Lost 7 Health Points: 2 Trolls removed, 1 lost Health Point kept for later attacks (RULING H-1)."
    )
    assert explain_pool_loss(second, model="Troll") == "Lost 2 Health Points: 1 Troll removed (RULING H-1)."


def test_models_of_1_health_point_go_one_per_point_lost():
    # 004: "If the models in attacked Heath Pool have 1 Health Point each, remove one model for each Health Point
    # lost."
    loss = lose_health_points(HealthPool(models=10, hp_per_model=1), 4)
    assert loss.removed == 4
    assert loss.after.models == 6


def test_losses_beyond_the_pool_are_ignored_and_reported():
    loss = lose_health_points(HealthPool(models=2, hp_per_model=3, lost=1), 9)
    assert loss.removed == 2
    assert loss.ignored == 4
    assert loss.after == HealthPool(models=0, hp_per_model=3)
    assert explain_pool_loss(loss) == (
        "Lost 9 Health Points: 2 models removed (RULING H-1), the 4 beyond what the Health Pool had are ignored "
        "(RULING H-2)."
    )
    assert explain_pool_loss(lose_health_points(loss.after, 0)) == "No Health Points lost."


def test_a_separate_pool_of_one_joined_model_keeps_its_own_losses():
    # 004: "any models joined to the unit each have their own separate Health Pool".
    champion = HealthPool(models=1, hp_per_model=4)
    loss = lose_health_points(champion, 3)
    assert loss.removed == 0
    assert loss.after.lost == 3
    assert loss.after.health_points == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"models": -1, "hp_per_model": 1}, "models must be 0 or more, got -1"),
        ({"models": 1, "hp_per_model": 0}, "hp_per_model must be 1 or more, got 0"),
        ({"models": 2, "hp_per_model": 3, "lost": 3}, "lost 3 would remove a whole model"),
        ({"models": 0, "hp_per_model": 3, "lost": 1}, "got lost=1"),
    ],
)
def test_an_impossible_health_pool_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        HealthPool(**fields)


def test_a_negative_loss_is_refused():
    with pytest.raises(ValueError, match="amount must be 0 or more, got -3"):
        lose_health_points(HealthPool(models=1, hp_per_model=1), -3)


# --- casualty removal --------------------------------------------------------------------------------------------

R = "rf"  # the Rank-and-File Health Pool


def test_casualties_come_from_the_back_rank_first_then_alternate_ends():
    formation = Formation(((R, R, R, R, R), (R, R, R, None, None)))
    positions, after = remove_casualties(formation, pool=R, count=4)
    assert positions == ((1, 0), (1, 2), (1, 1), (0, 0))
    assert after.ranks == ((None, R, R, R, R), (None, None, None, None, None))


def test_the_first_rank_loses_models_equally_from_both_sides():
    positions, _ = remove_casualties(Formation(((R, R, R, R, R),)), pool=R, count=4)
    assert positions == ((0, 0), (0, 4), (0, 1), (0, 3))


def test_a_model_of_another_health_pool_is_skipped():
    # 004: "If a model of a different Health Pool is in a position that would normally be removed as a casualty,
    # remove the next eligible model of the attacked Health Pool".
    formation = Formation((("champion", R, R, R, "standard"),))
    positions, after = remove_casualties(formation, pool=R, count=2)
    assert positions == ((0, 1), (0, 3))
    assert after.ranks == (("champion", None, R, None, "standard"),)


def test_removing_more_models_than_the_pool_has_in_the_formation_is_refused():
    with pytest.raises(ValueError, match="cannot remove 3 models of Health Pool 'rf': only 2"):
        remove_casualties(Formation(((R, R, "champion"),)), pool=R, count=3)
    with pytest.raises(ValueError, match="count must be 0 or more, got -1"):
        remove_casualties(Formation(((R,),)), pool=R, count=-1)


def test_a_formation_holds_pool_ids_or_empty_places():
    with pytest.raises(ValueError, match="got 3"):
        Formation(((R, 3),))


def test_a_health_pool_loss_drives_the_casualty_removal():
    trolls = HealthPool(models=6, hp_per_model=3)
    formation = Formation(((R, R, R), (R, R, R)))
    loss = lose_health_points(trolls, 7)
    positions, after = remove_casualties(formation, pool=R, count=loss.removed)
    assert positions == ((1, 0), (1, 2))
    assert after.count(R) == loss.after.models


# --- properties --------------------------------------------------------------------------------------------------


@st.composite
def pools(draw):
    models = draw(st.integers(0, 12))
    hp = draw(st.integers(1, 4))
    lost = draw(st.integers(0, hp - 1)) if models else 0
    return HealthPool(models=models, hp_per_model=hp, lost=lost)


@given(pools(), st.lists(st.integers(0, 20), max_size=5))
def test_a_health_pool_never_goes_below_zero_models(pool, amounts):
    for amount in amounts:
        loss = lose_health_points(pool, amount)
        assert loss.after.models >= 0
        assert loss.removed <= pool.models
        # Every Health Point lost is either taken from the pool or ignored.
        assert pool.health_points - loss.after.health_points == amount - loss.ignored
        assert 0 <= loss.after.lost < loss.after.hp_per_model
        pool = loss.after


@given(
    st.lists(
        st.lists(st.sampled_from([R, R, R, "other", None]), min_size=1, max_size=6), min_size=1, max_size=4
    ),
    st.data(),
)
def test_casualty_removal_empties_exactly_that_many_models_of_the_pool(ranks, data):
    formation = Formation(tuple(tuple(rank) for rank in ranks))
    count = data.draw(st.integers(0, formation.count(R)))
    positions, after = remove_casualties(formation, pool=R, count=count)
    assert len(set(positions)) == len(positions) == count
    assert all(formation.ranks[rank][file] == R for rank, file in positions)
    assert after.count(R) == formation.count(R) - count
    assert after.count("other") == formation.count("other")
    # Back rank first: a rank is only touched when every rank behind it has no model of the pool left.
    for rank, _ in positions:
        assert all(R not in after.ranks[behind] for behind in range(rank + 1, len(after.ranks)))
