"""A game's scenario roll at `/games/<id>/scenario/`: everyone in the campaign reads it; the
organiser or a player whose warband takes part rolls it, before the game is played.

The game page (rosters) links here by URL name, as it links to the tracker. GET shows the stage, its table, the
scenarios to avoid and the odds before the roll; POST rolls (server dice or a die typed in). A refused roll answers
422 (or 409 when the game is past rolling) with the reason beside the field, and changes nothing.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.access import can_manage_game, get_game_for_user
from combat.forms.scenario import ScenarioRollForm
from combat.selectors.scenario import scenario_page
from combat.services.scenario import ScenarioError, game_scenario_roll

UNPROCESSABLE = 422


def _page(request, game, membership, *, form=None, status=200):
    page = scenario_page(game=game)
    context = {
        "game": game,
        "campaign": game.campaign,
        "terms": game.campaign.terms,
        "page": page,
        "form": form or ScenarioRollForm(),
        "can_roll": page.can_roll and can_manage_game(membership, game),
        "is_organiser": membership.role == membership.Role.ORGANISER,
    }
    template = "combat/game_scenario.html#scenario-roll" if request.htmx else "combat/game_scenario.html"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def game_scenario(request, game_id: int):
    game, membership = get_game_for_user(request.user, game_id)
    if request.method != "POST":
        return _page(request, game, membership)
    if not can_manage_game(membership, game):
        raise PermissionDenied("Only the organiser or a player whose warband takes part rolls the scenario.")
    form = ScenarioRollForm(request.POST)
    if not form.is_valid():
        return _page(request, game, membership, form=form, status=UNPROCESSABLE)
    try:
        roll, rolled = game_scenario_roll(game=game, by=request.user, face=form.face_or_server)
    except ScenarioError as error:
        form.add_error(None, str(error))
        return _page(request, game, membership, form=form, status=UNPROCESSABLE)
    if not rolled:
        messages.info(request, f"Already rolled: {roll.scenario}. Shown again, not rolled twice.")
    elif roll.settled:
        messages.success(request, f"Game {game.number}'s scenario: {roll.scenario}.")
    game.refresh_from_db()
    if request.htmx:
        return _page(request, game, membership)
    return redirect("game_scenario", game_id=game.pk)
