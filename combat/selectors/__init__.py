"""Reads for combat's pages: one function per page need, with the joins that page needs (ARCHITECTURE.md).

Rules questions (odds, what a Damage would do, the XP a fighter earns) are answered by `combat.rules`; these
modules only load rows, turn them into the engine's objects, and shape the answers for templates:

- `tracker`: the board of a game in progress (issue 7);
- `post_game`: the post-game Trauma Step wizard (issue 5);
- `dice_log`: every roll of the campaign (issue 6).

Everything public is re-exported here, so callers keep writing `from combat.selectors import name`.
"""

from combat.selectors.dice_log import DICE_PURPOSES, BadDiceCursor, DiceLogPage, dice_log_page
from combat.selectors.tracker import (
    ACTION_COLUMNS,
    BOARD_COLUMNS,
    MAX_POOL,
    ODDS_ROWS,
    ROW_WORDS,
    STATUS_WORDS,
    AttackPool,
    AttackTest,
    Board,
    BoardCrew,
    BoardFighter,
    LadderStep,
    OddsRow,
    PendingStep,
    attack_dice_pool,
    confusion_from_json,
    confusion_to_json,
    is_unit,
    tracker_attack_odds,
    tracker_attackers,
    tracker_board,
    tracker_combatant,
    tracker_damage_ladder,
    tracker_health_pool,
    tracker_is_champion,
    tracker_target,
    tracker_version,
)

__all__ = [
    # tracker
    "ACTION_COLUMNS",
    "BOARD_COLUMNS",
    "MAX_POOL",
    "ODDS_ROWS",
    "ROW_WORDS",
    "STATUS_WORDS",
    "AttackPool",
    "AttackTest",
    "Board",
    "BoardCrew",
    "BoardFighter",
    "LadderStep",
    "OddsRow",
    "PendingStep",
    "attack_dice_pool",
    "confusion_from_json",
    "confusion_to_json",
    "is_unit",
    "tracker_attack_odds",
    "tracker_attackers",
    "tracker_board",
    "tracker_combatant",
    "tracker_damage_ladder",
    "tracker_health_pool",
    "tracker_is_champion",
    "tracker_target",
    "tracker_version",
    # dice log
    "DICE_PURPOSES",
    "BadDiceCursor",
    "DiceLogPage",
    "dice_log_page",
]
