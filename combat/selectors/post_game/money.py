"""What the post-game's money steps share: the trades planned, the warband's Battlekit, its
value after the Trauma Step (RULING C-2), and how a purchase or a sale reads as a ledger move.

Read once per post-game (cached on the state), two queries whatever the roster's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from combat import rules
from combat.models import PostGameTrade
from combat.selectors.post_game import rows
from rosters.models import Fighter, Item, LedgerCause

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState

CAUSES = {
    PostGameTrade.Kind.RECRUIT: LedgerCause.RECRUIT,
    PostGameTrade.Kind.BUY: LedgerCause.BUY,
    PostGameTrade.Kind.SELL: LedgerCause.SELL,
}


@dataclass(frozen=True)
class TradeLine:
    """One planned purchase or sale, as the pages and the ledger read it: `ducats` is what it moves (a purchase
    pays its cost, a sale brings half the base cost rounded up, RULING C-3)."""

    trade: PostGameTrade
    ducats: int
    words: str

    @property
    def id(self) -> int:
        return self.trade.pk

    @property
    def cause(self) -> str:
        return CAUSES[self.trade.kind]


def trades(state: PostGameState) -> tuple[PostGameTrade, ...]:
    """The purchases and sales planned in this attempt, in the order they were added (read once, when first
    asked)."""
    return state.trades


def read_trades(live) -> tuple[PostGameTrade, ...]:
    """The purchases and sales planned in the attempt (one query; none before the first write)."""
    if live is None:
        return ()
    return tuple(rows.held_rows(PostGameTrade, live))


def items(state: PostGameState) -> tuple[Item, ...]:
    """Every piece of the warband's Battlekit, carried or in the Arsenal (read with the fighters)."""
    return state.items


def line(trade: PostGameTrade, currency: str, *, cost: int | None = None) -> TradeLine:
    """A trade in a player's words, with the ducats it moves; `cost` is the base cost of what is sold."""
    if trade.kind == PostGameTrade.Kind.SELL:
        base = trade.cost if cost is None else cost
        price = rules.sale_value(base)
        return TradeLine(
            trade, price, f"Sold {trade.name} for {price} {currency} (half of {base}, rounded up)"
        )
    if trade.kind == PostGameTrade.Kind.RECRUIT:
        return TradeLine(trade, -trade.cost, f"Recruited {trade.name} for {trade.cost} {currency}")
    where = trade.holder.name if trade.holder_id else "the Arsenal"
    return TradeLine(trade, -trade.cost, f"Bought {trade.name} for {trade.cost} {currency} ({where})")


def after_trauma(state: PostGameState) -> tuple[set[int], set[int]]:
    """The fighters still on the roster after this post-game's changes, and the Battlekit no longer carried (sent
    to the Arsenal or lost)."""
    changes = {change.fighter.pk: change for change in state.changes}
    active = set()
    for fighter in state.fighters:
        change = changes.get(fighter.pk)
        status = change.status if change is not None else fighter.status
        if status == Fighter.Status.ACTIVE:
            active.add(fighter.pk)
    gone = {item.pk for change in state.changes for item in (*change.to_arsenal, *change.lost)}
    return active, gone


def value_after_trauma(state: PostGameState) -> int:
    """RULING C-2 after this post-game's changes: the fighters still on the roster and the Battlekit they carry,
    at their recorded cost (the Arsenal not counted, nor removed fighters)."""
    active, gone = after_trauma(state)
    carried: dict[int, list[int]] = {}
    for item in items(state):
        if item.fighter_id is not None and item.pk not in gone:
            carried.setdefault(item.fighter_id, []).append(item.cost)
    roster = [
        rules.RosterFighter(cost=fighter.cost, battlekit=tuple(carried.get(fighter.pk, ())))
        for fighter in state.fighters
        if fighter.pk in active
    ]
    return rules.warband_value(roster)


def strongbox_now(state: PostGameState) -> int:
    """The Strongbox after the changes before the money steps (a ransom paid, the Exploration's loot)."""
    own = next((box for box in state.strongboxes if box.warband.pk == state.warband.pk), None)
    return state.warband.strongbox + (own.delta if own is not None else 0)
