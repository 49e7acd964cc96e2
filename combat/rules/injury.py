"""Trench Crusade's Injury Rolls: the dice pool, the Injury Table, Blood Markers, Down and Tough, and the odds.

Implements TC_IN_GAME.md (docs/rules.md), read as RULINGS I-1 to I-8 say. A Trench Crusade model has no Endurance
and no Harm: "when an attack or any other effect injures it, the attacker makes an Injury Roll and the result is
looked up on the Injury Table."

TC_IN_GAME.md, "The Injury Roll":

    1. Take 2D6, add the +/- INJURY DICE, roll, keep and add as above.
    2. Add the INJURY MODIFIERS (whole numbers, + or -). The negative modifiers together count for at most -3.
    3. Look the result up:  1 or less No Effect; 2-6 Minor Hit (1 Blood Marker); 7-8 Down (1 Blood Marker and
       marked Down; a model already Down gets 2 Blood Markers instead); 9 or more Out of Action.

"Bloodbath Rolls": "the attacker may spend 6 Blood Markers of the target (3 if the target is Down) to make a
Bloodbath Roll: 3D6 with the same +/- INJURY DICE and INJURY MODIFIERS, keeping the 3 highest or 3 lowest dice".
"Markers": "A model carries at most 6 Blood Markers and at most 6 Blessing Markers; markers that would go past 6
are not placed." "Tough": "the first time in a game that a TOUGH model would be taken Out of Action, it is taken
Down instead (the Down result in full)."

Where the dice come from (`injury_pool`): Blood Markers the attacker spends (+1 INJURY DICE each), Blessing Markers
the owner spends (-1 each), a Critical Success (+1), a melee attack against a Down target (+1), and the weapon's
own; armour gives INJURY MODIFIERS: Standard -1, Reinforced -2, Machine -3, a Trench Shield -1 more (I-5).
Keeping the dice is `kept_dice.py`'s; every roll goes through the `Dice` passed in, so `dice.log` holds every face
(RULING I-8 asks the caller to store them with the inputs this module's outcome carries).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

from .dice import Dice
from .kept_dice import D6, keep_dice, kept_sum_counts

__all__ = [
    "ARMOUR",
    "INJURY_RESULTS",
    "MAX_MARKERS",
    "InjuryOutcome",
    "InjuryPool",
    "InjuryRoll",
    "TcModel",
    "injury_odds",
    "injury_pool",
    "injury_result",
    "resolve_injury",
]

INJURY_RESULTS = ("no_effect", "minor_hit", "down", "out_of_action")
# TC_IN_GAME.md, "Markers": "at most 6 Blood Markers and at most 6 Blessing Markers".
MAX_MARKERS = 6
# TC_IN_GAME.md: "Standard Armour -1, Reinforced Armour -2, Machine Armour -3 INJURY MODIFIER".
ARMOUR = MappingProxyType({"standard": -1, "reinforced": -2, "machine": -3})
# "a Trench Shield -1 more (with Standard or Reinforced Armour, never with Machine Armour)", RULING I-5.
SHIELD = -1
# "The negative modifiers together count for at most -3" (RULING I-2).
NEGATIVE_CAP = -3
# The base dice and how many are kept: "2D6 for an Injury Roll, 3D6 for a Bloodbath Roll".
INJURY_DICE_BASE = 2
BLOODBATH_DICE_BASE = 3
# "spend 6 Blood Markers of the target (3 if the target is Down)".
BLOODBATH_COST = 6
BLOODBATH_COST_DOWN = 3
# Not a rule: a bound so that a typing slip cannot ask for a hundred dice or a modifier of 1000. No weapon or
# ability of the game comes near it.
MOST_INJURY_DICE = 20
MOST_MODIFIER = 20
MOST_MODIFIERS = 20


def _check_bool(value: object, name: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def _check_markers(value: object, name: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_MARKERS:
        raise ValueError(f"{name} must be 0 to {MAX_MARKERS}, got {value!r}")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class TcModel:
    """A model on a Trench Crusade board: its Blood and Blessing Markers (0 to 6 each), whether it is Down, whether
    it is TOUGH and has used that up this game (RULING I-4), and whether it is Out of Action (I-7)."""

    blood: int = 0
    blessings: int = 0
    down: bool = False
    tough: bool = False
    tough_used: bool = False
    out_of_action: bool = False

    def __post_init__(self) -> None:
        _check_markers(self.blood, "blood")
        _check_markers(self.blessings, "blessings")
        for name in ("down", "tough", "tough_used", "out_of_action"):
            _check_bool(getattr(self, name), name)
        if self.tough_used and not self.tough:
            raise ValueError("tough_used=True needs tough=True: only a TOUGH model uses up its Tough")


@dataclass(frozen=True, slots=True, kw_only=True)
class InjuryRoll:
    """What the players bring to one Injury (or Bloodbath) Roll.

    `injury_dice` is the net +/- INJURY DICE of the weapon and abilities; `modifiers` their INJURY MODIFIERS one
    by one (each a whole number, + or -); `blood_spent` the target's Blood Markers the attacker spends for +1
    INJURY DICE each (beyond a Bloodbath's own cost, RULING I-6); `blessings_spent` the target's Blessing Markers
    its owner spends for -1 INJURY DICE each; `critical` a Critical Success; `melee` a melee attack (+1 INJURY
    DICE against a Down target); `armour` one of `ARMOUR`'s keys or None; `shield` a Trench Shield;
    `bloodbath` a Bloodbath Roll instead of an Injury Roll.
    """

    injury_dice: int = 0
    modifiers: Sequence[int] = ()
    blood_spent: int = 0
    blessings_spent: int = 0
    critical: bool = False
    melee: bool = False
    armour: str | None = None
    shield: bool = False
    bloodbath: bool = False

    def __post_init__(self) -> None:
        if type(self.injury_dice) is not int or abs(self.injury_dice) > MOST_INJURY_DICE:
            raise ValueError(
                f"injury_dice must be a whole number from -{MOST_INJURY_DICE} to {MOST_INJURY_DICE}, "
                f"got {self.injury_dice!r}"
            )
        if isinstance(self.modifiers, (str, bytes)) or not isinstance(self.modifiers, Sequence):
            raise ValueError(f"modifiers must be a list of whole numbers, got {self.modifiers!r}")
        modifiers = tuple(self.modifiers)
        if len(modifiers) > MOST_MODIFIERS:
            raise ValueError(f"at most {MOST_MODIFIERS} INJURY MODIFIERS, got {len(modifiers)}")
        for modifier in modifiers:
            if type(modifier) is not int or abs(modifier) > MOST_MODIFIER:
                raise ValueError(
                    f"an INJURY MODIFIER must be a whole number from -{MOST_MODIFIER} to {MOST_MODIFIER}, "
                    f"got {modifier!r}"
                )
        object.__setattr__(self, "modifiers", modifiers)
        _check_markers(self.blood_spent, "blood_spent")
        _check_markers(self.blessings_spent, "blessings_spent")
        for name in ("critical", "melee", "shield", "bloodbath"):
            _check_bool(getattr(self, name), name)
        if self.armour is not None and self.armour not in ARMOUR:
            raise ValueError(f"armour must be one of {', '.join(ARMOUR)} or None, got {self.armour!r}")


@dataclass(frozen=True, slots=True)
class InjuryPool:
    """The dice of one roll: `dice` D6 rolled, `keep` kept (2, or 3 for a Bloodbath), the highest (`highest=True`),
    the lowest (False) or all (None) kept (RULING I-1), and the summed `modifier` with armour and shield (I-2,
    I-5). `blood_cost` is the Blood Markers the roll takes off the target before its result (a Bloodbath's cost
    and those spent for dice, I-3), `blessings_cost` the Blessing Markers; `net_dice` the +/- INJURY DICE left
    once + and - cancelled (I-1); `capped` whether the -3 cap cut the negative modifiers (I-2)."""

    dice: int
    keep: int
    highest: bool | None
    modifier: int
    blood_cost: int = 0
    blessings_cost: int = 0
    net_dice: int = 0
    capped: bool = False


@dataclass(frozen=True, slots=True)
class InjuryOutcome:
    """One Injury Roll resolved.

    `faces` every D6 rolled, in order; `kept` the dice kept, highest first; `total` the kept dice plus the
    modifier; `result` one of `INJURY_RESULTS` after Tough (a saved Out of Action reads `"down"` with
    `tough_saved=True`, RULING I-4); `blood_placed` the Blood Markers actually placed (after the cap of 6);
    `after` the target with the spent markers taken off first, then the result applied (I-3, I-7).
    For storing the roll with its inputs (RULING I-8): `before` the target as it was, `roll` what the players
    brought, `pool` the dice and modifier it made, `rolled` the result before Tough, `rulings` the ids that
    decided it.
    """

    faces: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    result: str
    tough_saved: bool
    blood_placed: int
    after: TcModel
    before: TcModel | None = None
    roll: InjuryRoll | None = None
    pool: InjuryPool | None = None
    rolled: str = ""
    rulings: tuple[str, ...] = ()


def _check_target(target: object) -> TcModel:
    if not isinstance(target, TcModel):
        raise ValueError(f"the target must be a TcModel, got {target!r}")
    if target.out_of_action:
        # RULING I-7: Out of Action "takes the model out of play for the rest of the game".
        raise ValueError("the target is already Out of Action: it takes no more Injury Rolls this game")
    return target


def _blood_cost(target: TcModel, roll: InjuryRoll) -> int:
    """The Blood Markers the roll takes off the target: a Bloodbath's cost (read on the target before the roll,
    I-4) plus those spent for dice (I-6), refused when the target does not have them."""
    cost = 0
    if roll.bloodbath:
        cost = BLOODBATH_COST_DOWN if target.down else BLOODBATH_COST
        if target.blood < cost:
            # RULING I-6: "only when the target has enough Blood Markers (6, or 3 if Down)".
            raise ValueError(
                f"a Bloodbath Roll needs {cost} Blood Markers on the target "
                f"({BLOODBATH_COST}, or {BLOODBATH_COST_DOWN} if Down); it has {target.blood}"
            )
    if cost + roll.blood_spent > target.blood:
        spent = f"the Bloodbath's {cost} and " if cost else ""
        raise ValueError(
            f"blood_spent {roll.blood_spent} is more than the target has: {spent}{roll.blood_spent} spent, "
            f"{target.blood} Blood Markers on it"
        )
    return cost + roll.blood_spent


def injury_pool(target: TcModel, roll: InjuryRoll) -> InjuryPool:
    """The dice and modifier of `roll` against `target` (TC_IN_GAME.md; RULINGS I-1, I-2, I-5, I-6).

    Raises `ValueError` for spending more markers than the target has (a Bloodbath's cost included), a Bloodbath
    without enough Blood Markers, or a target already Out of Action; an unknown armour is refused by `InjuryRoll`.
    """
    _check_target(target)
    if not isinstance(roll, InjuryRoll):
        raise ValueError(f"the roll must be an InjuryRoll, got {roll!r}")
    blood_cost = _blood_cost(target, roll)
    if roll.blessings_spent > target.blessings:
        raise ValueError(
            f"blessings_spent {roll.blessings_spent} is more than the target's {target.blessings} Blessing Markers"
        )
    # RULING I-1: every source added up first, + and - cancelling; whether the target is Down is read before
    # the roll (I-4).
    net = roll.injury_dice + roll.blood_spent - roll.blessings_spent
    net += (1 if roll.critical else 0) + (1 if roll.melee and target.down else 0)
    base = BLOODBATH_DICE_BASE if roll.bloodbath else INJURY_DICE_BASE
    highest = None if net == 0 else net > 0
    # RULING I-5: the shield's -1 with Standard or Reinforced Armour or none; with Machine Armour, nothing more.
    armour = [ARMOUR[roll.armour]] if roll.armour is not None else []
    if roll.shield and roll.armour != "machine":
        armour.append(SHIELD)
    every = [*roll.modifiers, *armour]
    negative = sum(value for value in every if value < 0)
    # RULING I-2: the cap applies to the negative modifiers together; the positive ones are added after it.
    modifier = max(negative, NEGATIVE_CAP) + sum(value for value in every if value > 0)
    return InjuryPool(
        base + abs(net),
        base,
        highest,
        modifier,
        blood_cost=blood_cost,
        blessings_cost=roll.blessings_spent,
        net_dice=net,
        capped=negative < NEGATIVE_CAP,
    )


def injury_result(total: int) -> str:
    """The Injury Table's row for a modified result: 1 or less No Effect, 2-6 Minor Hit, 7-8 Down, 9 or more Out
    of Action. RULING I-2: the result is looked up as it is, below 1 included."""
    if type(total) is not int:
        raise ValueError(f"an Injury Roll's result must be a whole number, got {total!r}")
    if total <= 1:
        return "no_effect"
    if total <= 6:
        return "minor_hit"
    if total <= 8:
        return "down"
    return "out_of_action"


def _apply(target: TcModel, pool: InjuryPool, rolled: str) -> tuple[str, bool, int, TcModel]:
    """The result after Tough, whether Tough saved the model, the Blood Markers placed, and the model after."""
    spent = replace(
        target, blood=target.blood - pool.blood_cost, blessings=target.blessings - pool.blessings_cost
    )
    tough_saved = rolled == "out_of_action" and target.tough and not target.tough_used
    # RULING I-4: a Tough model's first Out of Action "becomes this Down result in full", and Tough is used up.
    result = "down" if tough_saved else rolled
    if result == "out_of_action":
        # RULING I-7: no marker; out of play for the rest of the game.
        return result, False, 0, replace(spent, out_of_action=True)
    markers = {"no_effect": 0, "minor_hit": 1, "down": 2 if target.down else 1}[result]
    # RULING I-3: the spent markers came off first; the new ones stop at 6.
    blood = min(MAX_MARKERS, spent.blood + markers)
    after = replace(
        spent,
        blood=blood,
        down=spent.down or result == "down",
        tough_used=spent.tough_used or tough_saved,
    )
    return result, tough_saved, blood - spent.blood, after


def _rulings(
    target: TcModel, roll: InjuryRoll, pool: InjuryPool, outcome: tuple[str, bool, int, TcModel]
) -> tuple[str, ...]:
    """The rulings that decided this roll, for the page's "how this was resolved" line."""
    result, tough_saved, placed, _after = outcome
    markers = {"minor_hit": 1, "down": 2 if target.down else 1}.get(result, 0)
    sources = (
        roll.injury_dice,
        roll.blood_spent,
        roll.blessings_spent,
        roll.critical,
        roll.melee and target.down,
    )
    decided = {
        "I-1": any(sources),
        "I-2": pool.capped,
        "I-3": bool(pool.blood_cost) or placed < markers,
        "I-4": tough_saved or (result == "down" and target.down) or (roll.melee and target.down),
        "I-5": roll.shield,
        "I-6": roll.bloodbath,
        "I-7": result == "out_of_action",
    }
    return tuple(ruling for ruling, applies in decided.items() if applies)


def resolve_injury(target: TcModel, roll: InjuryRoll, dice: Dice) -> InjuryOutcome:
    """Roll `injury_pool`'s dice through `dice` (every face in `dice.log`), keep, add, look up, apply.

    Raises the `ValueError`s of `injury_pool` before any die is rolled; a face that does not fit a D6 is refused
    by the dice (`ScriptedDice`).
    """
    pool = injury_pool(target, roll)
    faces = tuple(dice.roll(D6) for _ in range(pool.dice))
    kept = keep_dice(faces, keep=pool.keep, highest=pool.highest)
    total = sum(kept) + pool.modifier
    rolled = injury_result(total)
    applied = _apply(target, pool, rolled)
    result, tough_saved, placed, after = applied
    return InjuryOutcome(
        faces,
        kept,
        total,
        result,
        tough_saved,
        placed,
        after,
        before=target,
        roll=roll,
        pool=pool,
        rolled=rolled,
        rulings=_rulings(target, roll, pool, applied),
    )


def injury_odds(target: TcModel, roll: InjuryRoll) -> dict[str, Fraction]:
    """The exact chance of each of `INJURY_RESULTS` (all four keys, 0 included) for `roll` against `target`,
    Tough applied (RULING I-4), summing to 1. Raises the same `ValueError`s as `injury_pool`.

    Computed from `kept_sum_counts` (exact, by counting the rolls), never sampled.
    """
    pool = injury_pool(target, roll)
    saves = target.tough and not target.tough_used
    counts = dict.fromkeys(INJURY_RESULTS, 0)
    for kept_total, ways in kept_sum_counts(pool.dice, pool.keep, pool.highest).items():
        result = injury_result(kept_total + pool.modifier)
        counts["down" if result == "out_of_action" and saves else result] += ways
    every = D6**pool.dice
    return {result: Fraction(ways, every) for result, ways in counts.items()}
