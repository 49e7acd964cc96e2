"""The post-game's Hire & Trade step (CAMPAIGN_PHASE.md step 6; RULING C-3): the plan, what the Strongbox holds
before and after it, a recruit, a purchase or a sale added, one taken back, the page passed. A refusal comes back
as the page at 422 with the reason beside the form it came from, nothing changed."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from combat.services.post_game import trade as trade_service
from combat.views.post_game.common import (
    applied_redirect,
    next_step_url,
    page_context,
    player_for_user,
)
from combat.views.post_game.money import answer_step, open_state, post_trade, purchase_forms, sale_form

TEMPLATE = "combat/post_game_trade.html"
FORM_ACTIONS = ("remove", "recruit", "buy", "sell", "pass")


def _page(request, player, membership, can_write: bool, *, status: int = 200, refused=None):
    context = page_context(request, player, membership, can_write, step="trade")
    state = context["state"]
    if state.applied and request.method == "GET":
        return applied_redirect(request, player)
    action, reason = refused or (None, None)
    data = request.POST if refused else None
    context.update(purchase_forms(state, data=data, posted=action))
    context.update(
        sale_form=sale_form(state, data=data if action == "sell" else None),
        t=state.trade,
        refused_action=action,
        refused_reason=reason,
        refused_step=reason if action not in FORM_ACTIONS else None,  # no form of its own: atop the step
    )
    template = f"{TEMPLATE}#trade-step" if request.htmx and request.method == "POST" else TEMPLATE
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def post_game_trade(request, game_id: int, warband_id: int):
    """Hire & Trade: recruit, buy and sell from the Strongbox as the earlier steps leave it."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        return _page(request, player, membership, can_write)

    def act(action: str):
        if action == "pass":
            trade_service.post_game_trade_pass(player=player, by=request.user)
            return redirect(next_step_url("trade", player))
        # A sale needs the post-game's read (what may still be sold); the rest is parsed from the POST alone.
        state = open_state(request, player, membership, can_write, step="trade") if action == "sell" else None
        post_trade(request, player, state, action, reinforcements=False)
        return None

    return answer_step(
        request, player, membership, can_write, step="trade", view="post_game_trade", page=_page, act=act
    )
