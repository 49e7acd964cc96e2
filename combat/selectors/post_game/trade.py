"""The post-game's Hire & Trade step (CAMPAIGN_PHASE.md, step 6 "Hire new recruits and trade (buy; sell
surplus)"; "Buying, selling, Glory"; RULING C-3).

"A purchase is paid from the Strongbox in full; a warband cannot buy what it cannot pay for." "Surplus
Battlekit, Glory Items included, sells for half its base cost, rounded up." Battlekit that cannot be removed
from the model carrying it cannot be sold off it (RULING T-4).

Stored: the planned purchases and sales (`PostGameTrade`, not marked `reinforcements`) and `PostGame.trade_passed`.
The ducats each moves and the Strongbox after each are worked out again each time, from the Strongbox as the
earlier steps leave it (a ransom, the loot, Reinforcements' 0); the page lists what may still be sold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from combat import rules
from combat.models import PostGameTrade
from combat.selectors.post_game import money
from combat.selectors.post_game.base import StepRead
from rosters.models import Item

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState


@dataclass
class Sellable:
    """A piece of Battlekit the warband may sell, with what it would bring (RULING C-3)."""

    item: Item
    price: int
    holder: str  # who carries it after the Trauma Step, or the Arsenal


@dataclass
class TradeRead:
    strongbox_before: int
    currency: str
    lines: list[money.TradeLine] = field(default_factory=list)
    sellable: list[Sellable] = field(default_factory=list)
    holders: list = field(default_factory=list)  # the fighters who may carry Battlekit bought
    passed: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def strongbox_after(self) -> int:
        return self.strongbox_before + sum(line.ducats for line in self.lines)

    @property
    def short(self) -> bool:
        """The Strongbox cannot pay in full: some point of the plan would leave it below 0."""
        return self.lowest < 0

    @property
    def sales(self) -> int:
        return sum(line.ducats for line in self.lines if line.ducats > 0)

    @property
    def cost(self) -> int:
        return -sum(line.ducats for line in self.lines if line.ducats < 0)

    @property
    def lowest(self) -> int:
        """The Strongbox at its lowest as the Apply writes the plan: the sales first, then the purchases."""
        return self.strongbox_before + self.sales - self.cost

    def shortfall_words(self, strongbox: str) -> str:
        return (
            f"the {strongbox} holds {self.strongbox_before} {self.currency}, {self.strongbox_before + self.sales} "
            f"with the sales, and the purchases cost {self.cost}: a warband cannot buy what it cannot pay for"
        )

    @property
    def sentence(self) -> str | None:
        if not self.lines:
            return None
        return "Hire & Trade: " + "; ".join(line.words for line in self.lines) + "."


def _where(item: Item, sent: set[int]) -> str:
    return "the Arsenal" if item.fighter_id is None or item.pk in sent else item.fighter.name


def _sellable(state: PostGameState) -> dict[int, Sellable]:
    """The Battlekit still the warband's after the earlier steps, and removable from whoever carries it."""
    active, gone = money.after_trauma(state)
    sent = {item.pk for change in state.changes for item in change.to_arsenal}
    lost = {item.pk for change in state.changes for item in change.lost}
    reinforcements = state.reinforcements
    given_up = {item.pk for item in reinforcements.given_up} if reinforcements is not None else set()
    sellable = {}
    for item in money.items(state):
        if item.pk in lost or item.pk in given_up:
            continue
        carried = item.fighter_id is not None and item.pk not in sent
        if carried and (not item.removable or item.fighter_id not in active):
            continue
        sellable[item.pk] = Sellable(item, rules.sale_value(item.cost), _where(item, sent))
    return sellable


def read(state: PostGameState) -> StepRead:
    """The step's part: the plan, the Strongbox before and after, and what may still be sold."""
    if state.problem:
        return StepRead()
    live = state.post_game
    reinforcements = state.reinforcements
    called = reinforcements is not None and reinforcements.called
    step = TradeRead(
        0 if called else money.strongbox_now(state),
        state.terms.currency,
        passed=bool(live is not None and live.trade_passed),
    )
    sellable = _sellable(state)
    active, _gone = money.after_trauma(state)
    step.holders = [fighter for fighter in state.fighters if fighter.pk in active]
    planned = [trade for trade in money.trades(state) if not trade.reinforcements]
    for trade in planned:
        if trade.kind == PostGameTrade.Kind.SELL:
            offer = sellable.pop(trade.sold_item_id, None)
            if offer is None:
                step.problems.append(f"{trade.name} can no longer be sold: take the sale back.")
                continue
            step.lines.append(money.line(trade, step.currency, cost=offer.item.cost))
            continue
        if trade.holder_id is not None and trade.holder_id not in active:
            step.problems.append(f"{trade.holder.name} is no longer on the roster to carry {trade.name}.")
        step.lines.append(money.line(trade, step.currency))
    step.sellable = list(sellable.values())
    blockers = [f"Hire & Trade: {problem}" for problem in step.problems]
    if step.short:
        blockers.append(f"Hire & Trade: {step.shortfall_words(state.terms.strongbox)}; take one back.")
    return StepRead(step, tuple(blockers))


def done(state: PostGameState) -> bool:
    """The page was passed (buying and selling are optional)."""
    step = state.trade
    return step is None or step.passed
