"""The pure rules engine of Warband Ledger (shared/docs/ENGINE.md); standard library only, no Django."""

from .dice import Dice, DiceExhausted, RandomDice, Roll, ScriptedDice, d3, d66, is_d66
from .stat_tests import StatTestResult, dice_pool, roll_test

__all__ = [
    "Dice",
    "DiceExhausted",
    "RandomDice",
    "Roll",
    "ScriptedDice",
    "StatTestResult",
    "d3",
    "d66",
    "dice_pool",
    "is_d66",
    "roll_test",
]
