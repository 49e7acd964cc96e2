"""The post-game's Dismiss the wounded step: fighters with 2 or more Battle Scars dismissed (CAMPAIGN_PHASE.md)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from combat.forms.post_game_promotions import DismissForm
from combat.services.post_game import dismiss as dismiss_service
from combat.services.post_game.attempt import PostGameError
from combat.views.post_game.common import (
    UNPROCESSABLE,
    applied_redirect,
    next_step_url,
    page_context,
    player_for_user,
)

TEMPLATE = "combat/post_game_dismiss.html"


def _ticked(request) -> list[int] | None:
    """The fighters ticked, parsed from the POST alone (None when one is not a number: the form then says so)."""
    try:
        return [int(value) for value in request.POST.getlist("fighters")]
    except ValueError:
        return None


@require_http_methods(["GET", "POST"])
@login_required
def post_game_dismiss(request, game_id: int, warband_id: int):
    """The fighters that may be dismissed, ticked or not; saving (even with none) passes the step.

    A POST is written first (the service reads the post-game under its locks and refuses what does not fit);
    only a refused one reads the page again, to show the form with the reason."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    refusal = None
    ticked = _ticked(request) if posted else None
    if ticked is not None:
        try:
            dismiss_service.post_game_dismiss(player=player, by=request.user, fighter_ids=ticked)
        except PostGameError as error:
            refusal = str(error)
        else:
            return redirect(next_step_url("dismiss", player))
    context = page_context(request, player, membership, can_write, step="dismiss")
    state = context["state"]
    if state.applied:
        return applied_redirect(request, player)
    step = state.dismiss
    if step is None or (not step.candidates and not posted):
        return redirect(next_step_url("dismiss", player))  # nobody may be dismissed: on to the next step
    form = DismissForm(request.POST if posted else None, step=step)  # nothing ticked posts no field
    if posted and form.is_valid() and refusal is not None:
        form.add_error(None, refusal)
    context.update(form=form, d=step)
    return render(request, TEMPLATE, context, status=UNPROCESSABLE if posted else 200)
