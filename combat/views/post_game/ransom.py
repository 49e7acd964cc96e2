"""Step 3 of the post-game, Captured (TRAUMA_TABLE.md 12): the ransom the captive's owner offers (or none), and the
captor's answer.

The offer and its withdrawal are the post-game's writes (the warband's owner or the organiser). The answer is
the captor's: their player, or the organiser for an absent player, who may not write this post-game otherwise;
`post_game_answer_ransom_offer` decides who may (403 for anyone else, spectators and the captive's owner
included).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from combat.forms import postgame as forms
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.ransom import (
    post_game_answer_ransom_offer,
    post_game_offer_ransom,
    post_game_reopen_ransom,
    post_game_withdraw_ransom,
)
from combat.views.post_game.common import UNPROCESSABLE, card_refused, player_for_user, rolls_page, step_url


def _back_to_card(request, player, membership, fighter_id):
    if request.htmx:
        return rolls_page(request, player, membership, True, step="elites")
    return redirect(f"{step_url('post_game_elites', player)}#fighter-{fighter_id}")


@require_POST
@login_required
def post_game_ransom(request, game_id: int, warband_id: int):
    """Captured: a ransom offered to the captor (how many ducats, to whom), or none (executed)."""
    player, membership, _ = player_for_user(request.user, game_id, warband_id, write=True)
    state = post_game_state(player=player)
    form = forms.RansomForm(request.POST, opponents=state.opponents, currency=state.terms.currency)
    try:
        if not form.is_valid():
            raise PostGameError(forms.form_reason(form))
        post_game_offer_ransom(player=player, by=request.user, **form.answer())
    except PostGameError as error:
        fighter_id = forms.posted_fighter(request.POST)
        return card_refused(
            request, player, membership, "elites", fighter_id, str(error), entered=form.entered(), state=state
        )
    return _back_to_card(request, player, membership, form.cleaned_data["fighter"])


@require_POST
@login_required
def post_game_ransom_withdraw(request, game_id: int, warband_id: int):
    """The owner takes back a ransom offer the captor has not answered yet."""
    player, membership, _ = player_for_user(request.user, game_id, warband_id, write=True)
    form = forms.RansomWithdrawForm(request.POST)
    try:
        if not form.is_valid():
            raise PostGameError(forms.form_reason(form))
        post_game_withdraw_ransom(player=player, by=request.user, fighter_id=form.cleaned_data["fighter"])
    except PostGameError as error:
        return card_refused(
            request, player, membership, "elites", forms.posted_fighter(request.POST), str(error)
        )
    return _back_to_card(request, player, membership, form.cleaned_data["fighter"])


@require_POST
@login_required
def post_game_ransom_answer(request, game_id: int, warband_id: int):
    """The captor's player accepts or refuses the ransom offered for one of this warband's fighters, from their
    dashboard or from the post-game's page."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id)
    form = forms.RansomAnswerForm(request.POST)
    try:
        if not form.is_valid():
            raise PostGameError(forms.form_reason(form))
        data = form.cleaned_data
        answer = post_game_answer_ransom_offer(
            player=player, fighter_id=data["fighter"], accept=data["answer"], by=request.user
        )
    except PostGameError as error:
        fighter_id = forms.posted_fighter(request.POST)
        return rolls_page(
            request,
            player,
            membership,
            can_write,
            step="elites",
            status=UNPROCESSABLE,
            card_errors={fighter_id: str(error)},
        )
    if data.get("back") == "dashboard" and not request.htmx:
        words = "accepted" if answer.ransom_paid else "refused"
        messages.success(request, f"Ransom offer {words}.")
        return redirect("dashboard")
    if request.htmx:
        return rolls_page(request, player, membership, can_write, step="elites")
    return redirect(f"{step_url('post_game_elites', player)}#fighter-{data['fighter']}")


@require_POST
@login_required
def post_game_ransom_reopen(request, game_id: int, warband_id: int):
    """The organiser reopens an answered ransom offer before the Apply, with a reason."""
    player, membership, _ = player_for_user(request.user, game_id, warband_id, write=True)
    form = forms.RansomReopenForm(request.POST)
    try:
        if not form.is_valid():
            raise PostGameError(forms.form_reason(form))
        data = form.cleaned_data
        post_game_reopen_ransom(
            player=player, fighter_id=data["fighter"], by=request.user, reason=data["reason"]
        )
    except PostGameError as error:
        return card_refused(
            request, player, membership, "elites", forms.posted_fighter(request.POST), str(error)
        )
    return _back_to_card(request, player, membership, form.cleaned_data["fighter"])
