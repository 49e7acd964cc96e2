"""A game's score (results and Victory Points) corrected at any time, with a reason: `/games/<id>/score/`.

The organiser corrects every side; a player, only their own warband's (the game policy,
`campaigns.access.can_set_game_side`); a spectator reads the game page and corrects nothing.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.access import can_set_game_side, get_game_for_user
from rosters.forms.game_scores import GameScoreForm
from rosters.selectors import games as game_selectors
from rosters.services import game_scores as score_services
from rosters.views.common import UNPROCESSABLE, add_errors
from rosters.views.games import game_url

CONFLICT = 409


@require_http_methods(["GET", "POST"])
@login_required
def game_score(request, game_id: int):
    """The results and Victory Points of the sides this user may set, and why they change."""
    game, membership = get_game_for_user(request.user, game_id)
    players = [
        p for p in game_selectors.game_players(game=game) if can_set_game_side(membership, game, p.warband)
    ]
    if not players:
        raise PermissionDenied(
            "Only the organiser, or a player for their own warband, corrects a game's score."
        )
    form = GameScoreForm(request.POST or None, players=players)
    status = 200
    if request.method == "POST":
        status = UNPROCESSABLE
        if form.is_valid():
            try:
                score_services.game_score_correct(
                    game=game, by=request.user, scores=form.scores(), reason=form.cleaned_data["reason"]
                )
            except ValidationError as error:
                add_errors(form, error)
                if isinstance(error, score_services.GameLocked):
                    status = CONFLICT
            else:
                messages.success(
                    request, f"Game {game.number}'s score is corrected. The standings follow it."
                )
                return redirect(game_url(game))
    context = {"form": form, "game": game, "campaign": game.campaign, "terms": game.campaign.terms}
    return render(request, "rosters/game_score.html", context, status=status)
