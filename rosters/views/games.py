"""Games: record one (finished, or started for the tracker), its page, corrections, deletion.

A game page gathers warbands and fighters (the Out of Action checkboxes), so it lives in `rosters`. The tracker
(`/games/<id>/tracker/`) and the post-game wizard (`/games/<id>/post-game/<warband_id>/`) are the combat app's;
they are linked by path, not by URL name.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.views.decorators.http import require_POST

from campaigns.access import (
    can_delete_game,
    can_manage_game,
    can_record_games,
    can_set_game_side,
    get_campaign_for_user,
    get_game_for_user,
    is_organiser,
)
from rosters import selectors, services
from rosters.forms import GameForm
from rosters.views.common import UNPROCESSABLE, add_errors


def _tracker_path(game) -> str | None:
    path = f"/games/{game.pk}/tracker/"
    try:
        resolve(path)
    except Resolver404:  # the tracker is not installed (yet): the game page links to it when it is
        return None
    return path


@login_required
def game_create(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not can_record_games(membership):
        raise PermissionDenied("Spectators read the campaign; players and the organiser record games.")
    warbands = selectors.warbands_for_game_form(campaign=campaign)
    form = GameForm(request.POST or None, warbands=warbands, terms=campaign.terms)
    context = {"form": form, "campaign": campaign, "terms": campaign.terms, "editing": False}
    if request.method == "POST":
        if form.is_valid():
            playing = form.cleaned_data["playing"]
            if not is_organiser(membership) and not any(w.owner_id == request.user.pk for w in playing):
                form.add_error(
                    None,
                    f"Record a game one of your {campaign.terms.warbands} played in (or ask the organiser).",
                )
            else:
                try:
                    if form.cleaned_data["mode"] == GameForm.PLAY:
                        game = services.game_start(
                            campaign=campaign,
                            by=request.user,
                            played_on=form.cleaned_data["played_on"],
                            scenario=form.cleaned_data["scenario"],
                            notes=form.cleaned_data["notes"],
                            warbands=playing,
                        )
                        messages.success(request, f"Game {game.number} has started. Good luck!")
                        return redirect(_tracker_path(game) or game_url(game))
                    game = services.game_record(
                        campaign=campaign,
                        by=request.user,
                        played_on=form.cleaned_data["played_on"],
                        scenario=form.cleaned_data["scenario"],
                        notes=form.cleaned_data["notes"],
                        entries=form.entries(),
                    )
                except ValidationError as error:
                    add_errors(form, error)
                else:
                    messages.success(
                        request, f"Game {game.number} recorded. Each warband's post-game is waiting."
                    )
                    return redirect(game_url(game))
        return render(request, "rosters/game_form.html", context, status=UNPROCESSABLE)
    return render(request, "rosters/game_form.html", context)


def game_url(game) -> str:
    return f"/games/{game.pk}/"


@login_required
def game_detail(request, game_id: int):
    game, membership = get_game_for_user(request.user, game_id)
    page = selectors.game_page(game=game)
    can_manage = can_manage_game(membership, game)
    context = {
        "page": page,
        "game": game,
        "campaign": game.campaign,
        "terms": page.terms,
        "membership": membership,
        "can_manage": can_manage,
        "editable": services.game_is_editable(game),
        "owned": {p.warband_id for p in page.players if p.warband.owner_id == request.user.pk},
        "is_organiser": is_organiser(membership),
    }
    return render(request, "rosters/game.html", context)


@login_required
def game_edit(request, game_id: int):
    """Correct a recorded game before its post-game starts, or finish by hand a game being played."""
    game, membership = get_game_for_user(request.user, game_id, manage=True)
    if not services.game_is_editable(game):
        messages.error(
            request,
            f"Game {game.number}'s post-game has started: its results and Out of Action cannot change now.",
        )
        return redirect(game_url(game))
    warbands = selectors.warbands_for_game_form(campaign=game.campaign)
    marks = selectors.out_of_action_ids(game=game)
    initial = {"played_on": game.played_on, "scenario": game.scenario, "notes": game.notes}
    for player in game.players.all():
        initial[f"wb{player.warband_id}_played"] = True
        initial[f"wb{player.warband_id}_result"] = player.result
        initial[f"wb{player.warband_id}_out"] = [str(pk) for pk in marks.get(player.warband_id, ())]
    settable = {w.pk for w in warbands if can_set_game_side(membership, game, w)}
    form = GameForm(
        request.POST or None,
        warbands=warbands,
        editing=True,
        initial=initial,
        terms=game.campaign.terms,
        settable=settable,
    )
    context = {
        "form": form,
        "campaign": game.campaign,
        "terms": game.campaign.terms,
        "game": game,
        "editing": True,
    }
    if request.method == "POST":
        if form.is_valid():
            try:
                services.game_update(
                    game=game,
                    by=request.user,
                    played_on=form.cleaned_data["played_on"],
                    scenario=form.cleaned_data["scenario"],
                    notes=form.cleaned_data["notes"],
                    entries=form.entries(),
                )
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, f"Game {game.number} saved.")
                return redirect(game_url(game))
        return render(request, "rosters/game_form.html", context, status=UNPROCESSABLE)
    return render(request, "rosters/game_form.html", context)


@login_required
@require_POST
def game_delete(request, game_id: int):
    game, membership = get_game_for_user(request.user, game_id, manage=True)
    if not can_delete_game(membership, game):
        raise PermissionDenied(
            "Only the organiser can delete a game that has a post-game or a tracker board."
        )
    try:
        services.game_delete(game=game, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(game_url(game))
    messages.success(request, f"Game {game.number} deleted.")
    return redirect("campaign_detail", campaign_id=game.campaign_id)
