"""The post-game's Reinforcements step (CAMPAIGN_PHASE.md "Reinforcements"; RULING C-4): why the warband may or
may not call them, the answer, and the purchases made with the budget. A refusal comes back as the page at 422
with the reason beside the form it came from, nothing changed."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from combat.services.post_game import reinforcements as reinforcements_service
from combat.views.post_game.common import (
    applied_redirect,
    next_step_url,
    page_context,
    player_for_user,
    step_url,
)
from combat.views.post_game.money import answer_step, open_state, post_trade, purchase_forms

TEMPLATE = "combat/post_game_reinforcements.html"
FORM_ACTIONS = ("remove", "recruit", "buy", "call", "decline")


def _page(request, player, membership, can_write: bool, *, status: int = 200, refused=None):
    context = page_context(request, player, membership, can_write, step="reinforcements")
    state = context["state"]
    if state.applied and request.method == "GET":
        return applied_redirect(request, player)
    action, reason = refused or (None, None)
    context.update(purchase_forms(state, data=request.POST if refused else None, posted=action))
    context.update(r=state.reinforcements, refused_action=action, refused_reason=reason)
    context["refused_step"] = (
        reason if action not in FORM_ACTIONS else None
    )  # no form of its own: atop the step
    template = f"{TEMPLATE}#reinforcements-step" if request.htmx and request.method == "POST" else TEMPLATE
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def post_game_reinforcements(request, game_id: int, warband_id: int):
    """Reinforcements: called (then the purchases up to the budget) or declined; not available, the page says
    why and leads on to the Exploration."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        return _page(request, player, membership, can_write)

    def act(action: str):
        if action in ("call", "decline"):
            reinforcements_service.post_game_reinforcements(
                player=player, by=request.user, call=action == "call"
            )
            # A boosted form: the whole page again (its purchases now), or on to the Exploration.
            if action == "decline":
                return redirect(next_step_url("reinforcements", player))
            return redirect(f"{step_url('post_game_reinforcements', player)}#reinforcements-step")
        state = open_state(request, player, membership, can_write, step="reinforcements")
        post_trade(request, player, state, action, reinforcements=True)
        return None

    return answer_step(
        request,
        player,
        membership,
        can_write,
        step="reinforcements",
        view="post_game_reinforcements",
        page=_page,
        act=act,
    )
