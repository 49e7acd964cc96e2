"""The post-game's Hire & Trade step (CAMPAIGN_PHASE.md step 6, "Buying, selling, Glory"; RULING C-3): its writes,
and its part of the Apply and the Revert.

- `post_game_trade_add`: a recruit, Battlekit bought (for a fighter or the Arsenal) or Battlekit sold, planned;
  refused when the Strongbox cannot pay ("a warband cannot buy what it cannot pay for") or the Battlekit cannot
  be sold (not the warband's any more, or not removable from the model carrying it, RULING T-4);
- `post_game_trade_remove`: a planned trade taken back (Reinforcements' too);
- `post_game_trade_pass`: the page passed, with or without trades.

The Apply writes the sales first, then the purchases (a sale may pay for a purchase), one ledger entry each with
the game as context.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction

from campaigns.history_context import add_context
from campaigns.models import GamePlayer
from combat import rules
from combat.models import PostGame, PostGameTrade
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game import money
from combat.services.post_game.attempt import PostGameError, lock, open_attempt, step_context

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState


def _write(player: GamePlayer, *, by, reason: str):
    return step_context(action="post_game.trade", player=player, by=by, step="trade", reason=reason)


def _state(player: GamePlayer):
    state = post_game_state(player=player)
    if state.problem:
        raise PostGameError(state.problem)
    return state


def _sale(state, trade: PostGameTrade) -> None:
    """A sale names a piece the warband may still sell; its name and base cost are copied from it."""
    offer = next((s for s in state.trade.sellable if s.item.pk == trade.sold_item_id), None)
    if offer is None:
        kit = next((item for item in state.items if item.pk == trade.sold_item_id), None)
        if kit is not None and kit.fighter_id is not None and not kit.removable:
            raise PostGameError(
                f"{kit.name} cannot be removed from {kit.fighter.name}, so it cannot be sold (RULING T-4)."
            )
        raise PostGameError("That Battlekit is not the warband's to sell (sold already, lost or given up).")
    trade.name, trade.cost = offer.item.name, offer.item.cost
    trade.keywords, trade.removable = list(offer.item.keywords), offer.item.removable


@transaction.atomic
def post_game_trade_add(*, player: GamePlayer, by, trade: PostGameTrade) -> PostGameTrade:
    """One purchase or sale planned; refused, nothing stored, when the Strongbox cannot pay for it in full."""
    player = lock(player)
    state = _state(player)
    if trade.kind == PostGameTrade.Kind.SELL:
        _sale(state, trade)
    trade.reinforcements = False
    trade = money.checked_trade(trade)
    money.check_holder(state, trade)
    step = state.trade
    if trade.kind != PostGameTrade.Kind.SELL and step.lowest - trade.cost < 0:
        raise PostGameError(
            f"{trade.name} costs {trade.cost} {step.currency}: {step.shortfall_words(state.terms.strongbox)} "
            f"(with it, {step.cost + trade.cost})."
        )
    verb = "sell" if trade.kind == PostGameTrade.Kind.SELL else "buy"
    reason = f"Post-game of Game {player.game.number}: {player.warband.name} plans to {verb} {trade.name}"
    with _write(player, by=by, reason=reason):
        trade.post_game = open_attempt(player, by=by, action="post_game.trade", step="trade", reason=reason)
        trade.save()
    return trade


@transaction.atomic
def post_game_trade_remove(*, player: GamePlayer, by, trade_id: int) -> PostGame:
    """A planned purchase or sale taken back (a Reinforcements' one too); refused once applied. Taking a sale
    back is refused when the purchases then cost more than the Strongbox holds."""
    player = lock(player)
    state = _state(player)
    trade = next((t for t in state.trades if t.pk == trade_id), None)
    if trade is None or state.applied:
        raise PostGameError("That purchase or sale is not planned in this post-game (taken back already?).")
    step = state.trade
    if trade.kind == PostGameTrade.Kind.SELL and step.lowest - rules.sale_value(trade.cost) < 0:
        raise PostGameError(
            f"Without the sale of {trade.name} the {state.terms.strongbox} cannot pay for the purchases: take "
            "one of them back first."
        )
    reason = f"Post-game of Game {player.game.number}: {trade.name} taken back for {player.warband.name}"
    with _write(player, by=by, reason=reason):
        PostGameTrade.objects.filter(pk=trade.pk).delete()
    return state.post_game


@transaction.atomic
def post_game_trade_pass(*, player: GamePlayer, by) -> PostGame:
    """The Hire & Trade page passed (trading is optional)."""
    player = lock(player)
    _state(player)
    reason = f"Post-game of Game {player.game.number}: Hire & Trade done for {player.warband.name}"
    with _write(player, by=by, reason=reason):
        live = open_attempt(player, by=by, action="post_game.trade", step="trade", reason=reason)
        if not live.trade_passed:
            live.trade_passed = True
            live.save(update_fields=["trade_passed"])
    return live


def summary_part(state: PostGameState) -> dict[str, Any]:
    step = state.trade
    sentence = step.sentence if step is not None else None
    return {"trade": sentence} if sentence else {}


def apply_part(state: PostGameState) -> dict[str, Any]:
    """The sales (Battlekit deleted, before-images kept), then the purchases, one ledger entry each."""
    step = state.trade
    if step is None or not step.lines:
        return {}
    sales = [line for line in step.lines if line.trade.kind == PostGameTrade.Kind.SELL]
    purchases = [line for line in step.lines if line.trade.kind != PostGameTrade.Kind.SELL]
    part: dict[str, Any] = {"warband_id": state.warband.pk}
    sold = [line.trade.sold_item_id for line in sales]
    part["items_deleted"] = money.delete_items(sold)
    if sold:  # the history tells these as sold, not lost (one context holds the whole Apply)
        add_context(sold=sold)
    part.update(money.write_purchases(state, purchases))
    moves = [(line.cause, line.ducats, line.words) for line in (*sales, *purchases)]
    part["entries"] = money.post_moves(state, moves)
    return {"trade_part": part}


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """The trades taken back: refused when the sales' ducats are spent since (the Strongbox would fall below 0)."""
    part = (snapshot or {}).get("trade_part")
    if part:
        money.take_back(
            part, refusal="The ducats of the sales are spent since: this post-game can no longer be reverted."
        )
