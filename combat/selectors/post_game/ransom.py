"""Captured (TRAUMA_TABLE.md 12): what the paid ransoms of a post-game move between Strongboxes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from combat.rules.words import possessive
from rosters.models import Warband

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState


@dataclass
class StrongboxChange:
    warband: Warband
    delta: int
    reason: str
    ransomed: list[str] = field(default_factory=list)  # the Captured fighters whose ransom this is, by name
    # The Exploration's loot in `delta` (RULING E-3): with a ransom this warband pays, one change for both; the
    # Strongbox ledger keeps them as two entries, each with its own words.
    loot: int = 0
    loot_reason: str = ""
    ransom_reason: str = ""

    @property
    def before(self) -> int:
        return self.warband.strongbox

    @property
    def after(self) -> int:
        return self.warband.strongbox + self.delta


def _paid(state: PostGameState) -> list[tuple[str, int | None, int]]:
    """(name, captor id, ransom) of each settled Captured fighter whose ransom is paid, in roster order."""
    by_id = {casualty.id: casualty for casualty in state.casualties}
    paid = []
    for fighter in state.fighters:
        casualty = by_id.get(fighter.pk)
        if casualty is not None and casualty.answer is not None and casualty.answer.reopened:
            continue  # a reopened fighter's ransom waits for Settle
        outcome = casualty.outcome if casualty is not None else None
        if outcome is None or outcome.pending or casualty.waiting_for:
            continue
        if outcome.entry is not None and outcome.entry.code == "captured" and outcome.ransom_paid:
            answer = state.answers.get(fighter.pk)
            captor_id, ransom = (answer.captor_id, answer.ransom) if answer else (None, 0)
            paid.append((fighter.name, captor_id, ransom))
    return paid


def ransom_changes(state: PostGameState) -> tuple[tuple[StrongboxChange, ...], tuple[str, ...]]:
    """The ransoms leave this warband's Strongbox and reach each captor's; more than it holds stops the Apply."""
    terms = state.terms
    paid = _paid(state)
    total = sum(ransom for _, _, ransom in paid)
    if not total:
        return (), ()
    ransoms: dict[int | None, int] = defaultdict(int)
    ransomed: dict[int | None, list[str]] = defaultdict(list)  # by captor
    for name, captor_id, ransom in paid:
        ransoms[captor_id] += ransom
        if ransom:
            ransomed[captor_id].append(name)
    paid_for = [name for name, _, ransom in paid if ransom]
    boxes = [StrongboxChange(state.warband, -total, f"ransom paid ({total} {terms.currency})", paid_for)]
    opponents = {warband.pk: warband for warband in state.opponents}
    for captor_id, amount in ransoms.items():
        captor = opponents.get(captor_id)
        if captor is not None and amount:
            boxes.append(
                StrongboxChange(
                    captor, amount, f"ransom received from {state.warband.name}", ransomed[captor_id]
                )
            )
    if total > state.warband.strongbox:
        blocker = (
            f"The ransoms come to {total} {terms.currency} but {possessive(state.warband.name)} {terms.strongbox} "
            f"holds only {state.warband.strongbox}: change the ransom."
        )
        return tuple(boxes), (blocker,)
    return tuple(boxes), ()
