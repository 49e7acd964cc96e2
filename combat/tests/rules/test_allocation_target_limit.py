"""Damage Allocation pinned by whole `Allocation` values: the Target Limit with the Sustained Damage pool, exact
distances, the ties the defending player must order, and a shooting engagement's attacks (seed 001, RULINGS A-1
to A-5)."""

import pytest

from combat.rules import Allocation, ShootingEngagement, UnitModel, allocate_damage, explain_allocation

ORIGIN = [(0, 0)]


def row_of(count, hp=1):
    """`count` models c1, c2, ... of `hp` HP at x = 1, 2, ... from an attacker at the origin."""
    return [UnitModel(f"c{index}", hp, index, 0) for index in range(1, count + 1)]


def test_ruling_A_3_a_model_removed_through_the_pool_counts_toward_the_target_limit():
    allocation = allocate_damage(models=row_of(3), attackers=ORIGIN, damage=1, target_limit=2, sustained=2)
    assert allocation == Allocation(
        assigned={"c1": 1},
        removed=("c1", "c2"),
        sustained=1,
        lost=0,
        ties=(),
        order=("c1", "c2", "c3"),
        distances={"c1": 1.0, "c2": 2.0, "c3": 3.0},
        target_limit=2,
    )


def test_ruling_A_3_each_model_removed_through_the_pool_counts_once():
    allocation = allocate_damage(models=row_of(4), attackers=ORIGIN, damage=1, target_limit=3, sustained=2)
    assert (allocation.assigned, allocation.removed, allocation.sustained, allocation.lost) == (
        {"c1": 1},
        ("c1", "c2", "c3"),
        0,
        0,
    )


def test_ruling_A_2_distances_are_compared_to_a_millionth_of_an_inch_not_whole_inches():
    far_first = [UnitModel("far", 1, 1.4, 0), UnitModel("near", 1, 1.2, 0)]
    allocation = allocate_damage(models=far_first, attackers=ORIGIN, damage=1)
    assert allocation == Allocation(
        assigned={"near": 1},
        removed=("near",),
        sustained=0,
        lost=0,
        ties=(),
        order=("near", "far"),
        distances={"far": 1.4, "near": 1.2},
    )


def test_ruling_A_2_models_equally_close_to_a_millionth_tie():
    models = [UnitModel("a", 1, 1.0000001, 0), UnitModel("b", 1, 0, 1.0000004)]
    allocation = allocate_damage(models=models, attackers=ORIGIN, damage=1)
    assert allocation.ties == (("a", "b"),)


def test_ruling_A_2_a_tie_between_a_model_taking_part_of_its_hp_and_one_taking_nothing_is_reported():
    models = [UnitModel("amy", 2, 0, 1), UnitModel("bea", 2, 1, 0)]
    allocation = allocate_damage(models=models, attackers=ORIGIN, damage=1)
    assert allocation == Allocation(
        assigned={"amy": 1},
        removed=(),
        sustained=1,
        lost=0,
        ties=(("amy", "bea"),),
        order=("amy", "bea"),
        distances={"amy": 1.0, "bea": 1.0},
    )


def test_ruling_A_2_a_tie_lists_its_models_in_the_order_they_were_passed():
    models = [UnitModel("zed", 1, 0, 1), UnitModel("amy", 1, 1, 0)]
    allocation = allocate_damage(models=models, attackers=ORIGIN, damage=1)
    assert allocation.ties == (("zed", "amy"),)
    assert allocation.assigned == {"zed": 1}


def test_ruling_A_5_a_shooting_engagement_applies_each_attacks_target_limit_and_tie_order():
    models = [UnitModel("a", 1, 1, 0), UnitModel("b", 1, 0, 1), UnitModel("c", 1, 2, 0)]
    engagement = ShootingEngagement().allocate(
        models=models, attackers=ORIGIN, damage=3, target_limit=1, tie_order=["b"]
    )
    assert engagement == ShootingEngagement(
        0,
        (
            Allocation(
                assigned={"b": 1},
                removed=("b",),
                sustained=0,
                lost=2,
                ties=(),
                order=("b", "a", "c"),
                distances={"a": 1.0, "b": 1.0, "c": 2.0},
                target_limit=1,
            ),
        ),
    )
    assert engagement.end() == ("b",)


def test_a_repeated_model_id_is_named_in_the_error():
    models = [UnitModel("a", 1, 1, 0), UnitModel("b", 1, 2, 0), UnitModel("b", 1, 3, 0)]
    with pytest.raises(ValueError, match="model id 'b' appears twice"):
        allocate_damage(models=models, attackers=ORIGIN, damage=1)


@pytest.mark.parametrize("value", [True, "1"])
def test_a_coordinate_must_be_a_number(value):
    with pytest.raises(ValueError, match="x of 'a' must be a finite number"):
        UnitModel("a", 1, value, 0)


def test_the_errors_name_the_coordinate():
    with pytest.raises(ValueError, match="^y of 'a' must be a finite number, got nan$"):
        UnitModel("a", 1, 0, float("nan"))
    with pytest.raises(ValueError, match="^attacker y must be a finite number, got inf$"):
        allocate_damage(models=row_of(1), attackers=[(0, float("inf"))], damage=1)


def test_explain_allocation_of_damage_that_removes_nobody():
    allocation = allocate_damage(models=row_of(2, hp=3), attackers=ORIGIN, damage=2)
    assert explain_allocation(allocation) == (
        "Closest first (RULING A-1): c1 takes 2, into the Sustained Damage pool (now 2, RULING A-4)."
    )


def test_explain_allocation_names_three_removed_models():
    allocation = allocate_damage(models=row_of(4), attackers=ORIGIN, damage=3)
    assert explain_allocation(allocation) == "Closest first (RULING A-1): c1, c2 and c3 removed."
