"""The post-game's Promotions step: the Promotion Pool, its dice assigned and rolled (RULINGS P-1 to P-7).

One page, two writes: the assignment (with the extra dice from abilities) and one Promotion Die at a time, rolled
by the server or typed in. A refusal comes back as the page with its reason (beside the field it names), 422, and
nothing changed; with htmx the step's section is swapped in its place.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from combat.forms import post_game_promotions as forms
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.promotions import (
    PromotionDiceRefused,
    post_game_assign_promotion_dice,
    post_game_promotion_roll,
)
from combat.views.post_game.common import (
    UNPROCESSABLE,
    applied_redirect,
    next_step_url,
    page_context,
    player_for_user,
    step_url,
)

TEMPLATE = "combat/post_game_promotions.html"


def promotions_page(
    request, player, membership, can_write: bool, *, status=200, form=None, roll_error=None, state=None
):
    context = page_context(request, player, membership, can_write, step="promotions", state=state)
    state = context["state"]
    if state.applied:
        return applied_redirect(request, player)
    step = state.promotions
    if step is not None:
        context["form"] = form or forms.PromotionDiceForm(step=step)
        context["next_model"] = next((c.id for c in step.candidates if c.dice_left), None)
    context.update(p=step, roll_error=roll_error)
    # htmx swaps the step's section (a boosted link or form loads the whole page).
    if request.htmx and not request.htmx.boosted:
        return render(request, f"{TEMPLATE}#post-game-step", context, status=status)
    return render(request, TEMPLATE, context, status=status)


def _assign(request, player, membership):
    """The assignment parsed from the POST alone and written (the service reads the post-game under its locks);
    only a refused one reads the step again, to show the form with the reasons beside its fields."""
    parsed = forms.PromotionDiceForm(request.POST, step=None)
    refusal = None
    if parsed.is_valid():
        try:
            post_game_assign_promotion_dice(
                player=player,
                by=request.user,
                assignment=parsed.assignment(),
                extra=parsed.cleaned_data["extra"],
            )
        except PostGameError as refused:  # PromotionDiceRefused among them, with its reasons by fighter
            refusal = refused
        else:
            if not any(parsed.assignment().values()):
                # No dice: the step is passed, on to the next one.
                if request.htmx:
                    return HttpResponseClientRedirect(next_step_url("promotions", player))
                return redirect(next_step_url("promotions", player))
            if request.htmx:
                return promotions_page(request, player, membership, True)
            return redirect(f"{step_url('post_game_promotions', player)}#promotion-dice")
    state = post_game_state(player=player)
    if state.promotions is None:
        return promotions_page(request, player, membership, True, status=UNPROCESSABLE, state=state)
    form = forms.PromotionDiceForm(request.POST, step=state.promotions)
    if form.is_valid():
        if isinstance(refusal, PromotionDiceRefused):
            form.add_refusal(refusal)
        elif refusal is not None:
            form.add_error(None, str(refusal))
    return promotions_page(request, player, membership, True, status=UNPROCESSABLE, form=form, state=state)


def _roll(request, player, membership):
    form = forms.PromotionRollForm(request.POST)
    if not form.is_valid():
        reason = " ".join(message for errors in form.errors.values() for message in errors)
        return promotions_page(request, player, membership, True, status=UNPROCESSABLE, roll_error=reason)
    data = form.cleaned_data
    try:
        made = post_game_promotion_roll(
            player=player,
            fighter_id=data["fighter"],
            sequence=data["sequence"],
            faces=data["faces"],
            by=request.user,
        )
    except PostGameError as error:
        return promotions_page(request, player, membership, True, status=UNPROCESSABLE, roll_error=str(error))
    if not made.created:
        messages.info(request, "Already rolled: shown again, not rolled twice.")
    if request.htmx:
        return promotions_page(request, player, membership, True)
    return redirect(f"{step_url('post_game_promotions', player)}#promotion-dice")


@require_http_methods(["GET", "POST"])
@login_required
def post_game_promotions(request, game_id: int, warband_id: int):
    """The pool, the eligible models and their dice (RULING P-2), the dice rolled one at a time (P-3, P-4)."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        state = post_game_state(player=player)
        if not state.applied and state.promotions is not None and state.promotions.nothing_to_do:
            # No die in the pool (RULING P-5) or no model that may take one: on to the next step, as Advancement
            # and Dismiss the wounded do when they have nothing to ask.
            return redirect(next_step_url("promotions", player))
        return promotions_page(request, player, membership, can_write, state=state)
    if request.POST.get("action") == forms.ROLL:
        return _roll(request, player, membership)
    return _assign(request, player, membership)
