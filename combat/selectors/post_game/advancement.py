"""The post-game's Advancement step: the Skill Advancement Rolls the XP reached (CAMPAIGN_PHASE.md, RULINGS X-1 to X-3).

Not built yet (issue 12): `read` fills nothing and `done` says the step has nothing to do, so the wizard passes
through it to Review.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from combat.models import PostGameFighter
    from combat.selectors.post_game.state import PostGameState


def read(state: PostGameState, answers: dict[int, PostGameFighter]) -> None:
    """Fill `state.advancement` (and add to `state.changes` and `state.blockers`) from the stored rows."""


def done(state: PostGameState) -> bool:
    """Whether the step has nothing left to do (the wizard goes on past it)."""
    return True
