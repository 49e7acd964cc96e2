"""Fixes on the post-game pages: "Correct this die" for a die typed from the table (the warband's owner
or the organiser), "Void" for a roll made by the server (the organiser only), before or after Apply until the
warband's next game. Plain POST forms and redirects (htmx boosts them); a refusal comes back as the overview at
422 with its reason, nothing changed."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.access import is_organiser
from combat.forms.fixes import FixForm, form_reason
from combat.selectors.post_game.state import post_game_overview
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.fixes import post_game_correct_roll, post_game_void_roll
from combat.services.post_game.reopen import (
    post_game_reopen_fighter,
    post_game_reopened_out_of_action,
    post_game_settle_fighter,
)
from combat.views.post_game.common import UNPROCESSABLE, page_context, player_for_user, step_url


def _refused(request, player, membership, can_write: bool, reason: str):
    messages.error(request, reason)
    state = post_game_overview(player=player)
    context = page_context(request, player, membership, can_write, step="overview", state=state)
    return render(request, "combat/post_game.html", context, status=UNPROCESSABLE)


def _done(request, player, fix, what: str):
    """Back where the post-game stands: the overview once applied again, the Review while it is open."""
    then = "applied again with the new faces" if fix.applied_again else "its outcome worked out again"
    if fix.reopened:
        then = "its step is reopened: finish it, then apply"
    messages.success(request, f"{fix.old.label} {what} → {fix.new.label}: {then}.")
    view = "post_game" if fix.post_game.is_applied else "post_game_review"
    return redirect(f"{step_url(view, player)}?watch=1#fighter-{fix.new.fighter_id}")


@require_POST
@login_required
def post_game_correct(request, game_id: int, warband_id: int, roll_id: int):
    """Correct a die typed from the table: the faces really rolled and why (owner or organiser)."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=True)
    form = FixForm(request.POST)
    if not form.is_valid():
        return _refused(request, player, membership, can_write, form_reason(form))
    if form.faces() is None:
        return _refused(request, player, membership, can_write, "Enter the faces that were really rolled.")
    try:
        fix = post_game_correct_roll(
            player=player,
            roll_id=roll_id,
            faces=form.faces(),
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except PostGameError as error:
        return _refused(request, player, membership, can_write, str(error))
    return _done(request, player, fix, "corrected")


@require_POST
@login_required
def post_game_void(request, game_id: int, warband_id: int, roll_id: int):
    """The organiser voids a roll made by the server, with a reason; the server rolls its replacement at once."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=True)
    if not is_organiser(membership):
        raise PermissionDenied("Only the campaign's organiser can void a roll made by the server.")
    form = FixForm(request.POST)
    if not form.is_valid():
        return _refused(request, player, membership, can_write, form_reason(form))
    try:
        fix = post_game_void_roll(
            player=player,
            roll_id=roll_id,
            faces=form.faces(),
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except PostGameError as error:
        return _refused(request, player, membership, can_write, str(error))
    return _done(request, player, fix, "voided")


def _fighter_fix(request, game_id: int, warband_id: int, fighter_id: int, service, done: str, **extra):
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=True)
    try:
        service(player=player, fighter_id=fighter_id, by=request.user, **extra)
    except PostGameError as error:
        return _refused(request, player, membership, can_write, str(error))
    messages.success(request, done)
    return redirect(f"{step_url('post_game', player)}?watch=1#fighter-{fighter_id}")


@require_POST
@login_required
def post_game_reopen(request, game_id: int, warband_id: int, fighter_id: int):
    """Reopen one fighter after Apply: its changes taken out, the rest of the post-game standing."""
    done = (
        "Reopened: its post-game changes are taken out until you settle it; the rest of the post-game stands."
    )
    return _fighter_fix(request, game_id, warband_id, fighter_id, post_game_reopen_fighter, done)


@require_POST
@login_required
def post_game_settle(request, game_id: int, warband_id: int, fighter_id: int):
    """Settle a reopened fighter: its result applied again as its mark, dice and answers stand now."""
    done = "Settled: its result is applied again."
    return _fighter_fix(request, game_id, warband_id, fighter_id, post_game_settle_fighter, done)


@require_POST
@login_required
def post_game_reopened_mark(request, game_id: int, warband_id: int, fighter_id: int):
    """While reopened: take the fighter off the Out of Action list (its rolls stop counting) or put it back."""
    out = request.POST.get("out") == "yes"
    done = (
        "Put back on the Out of Action list: its rolls count again."
        if out
        else ("Taken off the Out of Action list: its rolls no longer count (kept in the dice log).")
    )
    return _fighter_fix(
        request, game_id, warband_id, fighter_id, post_game_reopened_out_of_action, done, out=out
    )
