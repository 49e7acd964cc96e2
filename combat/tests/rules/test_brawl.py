"""Tests for combat/rules/brawl.py (seed 002): Bonus Dice, the Melee Attack Test, Damage equal to Hits, the
Makeshift Weapon. RULING D-12 is pinned in test_rulings.py."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import (
    MAKESHIFT_WEAPON,
    Combatant,
    MeleeWeapon,
    ScriptedDice,
    attack_bonus_dice,
    brawl,
    brawl_bonus_dice,
    brawl_dice_pool,
    inflict_damage,
)
from combat.tests.rules.strategies import combatants


def test_the_makeshift_weapon_is_a_2s_test_with_no_traits_and_no_critical_effect():
    # 002 Quick Reference: "Makeshift Weapon: Test 2S, no Traits, no Critical Effect."
    assert MAKESHIFT_WEAPON.test == "2S"
    assert MAKESHIFT_WEAPON.dice == 2
    assert MAKESHIFT_WEAPON.stat == "S"
    assert MAKESHIFT_WEAPON.traits == ()
    assert MAKESHIFT_WEAPON.critical_effect is None


def test_bonus_dice_for_a_charge_harm_and_free_friends_add_up():
    assert brawl_bonus_dice(charged=False, target_harm=0, supporting_friends=0) == 0
    assert brawl_bonus_dice(charged=True, target_harm=0, supporting_friends=0) == 1
    assert brawl_bonus_dice(charged=False, target_harm=2, supporting_friends=0) == 2
    assert brawl_bonus_dice(charged=False, target_harm=0, supporting_friends=3) == 3
    assert brawl_bonus_dice(charged=True, target_harm=2, supporting_friends=1) == 4


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"charged": 1, "target_harm": 0, "supporting_friends": 0}, "charged must be True or False, got 1"),
        (
            {"charged": False, "target_harm": -1, "supporting_friends": 0},
            "target_harm must be 0 or more, got -1",
        ),
        (
            {"charged": False, "target_harm": 0, "supporting_friends": -2},
            "supporting_friends must be 0 or more, got -2",
        ),
    ],
)
def test_bonus_dice_refuse_bad_input(fields, message):
    with pytest.raises(ValueError, match=message):
        brawl_bonus_dice(**fields)


def test_the_dice_pool_is_the_weapon_dice_plus_the_bonus_dice():
    target = Combatant(endurance=4, harm=1)
    assert brawl_dice_pool(weapon=MAKESHIFT_WEAPON, target=target, charged=True, supporting_friends=1) == 5


def test_a_brawl_inflicts_damage_equal_to_the_hits():
    # 002 "3. Inflict Damage": "Inflict Damage on the Target equal to the number of Hits in the Pool."
    target = Combatant(endurance=3, health=2, harm=1, name="Fidus")
    dice = ScriptedDice([2, 5, 3, 9])  # 2 weapon dice + 1 for the Harm + 1 for charging
    result = brawl(dice, target=target, stat=5, charged=True)
    assert result.bonus_dice == 2
    assert result.test.faces == (2, 5, 3, 9)
    assert result.test.hits == 3
    assert result.damage == inflict_damage(target, 3)
    assert result.damage.row == "injury"
    assert result.weapon is MAKESHIFT_WEAPON


def test_a_brawl_with_a_melee_weapon_tests_its_own_dice():
    super_sledge = MeleeWeapon(name="Super Sledge", dice=4, stat="S", traits=("Wind Up",))
    dice = ScriptedDice([1, 2, 3, 4])
    result = brawl(dice, target=Combatant(endurance=3, name="Fidus"), stat=6, weapon=super_sledge)
    # The Fidus example of seed 000: 4 Hits, 4 Damage against Endurance 3.
    assert result.test.hits == 4
    assert result.damage.damage == 4
    assert result.damage.incapacitated


def test_a_brawl_with_no_hits_inflicts_nothing():
    result = brawl(ScriptedDice([9, 10]), target=Combatant(endurance=3), stat=4)
    assert result.damage.row == "none"


def test_a_brawl_refuses_an_incapacitated_target_and_a_bad_stat():
    down = Combatant(endurance=3, injuries=1, incapacitated=True)
    with pytest.raises(ValueError, match="already Incapacitated"):
        brawl(ScriptedDice([1, 1]), target=down, stat=5)
    with pytest.raises(ValueError, match="stat must be 1 to 10, got 0"):
        brawl(ScriptedDice([1, 1]), target=Combatant(endurance=3), stat=0)


@pytest.mark.parametrize(
    ("fields", "message"), [({"dice": 0, "stat": "S"}, "got 0"), ({"dice": 2, "stat": "X"}, "got 'X'")]
)
def test_a_weapon_profile_is_checked(fields, message):
    with pytest.raises(ValueError, match=message):
        MeleeWeapon(name="Odd", **fields)


@given(
    combatants(),
    st.integers(1, 10),
    st.booleans(),
    st.integers(0, 3),
    st.lists(st.integers(1, 10), min_size=14, max_size=14),
)
def test_the_same_dice_always_give_the_same_brawl(target, stat, charged, friends, faces):
    first = brawl(ScriptedDice(faces), target=target, stat=stat, charged=charged, supporting_friends=friends)
    second = brawl(ScriptedDice(faces), target=target, stat=stat, charged=charged, supporting_friends=friends)
    assert first == second
    assert len(first.test.faces) == 2 + int(charged) + target.harm + friends
    assert first.damage.damage == first.test.hits


def test_an_attack_gains_a_bonus_die_per_harm_and_a_brawl_adds_its_charge_and_free_friends():
    # 000 "Harm": the Attacking model gains a Bonus Die per Harm on the Target, whatever the attack.
    fidus = Combatant(endurance=3, health=1, harm=2)
    assert attack_bonus_dice(fidus, brawl=False) == 2
    # A charge and free friends are Brawl Bonus Dice only (002 "2. Make the Attack Test", RULING D-12).
    assert attack_bonus_dice(fidus, brawl=False, charged=True, supporting_friends=3) == 2
    assert attack_bonus_dice(fidus, brawl=True, charged=True, supporting_friends=3) == 6
    # A unit keeps a Health Pool and no Harm (seed 004): no Bonus Die for Harm.
    assert attack_bonus_dice(None, brawl=False) == 0
    assert attack_bonus_dice(None, brawl=True, charged=True) == 1
    with pytest.raises(ValueError, match="supporting_friends"):
        attack_bonus_dice(fidus, brawl=True, supporting_friends=-1)


def test_d_12_a_brawl_gains_the_charge_bonus_die_only_when_it_charged():
    fidus = Combatant(endurance=3, health=1, harm=2)
    assert attack_bonus_dice(fidus, brawl=True) == 2  # its Harm only: no charge, no free friends
    assert attack_bonus_dice(None, brawl=True) == 0
