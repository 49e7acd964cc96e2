"""The end of the game on the tracker, `/games/<id>/tracker/end/`: what it records (it cannot be undone here),
the results entered, the game ended."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render

from combat.forms.tracker import EndGameForm
from combat.selectors.tracker import tracker_board, tracker_players
from combat.services.tracker import end as end_services
from combat.services.tracker.errors import TrackerBlocked, TrackerConflict, TrackerError
from combat.views.tracker_common import (
    UNPROCESSABLE,
    board_context,
    form_error,
    game_for,
    refusal_status,
    refused,
)


def _end_page(request, game, can_act, board, form, *, error: str | None = None, status: int = 200):
    context = {
        **board_context(request, game, can_act, board=board, error=error),
        "form": form,
        "out_of_action": [
            f for crew in board.crews for f in crew.fighters if f.status in ("incapacitated", "out_of_action")
        ],
        "fled": [f for crew in board.crews for f in crew.fighters if f.status == "fled"],
        "harsh_lessons": [crew for crew in board.crews if crew.harsh_lessons],
    }
    return render(request, "combat/tracker_end.html", context, status=status)


@login_required
def tracker_end(request, game_id: int):
    """Review what the end of the game records, enter the results (POST), end it. The page exists only to end
    the game, so a spectator is refused it outright (403), as the POST always was."""
    game, can_act = game_for(request, game_id, act=True)
    board = tracker_board(game=game)
    if board is None:
        raise Http404("This game has no board.")
    form = EndGameForm(
        request.POST or None, players=tracker_players(game=game), initial={"version": board.version}
    )
    if request.method != "POST":
        return _end_page(request, game, can_act, board, form)
    if not form.is_valid():
        return _end_page(request, game, can_act, board, form, error=form_error(form), status=UNPROCESSABLE)
    data = form.cleaned_data
    try:
        end_services.tracker_end_game(
            game=game,
            results=form.results(),
            victory_points=form.victory_points(),
            by=request.user,
            version=data["version"],
            reason=data["reason"],
        )
    except (TrackerConflict, TrackerBlocked) as refusal:
        return refused(request, game, can_act, refusal)
    except TrackerError as refusal:
        return _end_page(
            request, game, can_act, board, form, error=refusal.message, status=refusal_status(refusal)
        )
    messages.success(
        request, f"{game} is recorded. Each {game.campaign.terms.warband}'s post-game is waiting."
    )
    return redirect("tracker", game_id=game.pk)
