"""Whether a fighter's type has Limited Potential (CAMPAIGN_PHASE.md, "Limited Potential models gain at most 3 Skill
Advancements (that is, up to 7 XP)"; RULING X-2), told by the app that keeps the campaign's data.

The flag is campaign data on the fighter type, which `combat` keeps; `rosters` sits below `combat` and names none of
its tables (docs/architecture.md), so `combat` registers the reader from its `AppConfig.ready()` (`register`), as
the dashboard's waiting items are registered. With no reader registered, no fighter has Limited Potential.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rosters.models import Fighter

Reader = Callable[["Fighter"], bool]
_READERS: list[Reader] = []


def register(reader: Reader) -> None:
    """`reader(fighter)` says whether the fighter's type has Limited Potential; registering again replaces it."""
    _READERS[:] = [reader]


def has_limited_potential(fighter: Fighter) -> bool:
    return any(reader(fighter) for reader in _READERS)
