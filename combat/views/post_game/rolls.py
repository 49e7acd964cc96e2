"""Steps 2 and 3 of the post-game: a roll made by the server's dice or typed in from the table (RULING T-7)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from combat.forms import postgame as forms
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.rolls import post_game_roll as roll_for
from combat.views.post_game.common import card_refused, player_for_user, step_page, step_section


@require_POST
@login_required
def post_game_roll(request, game_id: int, warband_id: int):
    """A roll: "Roll" (the server's dice) or "Enter dice" (typed in). Stored before it is shown; asked twice (a
    double click, a second tab), the stored roll is shown again."""
    player, membership, _ = player_for_user(request.user, game_id, warband_id, write=True)
    form = forms.RollForm(request.POST)
    # The card's step, for the page shown again (the form's hidden `step`, one of the registry's keys).
    step = request.POST.get("step") or "troops"
    if step not in {choice for choice, _label in form.fields["step"].choices}:
        step = "troops"
    if not form.is_valid():
        return card_refused(
            request, player, membership, step, form.cleaned_data.get("fighter"), forms.form_reason(form)
        )
    data = form.cleaned_data
    try:
        made = roll_for(
            player=player,
            fighter_id=data["fighter"],
            purpose=data["purpose"],
            sequence=data["sequence"],
            faces=data["faces"],
            by=request.user,
        )
    except PostGameError as error:
        return card_refused(request, player, membership, step, data["fighter"], str(error))
    if not made.created:
        messages.info(request, f"Already rolled: {made.roll.dice_roll.label}. Shown again, not rolled twice.")
    if request.htmx:
        return step_section(request, player, membership, step)
    return redirect(f"{step_page(step, player)}#fighter-{data['fighter']}")
