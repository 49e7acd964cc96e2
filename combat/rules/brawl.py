"""Brawl: the Melee Attack Test, its Bonus Dice, Damage equal to Hits, the Makeshift Weapon.

Implements 002_cf7e36258cfc46bf.txt (Fallout: Factions), headings "Brawl" ("2. Make the Attack Test", "3. Inflict
Damage") and "Makeshift Weapons", read as RULING D-12 says:

"When creating the Dice Pool for the Test, gain Bonus Dice according to the following:
- Gain 1 Bonus Die if the Active model moved into Engagement as part of a Get Moving Action with the Target this
  Turn.
- Add 1 Bonus Die for each Harm the Target has.
- Add 1 Bonus Die for each other Friendly model that is Engaged with the Target that is not Engaged with any
  other Enemy models."
"3. Inflict Damage: Inflict Damage on the Target equal to the number of Hits in the Pool." (through
`damage.inflict_damage`, the one place the Damage table lives)
"Makeshift Weapon: Test 2S, no Traits, no Critical Effect. Available to every model."
"""

from __future__ import annotations

from dataclasses import dataclass

from .damage import Combatant, DamageOutcome, harm_bonus_dice, inflict_damage
from .dice import Dice
from .stat_tests import StatTestResult, check_count, check_stat, roll_test

__all__ = [
    "MAKESHIFT_WEAPON",
    "BrawlResult",
    "MeleeWeapon",
    "attack_bonus_dice",
    "brawl",
    "brawl_bonus_dice",
    "brawl_dice_pool",
]

STATS = ("S", "P", "E", "C", "I", "A", "L")


@dataclass(frozen=True, slots=True)
class MeleeWeapon:
    """A Melee Weapon Profile: its Test is `dice` D10s against the stat it names (`2S` is `dice=2, stat="S"`)."""

    name: str
    dice: int
    stat: str
    traits: tuple[str, ...] = ()
    critical_effect: str | None = None

    def __post_init__(self) -> None:
        if type(self.dice) is not int or self.dice < 1:
            raise ValueError(f"a weapon's Test needs 1 die or more, got {self.dice!r}")
        if self.stat not in STATS:
            raise ValueError(f"a weapon's Test stat must be one of {', '.join(STATS)}, got {self.stat!r}")

    @property
    def test(self) -> str:
        """The Test as the rules write it, e.g. `"2S"`."""
        return f"{self.dice}{self.stat}"


# 002 "Makeshift Weapons" / Quick Reference: "Makeshift Weapon: Test 2S, no Traits, no Critical Effect."
MAKESHIFT_WEAPON = MeleeWeapon(name="Makeshift Weapon", dice=2, stat="S", traits=(), critical_effect=None)


def brawl_bonus_dice(*, charged: bool, target_harm: int, supporting_friends: int) -> int:
    """The Brawl Bonus Dice, summed (002 "2. Make the Attack Test", RULING D-12).

    `charged`: the Active model moved into Engagement with the Target by a Get Moving Action this Turn (+1);
    `target_harm`: Harm on the Target (+1 each); `supporting_friends`: other Friendly models Engaged with the
    Target and with no other Enemy (+1 each).
    """
    if type(charged) is not bool:
        raise ValueError(f"charged must be True or False, got {charged!r}")
    check_count(target_harm, name="target_harm")
    check_count(supporting_friends, name="supporting_friends")
    return int(charged) + target_harm + supporting_friends


def attack_bonus_dice(
    target: Combatant | None, *, brawl: bool, charged: bool = False, supporting_friends: int = 0
) -> int:
    """The Bonus Dice an Attack Test on `target` gains from the rules of the attack itself.

    A Brawl (a Melee Attack, the Makeshift Weapon's too) sums its Bonus Dice: charging, each Harm on the Target,
    each free Friendly model (002 "2. Make the Attack Test", RULING D-12). Any other attack gains one Bonus Die per
    Harm on the Target (000 "Harm", `harm_bonus_dice`). `target=None`: a unit of several models, which keeps a
    Health Pool (seed 004) and no Harm, so no Bonus Die for Harm.
    """
    harm = harm_bonus_dice(target) if target is not None else 0
    if brawl:
        return brawl_bonus_dice(charged=charged, target_harm=harm, supporting_friends=supporting_friends)
    return harm


def brawl_dice_pool(*, weapon: MeleeWeapon, target: Combatant, charged: bool, supporting_friends: int) -> int:
    """The whole Dice Pool of a Melee Attack Test: the weapon's dice plus the Bonus Dice (RULING D-12).

    Pass it to `odds.damage_odds(target, dice_count=..., stat=...)` to show the odds before the roll.
    """
    bonus = brawl_bonus_dice(charged=charged, target_harm=target.harm, supporting_friends=supporting_friends)
    return weapon.dice + bonus


@dataclass(frozen=True, slots=True)
class BrawlResult:
    """A Melee Attack: its Bonus Dice, the Attack Test, and the Damage (equal to the Hits) it inflicted."""

    weapon: MeleeWeapon
    bonus_dice: int
    test: StatTestResult
    damage: DamageOutcome


def brawl(
    dice: Dice,
    *,
    target: Combatant,
    stat: int,
    weapon: MeleeWeapon = MAKESHIFT_WEAPON,
    charged: bool = False,
    supporting_friends: int = 0,
) -> BrawlResult:
    """Make a Melee Attack (002 "Brawl" steps 2 and 3): the Melee Attack Test against `stat` (the Active model's
    value of the stat the weapon names, Strength for a Makeshift Weapon) with the Bonus Dice, then Damage equal to
    the Hits through the Damage table."""
    check_stat(stat)
    bonus = brawl_bonus_dice(charged=charged, target_harm=target.harm, supporting_friends=supporting_friends)
    if target.incapacitated:
        raise ValueError(f"{target.name or 'the Target'} is already Incapacitated and cannot be attacked")
    test = roll_test(dice, dice_count=weapon.dice + bonus, stat=stat)
    # 002 "3. Inflict Damage": "Inflict Damage on the Target equal to the number of Hits in the Pool."
    return BrawlResult(weapon, bonus, test, inflict_damage(target, test.hits))
