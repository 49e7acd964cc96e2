"""The post-game's Reinforcements step (CAMPAIGN_PHASE.md "Reinforcements"; RULING C-4).

"If the warband's value is under its Threshold Value after a battle, its player may call Reinforcements instead of
Exploring: first give up all Battlekit held in the Arsenal (not carried by a fighter) and empty the Strongbox;
then buy fighters and Battlekit up to the Threshold Value; leftover ducats are not kept. A Papal States warband
gains 4 Glory each time it does this." (`glory`, combat.rules.reinforcement_glory, from the warband's faction.)

Stored: the answer (`PostGame.reinforcements_called`) and the purchases (`PostGameTrade` rows marked
`reinforcements`). The budget, the Battlekit given up and the ledger's moves are worked out again each time; the
Threshold Value is the one of the battle about to be played next (RULING C-1: this battle counted). Calling them
sets `Exploration.skipped` (combat/selectors/post_game/exploration.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from combat import rules
from combat.rules.campaign_limits import BATTLES, next_battle
from combat.selectors.post_game import exploration as exploration_step
from combat.selectors.post_game import money
from combat.selectors.post_game.base import StepRead
from rosters.models import Item, LedgerCause

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState


@dataclass
class ReinforcementsRead:
    """Whether the warband may call Reinforcements, and if it did, what they give up, spend and lose."""

    why_not: str | None  # why Reinforcements cannot be called (None: they can)
    called: bool | None  # True called, False declined, None not answered
    threshold: int | None = None
    value: int = 0
    budget: int = 0
    strongbox: int = 0  # what the Strongbox holds before it is emptied
    currency: str = "ducats"
    given_up: list[Item] = field(default_factory=list)  # the Arsenal's Battlekit
    purchases: list[money.TradeLine] = field(default_factory=list)
    glory: int = 0  # the Glory they bring (the Papal States' 4), once called

    @property
    def available(self) -> bool:
        return self.why_not is None

    @property
    def spent(self) -> int:
        return -sum(purchase.ducats for purchase in self.purchases)

    @property
    def left(self) -> int:
        """What the budget still buys (RULING C-4: up to the Threshold Value)."""
        return self.budget - self.spent

    @property
    def done(self) -> bool:
        return not self.available or self.called is not None

    def moves(self, terms) -> list[tuple[str, int, str]]:
        """The ledger's moves, in order: the Strongbox emptied, the budget, each purchase, the leftover lost; they
        sum to minus the Strongbox, so it ends at 0 ("leftover ducats are not kept")."""
        currency = terms.currency
        moves = [
            (LedgerCause.REINFORCEMENTS, -self.strongbox, f"{terms.strongbox} emptied for Reinforcements")
        ]
        moves.append(
            (
                LedgerCause.REINFORCEMENTS,
                self.budget,
                f"Reinforcements' budget: Threshold Value {self.threshold} - value {self.value} (RULING C-4)",
            )
        )
        moves += [(p.cause, p.ducats, f"{p.words} (Reinforcements)") for p in self.purchases]
        moves.append(
            (LedgerCause.REINFORCEMENTS, -self.left, f"Reinforcements: {self.left} {currency} left, not kept")
        )
        return [move for move in moves if move[1]]

    @property
    def sentence(self) -> str | None:
        if not self.called:
            return None
        bought = ", ".join(p.trade.name for p in self.purchases) or "nothing"
        words = (
            f"Reinforcements called: budget {self.budget} {self.currency} (Threshold Value {self.threshold} - "
            f"value {self.value}), bought {bought} for {self.spent}; {self.left} {self.currency} not kept"
        )
        if self.strongbox:
            words += f"; the Strongbox's {self.strongbox} {self.currency} given up"
        if self.given_up:
            words += f"; the Arsenal given up: {', '.join(item.name for item in self.given_up)}"
        if self.glory:
            words += f"; {self.glory} Glory gained (Papal States)"
        return words + "."

    def glory_moves(self) -> list[tuple[str, int, str]]:
        """The ledger's Glory move: "A Papal States warband gains 4 Glory each time it does this"."""
        reason = f"Reinforcements called by the Papal States: {self.glory} Glory gained"
        return [(LedgerCause.REINFORCEMENTS, self.glory, reason)] if self.glory else []


def _battles_played(state: PostGameState) -> int:
    """RULING C-1: the warband's games recorded up to this one, this one included (RULING E-1 counts the same:
    read once for both)."""
    played, _found = exploration_step.record(state)
    return played


def _why_not(state: PostGameState) -> tuple[str | None, int | None, int]:
    """Why the warband may not call Reinforcements (None when it may), its Threshold Value and its value."""
    terms = state.terms
    if not state.campaign.uses_limits:
        return (
            "this campaign's preset leaves the Threshold Value off, so there are no Reinforcements to call",
            None,
            0,
        )
    following = next_battle(battles_played=_battles_played(state))
    if following is None:
        return f"there is no battle after battle {BATTLES[-1]} (RULING C-1)", None, 0
    threshold = rules.campaign_limits(battle=following, starting_value=state.warband.starting_value).threshold
    value = money.value_after_trauma(state)
    if not rules.may_call_reinforcements(threshold=threshold, warband_value=value):
        return (
            f"the warband's value ({value} {terms.currency}) is not under its Threshold Value for battle "
            f"{following} ({threshold}; RULING C-4)",
            threshold,
            value,
        )
    return None, threshold, value


def read(state: PostGameState) -> StepRead:
    """The step's part from the answer and the purchases planned."""
    if state.problem:
        return StepRead()
    live = state.post_game
    why_not, threshold, value = _why_not(state)
    called = live.reinforcements_called if live is not None else None
    step = ReinforcementsRead(why_not, called if why_not is None else None, threshold, value)
    step.currency = state.terms.currency
    if why_not is not None:
        return StepRead(step)
    step.budget = rules.reinforcement_budget(threshold=threshold, warband_value=value)
    step.purchases = [
        money.line(trade, step.currency) for trade in money.trades(state) if trade.reinforcements
    ]
    if not step.called:
        return StepRead(step)
    step.glory = rules.reinforcement_glory(faction=state.warband.faction)
    step.strongbox = money.strongbox_now(state)
    _active, gone = money.after_trauma(state)
    sent = {item.pk for change in state.changes for item in change.to_arsenal}
    step.given_up = [
        item
        for item in money.items(state)
        if (item.fighter_id is None and item.pk not in gone) or item.pk in sent
    ]
    if step.left < 0:
        return StepRead(
            step,
            (
                f"Reinforcements: the purchases cost {step.spent} {step.currency}, over the budget of "
                f"{step.budget} (RULING C-4): take one back.",
            ),
        )
    return StepRead(step)


def done(state: PostGameState) -> bool:
    """Not available, called or declined, or the Exploration Dice rolled instead ("instead of Exploring")."""
    step = state.reinforcements
    exploration = state.exploration
    return (
        step is None or step.done or bool(exploration is not None and getattr(exploration, "rolled", False))
    )
