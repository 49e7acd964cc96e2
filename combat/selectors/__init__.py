"""Reads for combat's pages: one function per page need, with the joins that page needs (ARCHITECTURE.md).

Rules questions (odds, what a Damage would do, the XP a fighter earns) are answered by `combat.rules`; these
modules only load rows, turn them into the engine's objects, and shape the answers for templates:

- `tracker`: the board of a game in progress (issue 7);
- `post_game`: the post-game Trauma Step wizard (issue 5);
- `dice_log`: every roll of the campaign (issue 6).

Everything public is re-exported here, so callers keep writing `from combat.selectors import name`.
"""

from combat.selectors.post_game import (
    HEAVY,
    POST_GAME_STEPS,
    REMOVAL_STATUS,
    SNIPER_PRIEST,
    CasualtyState,
    FighterChange,
    LoggedRoll,
    OddsLine,
    PostGameProblem,
    PostGameState,
    RollNeeded,
    StrongboxChange,
    XpLine,
    post_game_casualty,
    post_game_full_recovery_instead,
    post_game_is_elite,
    post_game_player,
    post_game_state,
    post_game_trauma_table,
)

__all__ = [
    # post-game
    "HEAVY",
    "POST_GAME_STEPS",
    "REMOVAL_STATUS",
    "SNIPER_PRIEST",
    "CasualtyState",
    "FighterChange",
    "LoggedRoll",
    "OddsLine",
    "PostGameProblem",
    "PostGameState",
    "RollNeeded",
    "StrongboxChange",
    "XpLine",
    "post_game_casualty",
    "post_game_full_recovery_instead",
    "post_game_is_elite",
    "post_game_player",
    "post_game_state",
    "post_game_trauma_table",
]
