"""The post-game's Advancement step: the Skill Advancement Rolls the XP reached (CAMPAIGN_PHASE.md, RULINGS X-1 to X-3).

One page, one card per roll due. Each POST is one card's write: the two charts picked, a 2D6 rolled by the server or
typed in, the skill taken. A refusal comes back on the card with status 422 and nothing changed; with htmx the
step's section is swapped in place.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from combat.forms.post_game_advancement import CHARTS, PICK, AdvancementForm
from combat.forms.postgame import form_reason
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.advancement import (
    post_game_advancement_charts,
    post_game_advancement_pick,
    post_game_advancement_roll,
)
from combat.services.post_game.attempt import PostGameError
from combat.views.post_game.common import (
    UNPROCESSABLE,
    applied_redirect,
    next_step_url,
    page_context,
    player_for_user,
    step_url,
)


def _page(
    request, player, membership, can_write, *, status=200, card_id=None, error=None, entered=None, state=None
):
    context = page_context(request, player, membership, can_write, step="advancement", state=state)
    state = context["state"]
    if state.applied:
        return applied_redirect(request, player)
    for card in state.advancement.cards if state.advancement else []:
        if card.id == card_id:
            card.card_error, card.entered = error, entered
    if request.htmx and request.method == "POST":
        return render(request, "combat/post_game_advancement.html#post-game-step", context, status=status)
    return render(request, "combat/post_game_advancement.html", context, status=status)


def _write(form: AdvancementForm, player, by):
    data = form.cleaned_data
    card = {"player": player, "fighter_id": data["fighter"], "number": data["number"], "by": by}
    if data["do"] == CHARTS:
        return post_game_advancement_charts(
            first_chart=data["first_chart"], second_chart=data["second_chart"], **card
        )
    if data["do"] == PICK:
        return post_game_advancement_pick(skill_code=data["skill"], **card)
    return post_game_advancement_roll(die=data["die"], faces=data["faces"], **card)


@require_http_methods(["GET", "POST"])
@login_required
def post_game_advancement(request, game_id: int, warband_id: int):
    """Each Skill Advancement Roll due: two charts, a 2D6 on each (stored before it is shown), one skill taken."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        state = post_game_state(player=player)
        step = state.advancement
        if not state.applied and (step is None or not step.cards):
            # Nothing to do here (none due, or none that can be rolled without skill charts: the Review says
            # so): the wizard sends on to the next step (`next_step_url`).
            return redirect(next_step_url("advancement", player))
        return _page(request, player, membership, can_write, state=state)
    form = AdvancementForm(request.POST)
    refused = {"status": UNPROCESSABLE, "card_id": form.card_id, "entered": form.entered()}
    if not form.is_valid():
        return _page(request, player, membership, can_write, error=form_reason(form), **refused)
    try:
        made = _write(form, player, request.user)
    except PostGameError as error:
        return _page(request, player, membership, can_write, error=str(error), **refused)
    if getattr(made, "created", True) is False:
        messages.info(request, f"Already rolled: {made.roll.dice_roll.label}. Shown again, not rolled twice.")
    if request.htmx:
        return _page(request, player, membership, can_write)
    return redirect(f"{step_url('post_game_advancement', player)}#card-{form.card_id}")
