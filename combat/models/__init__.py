"""Combat's tables, one module per concern; each is imported here so Django finds it."""

from combat.models.dice_log import DiceRoll

__all__ = ["DiceRoll"]
