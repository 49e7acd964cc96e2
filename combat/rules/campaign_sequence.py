"""What one step of the post-battle sequence decides for another (CAMPAIGN_PHASE.md, "The order of the steps").

"After the Trauma Step, a player may also dismiss any fighter with 2 or more Battle Scars." (`may_dismiss`,
`DISMISS_FROM_SCARS`)
"4. Reinforcements (optional; see below: taking them skips step 5)." and, under "Reinforcements", "its player may
call Reinforcements instead of Exploring" (`exploration_skipped`)
"""

from __future__ import annotations

from .stat_tests import check_count

__all__ = [
    "DISMISS_FROM_SCARS",
    "REINFORCEMENTS_INSTEAD",
    "explain_dismissal",
    "exploration_skipped",
    "may_dismiss",
]

# CAMPAIGN_PHASE.md, "The order of the steps": "any fighter with 2 or more Battle Scars".
DISMISS_FROM_SCARS = 2
# CAMPAIGN_PHASE.md, "Reinforcements": "instead of Exploring"; "The order of the steps": "taking them skips step 5".
REINFORCEMENTS_INSTEAD = "Reinforcements were called instead (CAMPAIGN_PHASE.md: they skip the Exploration)"


def _check_bool(value: object, *, name: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def may_dismiss(*, battle_scars: int, on_roster: bool) -> bool:
    """Whether a player may dismiss a fighter: CAMPAIGN_PHASE.md, "After the Trauma Step, a player may also dismiss
    any fighter with 2 or more Battle Scars". `battle_scars` are the fighter's after this post-game's Trauma Step;
    `on_roster` is False for a fighter that step (or an earlier game) took off the roster, which has nobody left
    to dismiss. A negative count raises `ValueError`."""
    check_count(battle_scars, name="battle_scars")
    _check_bool(on_roster, name="on_roster")
    return on_roster and battle_scars >= DISMISS_FROM_SCARS


def explain_dismissal(*, battle_scars: int) -> str:
    """The dismissal in one sentence, with the rule that allowed it: "Dismissed with 3 Battle Scars (a fighter
    with 2 or more may be)." A fighter with fewer Battle Scars may not be dismissed: `ValueError`."""
    if not may_dismiss(battle_scars=battle_scars, on_roster=True):
        raise ValueError(
            f"battle_scars {battle_scars!r}: only a fighter with {DISMISS_FROM_SCARS} or more may be dismissed"
        )
    return f"Dismissed with {battle_scars} Battle Scars (a fighter with {DISMISS_FROM_SCARS} or more may be)."


def exploration_skipped(*, reinforcements_called: bool | None) -> str | None:
    """Why the Exploration is skipped, or None when it is not: Reinforcements are called "instead of Exploring"
    (CAMPAIGN_PHASE.md). `reinforcements_called` is True when they were called, False when declined, None when
    not (yet) answered or not available: only True skips it."""
    if reinforcements_called is not None:
        _check_bool(reinforcements_called, name="reinforcements_called")
    return REINFORCEMENTS_INSTEAD if reinforcements_called else None
