"""The Apply and Revert parts of the post-game's Dismiss the wounded step: fighters with 2 or more Battle Scars dismissed (CAMPAIGN_PHASE.md).

Not built yet (issue 12): nothing to write, nothing to take back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState


def apply_part(state: PostGameState) -> dict[str, Any]:
    """Write the step's changes; return the snapshot entries (keys of its own) the Revert reads."""
    return {}


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """Take the step's changes back from its snapshot entries (absent in older snapshots: nothing to do)."""
