"""The post-game's Use Glory step (CAMPAIGN_PHASE.md step 7, "Glory Points are spent on Glory Items, mercenaries and
other benefits"): the Glory before and after the plan, a spend added, one taken back, the page passed. A refusal
comes back as the page at 422 with the reason beside the field it is about, nothing changed."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from combat.forms.post_game_glory import GlorySpendForm
from combat.services.post_game import glory as glory_service
from combat.services.post_game.attempt import PostGameError
from combat.views.post_game.common import (
    applied_redirect,
    next_step_url,
    page_context,
    player_for_user,
)
from combat.views.post_game.money import answer_step
from rosters.selectors import roster

TEMPLATE = "combat/post_game_glory.html"


def _form(state, data=None) -> GlorySpendForm:
    holders = state.glory.holders if state.glory is not None else []
    return GlorySpendForm(data, terms=state.terms, holders=holders)


def _posted_form(player, data) -> GlorySpendForm:
    """A spend parsed without reading the post-game: any active fighter may be named as a Glory Item's holder
    here; the service, reading the post-game under its locks, refuses one this post-game takes off the roster."""
    return GlorySpendForm(
        data, terms=player.game.campaign.terms, holders=roster.holders_for(warband=player.warband)
    )


def _page(request, player, membership, can_write: bool, *, status: int = 200, refused=None):
    context = page_context(request, player, membership, can_write, step="glory")
    state = context["state"]
    if state.applied and request.method == "GET":
        return applied_redirect(request, player)
    action, reason = refused or (None, None)
    form = _form(state, request.POST if action == "spend" else None)
    if action == "spend" and form.is_valid():
        # The service's refusal: beside the cost when the Glory cannot pay, atop the form otherwise.
        form.add_error("glory" if "cannot pay" in reason else None, reason)
    context.update(
        glory_form=form,
        g=state.glory,
        refused_action=action,
        refused_reason=reason,
        refused_step=reason if action not in ("spend", "remove") else None,
    )
    template = f"{TEMPLATE}#glory-step" if request.htmx and request.method == "POST" else TEMPLATE
    return render(request, template, context, status=status)


def _post(request, player, action: str) -> None:
    """One spend or take-back posted; raises `PostGameError` with the reason (the page then shows the form bound
    to the POST, built on the post-game's read)."""
    if action == "remove":
        try:
            spend_id = int(request.POST.get("spend", ""))
        except ValueError:
            raise PostGameError("That spend of Glory is not planned in this post-game.") from None
        glory_service.post_game_glory_remove(player=player, by=request.user, spend_id=spend_id)
        return
    if action != "spend":
        raise PostGameError("That is not one of this step's answers.")
    form = _posted_form(player, request.POST)
    if not form.is_valid():
        raise PostGameError("")  # the form's own errors, beside their fields
    glory_service.post_game_glory_add(player=player, by=request.user, spend=form.spend())


@require_http_methods(["GET", "POST"])
@login_required
def post_game_glory(request, game_id: int, warband_id: int):
    """Use Glory: spend the warband's Glory on Glory Items, mercenaries and other benefits."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        return _page(request, player, membership, can_write)

    def act(action: str):
        if action == "pass":
            glory_service.post_game_glory_pass(player=player, by=request.user)
            return redirect(next_step_url("glory", player))
        _post(request, player, action)
        return None

    return answer_step(
        request, player, membership, can_write, step="glory", view="post_game_glory", page=_page, act=act
    )
