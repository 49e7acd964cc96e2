"""Stat Tests: pools of ten-sided dice, Hits on `<=` the stat, Bonus Dice.

The Fallout: Factions texts (000_57a9b0f426546aa5.txt, 002_cf7e36258cfc46bf.txt) assume the Test mechanics that
RULINGS.md records as facts: "A Test written `2I` rolls 2 ten-sided dice against the model's Intelligence; `2S`
against Strength; `(X)` against the stat the weapon names. Each die showing a number **equal to or lower than**
the stat is a Hit; the others are Duds. Bonus Dice are extra dice added to the pool."

000_57a9b0f426546aa5.txt, "Harm": "When a model with Harm is the Target of an Attack Action, the Attacking model
gains a number of Bonus Dice equal to the amount of Harm on the Target." (`dice_pool`, and
`damage.harm_bonus_dice`)
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Dice

__all__ = ["StatTestResult", "dice_pool", "roll_test"]

STAT_MIN = 1
STAT_MAX = 10


@dataclass(frozen=True, slots=True)
class StatTestResult:
    """The faces rolled for a Test and how many of them are Hits."""

    faces: tuple[int, ...]
    hits: int

    @property
    def passed(self) -> bool:
        """A Test is passed with at least one Hit (RULING D-6)."""
        return self.hits >= 1

    @property
    def duds(self) -> int:
        """Dice that did not score a Hit."""
        return len(self.faces) - self.hits


def check_stat(stat: object, *, name: str = "stat") -> int:
    if type(stat) is not int or not STAT_MIN <= stat <= STAT_MAX:
        raise ValueError(f"{name} must be {STAT_MIN} to {STAT_MAX}, got {stat!r}")
    return stat


def check_count(value: object, *, name: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{name} must be 0 or more, got {value!r}")
    return value


def dice_pool(*, base: int, bonus_dice: int = 0) -> int:
    """The whole pool of a Test: the dice the Test names (`2` in `2I`) plus its Bonus Dice (RULINGS.md, facts)."""
    return check_count(base, name="base") + check_count(bonus_dice, name="bonus_dice")


def roll_test(dice: Dice, *, dice_count: int, stat: int) -> StatTestResult:
    """Roll `dice_count` D10s; each die showing `<= stat` is a Hit (RULINGS.md, facts).

    `dice_count` is the whole pool, Bonus Dice included (for an attack, +1 per Harm on the Target, seed 000
    "Harm"). `stat` is 1..10 and `dice_count` 0 or more, else `ValueError`.
    """
    check_count(dice_count, name="dice_count")
    check_stat(stat)
    faces = tuple(dice.roll(10) for _ in range(dice_count))
    return StatTestResult(faces, sum(1 for face in faces if face <= stat))
