"""The post-game's Reinforcements step (CAMPAIGN_PHASE.md "Reinforcements"; RULING C-4): its writes, and its part
of the Apply and the Revert.

- `post_game_reinforcements`: call them (instead of the Exploration) or decline them;
- `post_game_reinforcement_add` / `post_game_trade_remove` (combat/services/post_game/trade.py): the purchases
  made with the budget, refused beyond it.

The Apply, after the Trauma Step's parts: the Arsenal's Battlekit given up (deleted, its before-images kept), the
purchases made, and the ledger's moves (the Strongbox emptied, the budget in, each purchase, the leftover out), so
the Strongbox ends at 0: "leftover ducats are not kept"; a Papal States warband's 4 Glory, one entry more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction

from campaigns.models import GamePlayer
from combat.models import PostGame, PostGameTrade
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game import money
from combat.services.post_game.attempt import PostGameError, lock, open_attempt, step_context

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState


def _step(player: GamePlayer):
    state = post_game_state(player=player)
    if state.problem:
        raise PostGameError(state.problem)
    return state, state.reinforcements


@transaction.atomic
def post_game_reinforcements(*, player: GamePlayer, by, call: bool) -> PostGame:
    """Call Reinforcements (`call`), or decline them. Refused when the warband may not call them (RULING C-4),
    and calling them once the Exploration Dice are rolled ("instead of Exploring"). Declining takes back the
    purchases planned with the budget."""
    player = lock(player)
    state, step = _step(player)
    if call and not step.available:
        raise PostGameError(f"Reinforcements cannot be called: {step.why_not}.")
    if call and state.exploration is not None and state.exploration.rolled:
        raise PostGameError(
            "The Exploration Dice are rolled: Reinforcements are called instead of Exploring, not after it."
        )
    words = "called" if call else "declined"
    reason = f"Post-game of Game {player.game.number}: Reinforcements {words} for {player.warband.name}"
    with step_context(
        action="post_game.reinforcements", player=player, by=by, step="reinforcements", reason=reason
    ):
        live = open_attempt(
            player, by=by, action="post_game.reinforcements", step="reinforcements", reason=reason
        )
        if not call:
            PostGameTrade.objects.filter(post_game=live, reinforcements=True).delete()
        live.reinforcements_called = bool(call)
        live.save(update_fields=["reinforcements_called"])
    return live


@transaction.atomic
def post_game_reinforcement_add(*, player: GamePlayer, by, trade: PostGameTrade) -> PostGameTrade:
    """One purchase with the Reinforcements' budget (a recruit, or Battlekit for a fighter or the Arsenal);
    refused when it would pass the budget (RULING C-4: "buy fighters and Battlekit up to the Threshold Value")."""
    player = lock(player)
    state, step = _step(player)
    if not step.called:
        raise PostGameError("Call Reinforcements first: their purchases are made with their budget.")
    if trade.kind == PostGameTrade.Kind.SELL:
        raise PostGameError("Reinforcements buy; selling is done in Hire & Trade.")
    trade = money.checked_trade(trade)
    money.check_holder(state, trade)
    if trade.cost > step.left:
        raise PostGameError(
            f"{trade.name} costs {trade.cost} {step.currency}: the Reinforcements' budget has {step.left} left "
            "(RULING C-4)."
        )
    reason = f"Post-game of Game {player.game.number}: Reinforcements buy {trade.name}"
    with step_context(
        action="post_game.reinforcements", player=player, by=by, step="reinforcements", reason=reason
    ):
        trade.post_game = state.post_game
        trade.reinforcements = True
        trade.save()
    return trade


def summary_part(state: PostGameState) -> dict[str, Any]:
    step = state.reinforcements
    sentence = step.sentence if step is not None else None
    return {"reinforcements": sentence} if sentence else {}


def apply_part(state: PostGameState) -> dict[str, Any]:
    """The Arsenal given up, the purchases made, the ledger's moves: the Strongbox ends at 0 (RULING C-4)."""
    step = state.reinforcements
    if step is None or not step.called:
        return {}
    part: dict[str, Any] = {"warband_id": state.warband.pk}
    part["items_deleted"] = money.delete_items([item.pk for item in step.given_up])
    part.update(money.write_purchases(state, step.purchases))
    part["entries"] = money.post_moves(state, step.moves(state.terms))
    if step.glory:
        part["glory_entries"] = money.post_moves(state, step.glory_moves(), glory=True)
    return {"reinforcements_part": part}


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """Reinforcements taken back: the Strongbox and the Arsenal as they were, the purchases struck off."""
    part = (snapshot or {}).get("reinforcements_part")
    if part:
        money.take_back(
            part, refusal="The Strongbox has moved since the Reinforcements: they cannot be reverted."
        )
