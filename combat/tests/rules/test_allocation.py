"""Tests for combat/rules/allocation.py (seed 001): closest eligible first, Target Limit, the Sustained Damage pool,
timing. The rulings A-1 to A-5 are pinned in test_rulings.py."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import ShootingEngagement, UnitModel, allocate_damage, explain_allocation
from combat.tests.rules.strategies import points, unit_models

ORIGIN = [(0, 0)]


def _line(*hps):
    """Models in a line away from the origin, one inch apart, ids a, b, c..."""
    return [UnitModel(chr(ord("a") + index), hp, index + 1, 0) for index, hp in enumerate(hps)]


def test_damage_goes_to_the_closest_models_first():
    allocation = allocate_damage(models=list(reversed(_line(1, 1, 1))), attackers=ORIGIN, damage=2)
    assert allocation.assigned == {"a": 1, "b": 1}
    assert allocation.removed == ("a", "b")
    assert allocation.order == ("a", "b", "c")
    assert allocation.distances == {"a": 1.0, "b": 2.0, "c": 3.0}
    assert allocation.lost == 0
    assert allocation.sustained == 0


def test_a_model_never_takes_more_than_its_hp_from_one_attack():
    allocation = allocate_damage(models=_line(3, 3, 3), attackers=ORIGIN, damage=5)
    assert allocation.assigned == {"a": 3, "b": 2}
    assert allocation.removed == ("a",)
    assert allocation.sustained == 2  # the 2 on b go into the Sustained Damage pool
    assert explain_allocation(allocation) == (
        "Closest first (RULING A-1): a removed; b takes 2, into the Sustained Damage pool (now 2, RULING A-4)."
    )


def test_ineligible_models_take_no_damage():
    models = _line(1, 1, 1)
    models[0] = UnitModel("a", 1, 1, 0, eligible=False)
    allocation = allocate_damage(models=models, attackers=ORIGIN, damage=1)
    assert allocation.assigned == {"b": 1}
    assert "a" not in allocation.order


def test_damage_with_no_model_left_to_take_it_is_lost():
    allocation = allocate_damage(models=_line(1, 2), attackers=ORIGIN, damage=5)
    assert allocation.removed == ("a", "b")
    assert allocation.lost == 2
    assert explain_allocation(allocation).endswith(
        "a and b removed; 2 damage lost with no eligible model left."
    )


def test_no_damage_assigns_nothing():
    allocation = allocate_damage(models=_line(1), attackers=ORIGIN, damage=0, sustained=0)
    assert allocation.assigned == {}
    assert allocation.removed == ()
    assert explain_allocation(allocation) == "No damage to assign."


def test_equally_close_models_the_damage_splits_are_returned_as_a_tie():
    models = [UnitModel("a", 1, 0, 1), UnitModel("b", 1, 1, 0), UnitModel("c", 1, 0, 2)]
    allocation = allocate_damage(models=models, attackers=ORIGIN, damage=1)
    assert allocation.ties == (("a", "b"),)
    assert allocation.assigned == {"a": 1}  # until the defender chooses, the order of models as passed
    assert explain_allocation(allocation) == (
        "Closest first (RULING A-1): a removed; a and b are equally close: the defending player chooses who comes "
        "first (RULING A-2)."
    )


def test_the_defenders_tie_order_settles_the_tie():
    models = [UnitModel("a", 1, 0, 1), UnitModel("b", 1, 1, 0), UnitModel("c", 1, 0, 2)]
    allocation = allocate_damage(models=models, attackers=ORIGIN, damage=1, tie_order=["b"])
    assert allocation.assigned == {"b": 1}
    assert allocation.ties == ()


def test_a_tie_the_damage_does_not_split_needs_no_choice():
    models = [UnitModel("a", 1, 0, 1), UnitModel("b", 1, 1, 0), UnitModel("c", 1, 0, 2)]
    assert allocate_damage(models=models, attackers=ORIGIN, damage=2).ties == ()  # both removed
    assert (
        allocate_damage(models=models[2:] + models[:2], attackers=[(0, 5)], damage=1).ties == ()
    )  # out of reach


def test_a_tie_between_models_of_different_hp_matters_even_when_both_take_damage():
    models = [UnitModel("a", 3, 0, 1), UnitModel("b", 2, 1, 0)]
    allocation = allocate_damage(models=models, attackers=ORIGIN, damage=4)
    assert allocation.assigned == {"a": 3, "b": 1}
    assert allocation.ties == (("a", "b"),)


def test_distances_equal_up_to_floating_point_are_a_tie():
    models = [UnitModel("a", 1, 0.1 + 0.2, 0), UnitModel("b", 1, 0, 0.3)]
    assert allocate_damage(models=models, attackers=ORIGIN, damage=1).ties == (("a", "b"),)


def test_the_target_limit_caps_the_models_assigned_damage():
    allocation = allocate_damage(models=_line(1, 1, 1, 1, 1), attackers=ORIGIN, damage=4, target_limit=2)
    assert allocation.assigned == {"a": 1, "b": 1}
    assert allocation.lost == 2
    assert allocation.targets == 2
    assert explain_allocation(allocation) == (
        "Closest first (RULING A-1): a and b removed; 2 damage lost beyond the Target Limit of 2 (RULING A-3)."
    )


def test_damage_that_does_not_remove_a_model_fills_the_sustained_damage_pool():
    allocation = allocate_damage(models=_line(3, 3), attackers=ORIGIN, damage=1, sustained=1)
    assert allocation.assigned == {"a": 1}
    assert allocation.removed == ()
    assert allocation.sustained == 2


def test_the_pool_removes_a_model_when_it_reaches_its_hp():
    allocation = allocate_damage(models=_line(3, 3), attackers=ORIGIN, damage=2, sustained=1)
    assert allocation.assigned == {"a": 2}
    assert allocation.removed == ("a",)
    assert allocation.sustained == 0


def test_the_pool_can_remove_the_next_model_too_within_the_target_limit():
    # a takes 2: pool 2 + 2 = 4 removes a (pool 1), and pool 1 removes b (1 HP), which counts toward the limit.
    models = _line(3, 1)
    unlimited = allocate_damage(models=models, attackers=ORIGIN, damage=2, sustained=2)
    assert unlimited.removed == ("a", "b")
    assert unlimited.assigned == {"a": 2}
    assert unlimited.sustained == 0
    assert unlimited.targets == 2
    limited = allocate_damage(models=models, attackers=ORIGIN, damage=2, sustained=2, target_limit=1)
    assert limited.removed == ("a",)
    assert limited.sustained == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"damage": -1}, "damage must be 0 or more, got -1"),
        ({"damage": 1, "sustained": -2}, "sustained must be 0 or more, got -2"),
        ({"damage": 1, "target_limit": 0}, "target_limit must be 1 or more \\(or None\\), got 0"),
        ({"damage": 1, "attackers": []}, "at least one contributing model, got \\[\\]"),
        (
            {"damage": 1, "attackers": [(1, 2, 3)]},
            "an attacker must be an \\(x, y\\) pair, got \\(1, 2, 3\\)",
        ),
        ({"damage": 1, "attackers": [(math.nan, 0)]}, "attacker x must be a finite number, got nan"),
        ({"damage": 1, "tie_order": ["zed"]}, "tie_order names 'zed'"),
        ({"damage": 1, "tie_order": ["a", "a"]}, "tie_order names 'a' twice"),
        ({"damage": 1, "models": _line(1) + _line(1)}, "model id 'a' appears twice"),
    ],
)
def test_allocation_refuses_bad_input_naming_the_value(fields, message):
    arguments = {"models": _line(1, 1), "attackers": ORIGIN, **fields}
    with pytest.raises(ValueError, match=message):
        allocate_damage(**arguments)


@pytest.mark.parametrize(
    ("fields", "message"), [({"hp": 0}, "hp of 'a' must be 1 or more, got 0"), ({"x": math.inf}, "x of 'a'")]
)
def test_a_unit_model_is_checked(fields, message):
    with pytest.raises(ValueError, match=message):
        UnitModel(**{"id": "a", "hp": 1, "x": 0, "y": 0, **fields})


def test_a_shooting_engagement_carries_the_pool_and_removes_models_only_when_it_ends():
    engagement = ShootingEngagement()
    engagement = engagement.allocate(models=_line(2, 2, 2), attackers=ORIGIN, damage=3)
    assert engagement.to_remove == ("a",)
    assert engagement.sustained == 1
    # The unit moves; the next attack of the engagement comes from the other side. a is due for removal, so it
    # takes no more damage; c is now closest.
    moved = [UnitModel("a", 2, 9, 0), UnitModel("b", 2, 5, 0), UnitModel("c", 2, 8, 0)]
    engagement = engagement.allocate(models=moved, attackers=[(10, 0)], damage=1)
    assert engagement.last.assigned == {"c": 1}
    assert engagement.to_remove == ("a", "c")
    assert engagement.assigned == ("a", "b", "c")
    assert engagement.end() == ("a", "c")
    assert engagement.allocations[0].assigned == {"a": 2, "b": 1}


# --- properties --------------------------------------------------------------------------------------------------


@given(
    unit_models(),
    st.lists(points, min_size=1, max_size=3),
    st.integers(0, 15),
    st.one_of(st.none(), st.integers(1, 5)),
    st.integers(0, 3),
)
def test_allocation_never_assigns_more_than_dealt_nor_to_more_models_than_the_target_limit(
    models, attackers, damage, target_limit, sustained
):
    allocation = allocate_damage(
        models=models, attackers=attackers, damage=damage, target_limit=target_limit, sustained=sustained
    )
    hp = {model.id: model.hp for model in models}
    assert sum(allocation.assigned.values()) + allocation.lost == damage
    assert sum(allocation.assigned.values()) <= damage
    assert all(0 < amount <= hp[model_id] for model_id, amount in allocation.assigned.items())
    if target_limit is not None:
        assert allocation.targets <= target_limit
    assert len(set(allocation.removed)) == len(allocation.removed)
    assert set(allocation.removed) <= {model.id for model in models if model.eligible}
    # Nothing is created or destroyed: what went in is what was removed plus what the pool keeps.
    assert sustained + damage - allocation.lost == allocation.sustained + sum(
        hp[i] for i in allocation.removed
    )


@given(unit_models(), st.lists(points, min_size=1, max_size=3), st.integers(0, 15))
def test_closer_models_are_never_spared_for_farther_ones(models, attackers, damage):
    allocation = allocate_damage(models=models, attackers=attackers, damage=damage)
    hit = set(allocation.assigned) | set(allocation.removed)
    for model_id in hit:
        for other in allocation.order:
            if allocation.distances[other] < allocation.distances[model_id]:
                assert other in hit


@given(unit_models(), st.lists(points, min_size=1, max_size=3), st.integers(0, 15))
def test_a_full_tie_order_leaves_no_tie_to_ask_about(models, attackers, damage):
    allocation = allocate_damage(
        models=models, attackers=attackers, damage=damage, tie_order=[model.id for model in models]
    )
    assert allocation.ties == ()


def test_a_shot_of_a_shooting_engagement_says_its_models_are_removed_when_it_ends():
    # Seed 001 "Timing", RULING A-5: assigned when determined, removed when the engagement is resolved.
    models = [UnitModel("a", 2, 1, 0), UnitModel("b", 2, 2, 0)]
    shot = ShootingEngagement().allocate(models=models, attackers=[(0, 0)], damage=3).last
    assert explain_allocation(shot, shooting=True) == (
        "Closest first (RULING A-1): a assigned, removed when the shooting engagement ends (RULING A-5); "
        "b takes 1, into the Sustained Damage pool (now 1, RULING A-4)."
    )
    assert explain_allocation(shot).startswith("Closest first (RULING A-1): a removed;")
