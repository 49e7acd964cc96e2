"""Damage, Harm, Injury, Incapacitation and Harsh Lessons (Confusion, which an Incapacitation sets off, is
confusion.py).

Implements 000_57a9b0f426546aa5.txt (Fallout: Factions), headings "Damage Resolution", "Harm", "Injury",
"Incapacitation" and "Experience: Harsh Lessons", read as RULINGS.md D-1 to D-5, D-7, D-8 and D-11 say.

The Damage Resolution table:

    Amount of Damage inflicted is…                        Outcome
    …at least double the model's Endurance.               The model is Incapacitated.
    …equal to or greater than the model's Endurance.      The model suffers an Injury and 1 Harm.
    …less than the model's Endurance.                     The model suffers 1 Harm. If this causes Excess Harm,
                                                          the model suffers an Injury.

"Harm": "Most models have a Harm Limit of 3. [...] Excess Harm caused by Damage will cause an Injury."
"Injury": "If the number of marked Injury Boxes equals the model's Health value, the model is Incapacitated."
"Experience: Harsh Lessons": "If a Champion is Incapacitated, its crew earns 1 XP. Each crew can only benefit from
this rule once per game."

Besides the names of docs/engine.md this module offers, for the in-game tracker:

- `explain_damage(outcome)`: the outcome in one plain sentence that cites the rule;
- `harm_bonus_dice(target)`, `recover_harm(target, amount)`, `can_take_fatigue(model)` (RULING D-7).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .stat_tests import check_count
from .words import possessive

if TYPE_CHECKING:
    from .confusion import FriendlyModel

__all__ = [
    "Combatant",
    "DamageOutcome",
    "HarshLessons",
    "can_take_fatigue",
    "explain_damage",
    "harm_bonus_dice",
    "incapacitating_damage",
    "inflict_damage",
    "recover_harm",
]

# RULINGS.md, facts: "a model takes 1 Fatigue for each Action; at 2 Fatigue it is Exhausted."
EXHAUSTED_AT = 2

Row = Literal["incapacitated", "injury", "harm", "none"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Combatant:
    """A model's state as far as Damage is concerned (seed 000).

    `harm_limit=None` is a model with no Harm Limit (RULING D-4). `name` is optional and only used to explain
    outcomes in words.
    """

    endurance: int
    health: int = 1
    harm: int = 0
    harm_limit: int | None = 3
    injuries: int = 0
    fatigue: int = 0
    champion: bool = False
    incapacitated: bool = False
    name: str | None = None

    def __post_init__(self) -> None:
        if type(self.endurance) is not int or self.endurance < 1:
            raise ValueError(f"endurance must be 1 or more, got {self.endurance!r}")
        if type(self.health) is not int or self.health < 1:
            raise ValueError(f"health must be 1 or more, got {self.health!r}")
        check_count(self.harm, name="harm")
        if self.harm_limit is not None:
            check_count(self.harm_limit, name="harm_limit")
            if self.harm > self.harm_limit:
                # 000 "Harm": "the model cannot suffer any more than 3 Harm" (its Harm Limit).
                raise ValueError(f"harm {self.harm} is above the Harm Limit {self.harm_limit}")
        check_count(self.injuries, name="injuries")
        if self.injuries > self.health:
            raise ValueError(f"injuries {self.injuries} are more than health {self.health}")
        if self.injuries == self.health and not self.incapacitated:
            # 000 "Injury": marked Injury Boxes equal to Health means the model is Incapacitated.
            raise ValueError(
                f"injuries {self.injuries} equal health {self.health}: such a model is Incapacitated, "
                "pass incapacitated=True"
            )
        check_count(self.fatigue, name="fatigue")
        if self.fatigue > EXHAUSTED_AT:
            raise ValueError(f"fatigue must be 0 to {EXHAUSTED_AT}, got {self.fatigue}")


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    """What one amount of Damage did to a model (seed 000 "Damage Resolution").

    `row` is the table row applied (`"none"` for 0 Damage); `harm_suffered` the Harm actually added (0 when it
    became Excess Harm or was moot); `excess_harm` the Harm beyond the Harm Limit (each one an Injury, RULING
    D-2); `injuries_suffered` the Injuries marked; `incapacitated` whether this Damage Incapacitated the model;
    `after` the model afterwards. `damage`, `before` and `rulings` (the RULINGS.md ids that decided it) are
    extras for explaining the outcome.
    """

    row: Row
    harm_suffered: int
    excess_harm: int
    injuries_suffered: int
    incapacitated: bool
    after: Combatant
    damage: int = 0
    before: Combatant | None = None
    rulings: tuple[str, ...] = ()


def _who(target: Combatant) -> str:
    return target.name or "the model"


def inflict_damage(target: Combatant, damage: int) -> DamageOutcome:
    """Apply `damage` to `target` through the Damage Resolution table (seed 000, RULINGS D-1 to D-5, D-8)."""
    if type(damage) is not int or damage < 0:
        raise ValueError(f"damage must be 0 or more, got {damage!r}")
    if target.incapacitated:
        raise ValueError(f"{_who(target)} is already Incapacitated and cannot take Damage {damage}")
    if damage == 0:
        # RULING D-5: an attack with no Hits inflicts no Damage, so no Harm.
        return DamageOutcome("none", 0, 0, 0, False, target, 0, target, ("D-5",))

    endurance = target.endurance
    # RULING D-1: compare in the table's order.
    if damage >= incapacitating_damage(target):
        # 000 "Damage Resolution": "at least double the model's Endurance. The model is Incapacitated."
        after = _after(target, target.harm, target.injuries, True)
        return DamageOutcome("incapacitated", 0, 0, 0, True, after, damage, target, ())

    if damage >= endurance:
        # 000 "Damage Resolution": "equal to or greater than [...] Endurance. The model suffers an Injury and
        # 1 Harm." RULING D-3: the Injury is applied before the Harm.
        row: Row = "injury"
        injuries = target.injuries + 1
    else:
        # 000 "Damage Resolution": "less than the model's Endurance. The model suffers 1 Harm."
        row = "harm"
        injuries = target.injuries
    harm, harm_suffered, excess_harm, injuries, rulings = _suffer_harm(target, injuries)
    health = target.health
    incapacitated = injuries >= health  # 000 "Injury": Injury Boxes equal to Health.
    after = _after(target, harm, injuries, incapacitated)
    return DamageOutcome(
        row,
        harm_suffered,
        excess_harm,
        injuries - target.injuries,
        incapacitated,
        after,
        damage,
        target,
        rulings,
    )


def _suffer_harm(target: Combatant, injuries: int) -> tuple[int, int, int, int, tuple[str, ...]]:
    """The 1 Harm of either row, after its Injury: (harm, harm suffered, Excess Harm, injuries, rulings)."""
    harm = target.harm
    if injuries >= target.health:
        # RULING D-3: the Injuries reached Health, so the Harm from the same Damage is moot; RULING D-8: this is
        # the same Incapacitation as the table's.
        return harm, 0, 0, injuries, ("D-3", "D-8")
    limit = target.harm_limit
    if limit is None or harm < limit:
        # RULING D-4: a model with no Harm Limit never suffers Excess Harm.
        return harm + 1, 1, 0, injuries, ()
    # 000 "Harm": "Excess Harm caused by Damage will cause an Injury", on either row (RULING D-2); Harm never
    # rises above the Harm Limit.
    injuries += 1
    return harm, 0, 1, injuries, ("D-2", "D-8") if injuries >= target.health else ("D-2",)


def _after(target: Combatant, harm: int, injuries: int, incapacitated: bool) -> Combatant:
    # The values come from a valid Combatant by the table's steps, so they are valid: skip the checks
    # (inflict_damage is on the tracker's hot path and in the odds' inner loop).
    after = object.__new__(Combatant)
    for field, value in (
        ("endurance", target.endurance),
        ("health", target.health),
        ("harm", harm),
        ("harm_limit", target.harm_limit),
        ("injuries", injuries),
        ("fatigue", target.fatigue),
        ("champion", target.champion),
        ("incapacitated", incapacitated),
        ("name", target.name),
    ):
        object.__setattr__(after, field, value)
    return after


def incapacitating_damage(target: Combatant) -> int:
    """The least Damage that Incapacitates `target` outright: double its Endurance (seed 000 "Damage Resolution",
    compared in the table's order, RULING D-1)."""
    return 2 * target.endurance


def harm_bonus_dice(target: Combatant) -> int:
    """Bonus Dice an Attack against `target` gains: one per Harm on it (seed 000 "Harm")."""
    return target.harm


def recover_harm(target: Combatant, amount: int) -> Combatant:
    """The model after it Recovers `amount` Harm (seed 000 "Harm": "Some rules allow models to Recover Harm");
    Harm does not go below 0."""
    check_count(amount, name="amount")
    return Combatant(
        endurance=target.endurance,
        health=target.health,
        harm=max(0, target.harm - amount),
        harm_limit=target.harm_limit,
        injuries=target.injuries,
        fatigue=target.fatigue,
        champion=target.champion,
        incapacitated=target.incapacitated,
        name=target.name,
    )


def can_take_fatigue(target: Combatant | FriendlyModel) -> bool:
    """False at 2 Fatigue: an Exhausted model cannot Take Fatigue, so if Confused it must Flee (RULING D-7)."""
    return target.fatigue < EXHAUSTED_AT


class HarshLessons:
    """Harsh Lessons XP, once per crew per game (seed 000 "Experience: Harsh Lessons", RULINGS D-8, D-11).

    The engine's one mutable object: one per game. `earned` rebuilds it from what the game already recorded
    (the web process keeps no state between requests).
    """

    __slots__ = ("_earned",)

    def __init__(self, earned: Iterable[str] = ()) -> None:
        self._earned: set[str] = set(earned)

    def award(self, crew: str, target: Combatant) -> int:
        """1 the first time an Incapacitated Champion of `crew` is passed in this game, else 0."""
        if not (target.champion and target.incapacitated) or crew in self._earned:
            return 0
        self._earned.add(crew)
        return 1

    def has_earned(self, crew: str) -> bool:
        """Whether `crew` already earned its Harsh Lessons XP this game."""
        return crew in self._earned

    @property
    def crews(self) -> frozenset[str]:
        """The crews that earned the XP this game."""
        return frozenset(self._earned)

    def __repr__(self) -> str:
        return f"HarshLessons(earned={sorted(self._earned)!r})"


def _injuries(count: int) -> str:
    return f"{count} Injury" if count == 1 else f"{count} Injuries"


def explain_damage(outcome: DamageOutcome, *, name: str | None = None) -> str:
    """One plain sentence saying what the Damage did and which rule decided it, e.g.
    "Damage 4 ≥ Endurance 3: one Injury and 1 Harm — Fidus has 1 Health, so Fidus is Incapacitated (RULING D-8)."
    """
    before = outcome.before if outcome.before is not None else outcome.after
    after = outcome.after
    who = name or before.name or "the model"
    damage, endurance = outcome.damage, before.endurance
    if outcome.row == "none":
        return "No Damage: nothing happens, not even Harm (RULING D-5)."
    if outcome.row == "incapacitated":
        return f"Damage {damage} ≥ double Endurance {endurance}: {who} is Incapacitated (Damage Resolution table)."
    if outcome.row == "injury":
        head = f"Damage {damage} ≥ Endurance {endurance}: one Injury and 1 Harm"
    else:
        head = f"Damage {damage} < Endurance {endurance}: 1 Harm"
    parts = []
    if outcome.excess_harm:
        which = "a second Injury" if outcome.row == "injury" else "an Injury"
        parts.append(
            f"{who} is already at the Harm Limit of {before.harm_limit}, so the Excess Harm is {which} (RULING D-2)"
        )
    if outcome.incapacitated:
        if after.health == 1:
            end = f"{who} has 1 Health, so {who} is Incapacitated"
        else:
            end = f"{possessive(who)} {_injuries(after.injuries)} reach Health {after.health}, so {who} is Incapacitated"
        if outcome.row == "injury" and not outcome.excess_harm:
            end += " and the Harm is moot (RULINGS D-3, D-8)"
        else:
            end += " (RULING D-8)"
        parts.append(end)
    else:
        state = f"{who} now has {after.harm} Harm"
        if after.injuries:
            state += f" and {after.injuries} of {after.health} Injuries"
        parts.append(state)
    return f"{head} — {'; '.join(parts)}."
