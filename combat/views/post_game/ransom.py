"""Step 3 of the post-game, Captured (TRAUMA_TABLE.md 12): the ransom the players agree, or none."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from combat.forms import postgame as forms
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.views.post_game.common import card_refused, player_for_user, rolls_page, step_url


@require_POST
@login_required
def post_game_ransom(request, game_id: int, warband_id: int):
    """Captured: the ransom paid (how many ducats, to whom) or not."""
    player, membership, _ = player_for_user(request.user, game_id, warband_id, write=True)
    state = post_game_state(player=player)
    form = forms.RansomForm(request.POST, opponents=state.opponents, currency=state.terms.currency)
    try:
        if not form.is_valid():
            raise PostGameError(forms.form_reason(form))
        post_game_answer_ransom(player=player, by=request.user, **form.answer())
    except PostGameError as error:
        fighter_id = forms.posted_fighter(request.POST)
        return card_refused(
            request, player, membership, "elites", fighter_id, str(error), entered=form.entered()
        )
    if request.htmx:
        return rolls_page(request, player, membership, True, step="elites")
    return redirect(f"{step_url('post_game_elites', player)}#fighter-{form.cleaned_data['fighter']}")
