"""The post-game's Exploration step (CAMPAIGN_PHASE.md "Looting and Exploration"; RULINGS E-1 to E-4): one page,
each of its forms posting one action here: the modifier and the Exploration Dice, the winner's reroll (or keeping
the dice), the Location taken of two. A refusal comes back as the page at 422 with the reason beside the form it
came from, nothing changed; with htmx, the step's section is swapped in its place."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from combat.forms import post_game_exploration as forms
from combat.services.post_game import exploration as services
from combat.services.post_game.attempt import PostGameError
from combat.views.post_game.common import (
    UNPROCESSABLE,
    applied_redirect,
    page_context,
    player_for_user,
    step_url,
)

ACTIONS = ("roll", "reroll", "choose")
TEMPLATE = "combat/post_game_exploration.html"


def _page(request, player, membership, can_write: bool, *, status: int = 200, refused=None):
    """The step's page (its section with htmx); `refused` is (action, reason) beside the form posted."""
    context = page_context(request, player, membership, can_write, step="exploration")
    if context["state"].applied and request.method == "GET":
        return applied_redirect(request, player)
    action, reason = refused or (None, None)
    exploration = context["state"].exploration
    if action is not None and not _form_shown(exploration, action):
        action = "step"  # its form is not on the page (a reroll by the loser): the reason heads the step
    context.update(refused_action=action, refused_reason=reason, entered=request.POST if refused else None)
    template = f"{TEMPLATE}#exploration-step" if request.htmx and request.method == "POST" else TEMPLATE
    return render(request, template, context, status=status)


def _form_shown(exploration, action: str) -> bool:
    """Whether the page shows the form of `action`, so its refusal is shown beside it."""
    if exploration is None or not hasattr(exploration, "rolled"):
        return False
    shown = {
        "roll": not exploration.rolled,
        "reroll": exploration.reroll_open,
        "choose": len(exploration.found) > 1,
    }
    return shown.get(action, False)


def _roll(request, player) -> str | None:
    form = forms.ExplorationRollForm(request.POST)
    if not form.is_valid():
        raise PostGameError(forms.form_reason(form))
    data = form.cleaned_data
    if data["mode"] == form.ODDS:
        services.post_game_exploration_modifier(player=player, modifier=data["modifier"], by=request.user)
        return None
    made = services.post_game_exploration_roll(
        player=player, faces=data["faces"], modifier=data["modifier"], by=request.user
    )
    return None if made.created else made.roll.dice_roll.label


def _reroll(request, player) -> str | None:
    form = forms.ExplorationRerollForm(request.POST)
    if not form.is_valid():
        raise PostGameError(forms.form_reason(form))
    data = form.cleaned_data
    if data["mode"] == form.KEEP:
        services.post_game_exploration_decline(player=player, by=request.user)
        return None
    faces = [data["face"]] if data["mode"] == form.ENTER else None
    made = services.post_game_exploration_reroll(player=player, die=data["die"], faces=faces, by=request.user)
    return None if made.created else made.roll.dice_roll.label


def _choose(request, player) -> None:
    form = forms.LocationChoiceForm(request.POST)
    if not form.is_valid():
        raise PostGameError(forms.form_reason(form))
    services.post_game_choose_location(player=player, code=form.cleaned_data["code"], by=request.user)


@require_http_methods(["GET", "POST"])
@login_required
def post_game_exploration(request, game_id: int, warband_id: int):
    """The Exploration: the dice by battles fought with the odds of each Location before the roll, the score, the
    Location found and the loot after it, in words."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        return _page(request, player, membership, can_write)
    action = request.POST.get("action")
    try:
        if action not in ACTIONS:
            raise PostGameError("That is not one of the Exploration's answers.")
        shown_again = {"roll": _roll, "reroll": _reroll, "choose": _choose}[action](request, player)
    except PostGameError as error:
        return _page(
            request, player, membership, can_write, status=UNPROCESSABLE, refused=(action, str(error))
        )
    if shown_again:
        messages.info(request, f"Already rolled: {shown_again}. Shown again, not rolled twice.")
    if request.htmx:
        return _page(request, player, membership, can_write)
    return redirect(f"{step_url('post_game_exploration', player)}#exploration-step")
