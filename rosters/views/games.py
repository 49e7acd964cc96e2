"""Games: record one (finished, or started for the tracker), its page, corrections, deletion.

A game page gathers warbands and fighters (the Out of Action checkboxes), so it lives in `rosters`. The tracker
and the post-game wizard are the combat app's; they are linked by URL name.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_POST

from campaigns.access import (
    can_delete_game,
    can_edit_report,
    can_manage_game,
    can_record_games,
    can_set_game_side,
    can_write_report,
    get_campaign_for_user,
    get_game_for_user,
    is_organiser,
)
from rosters.forms.games import GameForm
from rosters.selectors import games as game_selectors
from rosters.services import fielding as fielding_services
from rosters.services import games as game_services
from rosters.views.common import UNPROCESSABLE, add_errors


def game_url(game) -> str:
    return reverse("game_detail", args=[game.pk])


def _tracker_url(game) -> str:
    try:
        return reverse("tracker", args=[game.pk])
    except NoReverseMatch:  # the tracker is not installed: the game page says what to do
        return game_url(game)


def _game_form_page(request, form: GameForm, *, campaign, game=None):
    context = {
        "form": form,
        "campaign": campaign,
        "terms": campaign.terms,
        "game": game,
        "editing": form.editing,
    }
    status = UNPROCESSABLE if request.method == "POST" else 200
    return render(request, "rosters/game_form.html", context, status=status)


def _start_or_record(form: GameForm, *, campaign, by):
    """Start the game for the tracker, or record it finished, as the form says; the answer's page and message."""
    if form.playing_now:
        game = game_services.game_start(
            campaign=campaign, by=by, warbands=form.cleaned_data["playing"], **form.game_fields()
        )
        return game, _tracker_url(game), f"Game {game.number} has started. Good luck!"
    game = game_services.game_record(campaign=campaign, by=by, entries=form.entries(), **form.game_fields())
    waiting = f"Each {campaign.terms.warband}'s post-game is waiting."  # a crew's, in Fallout: Factions
    return game, game_url(game), f"Game {game.number} recorded. {waiting}"


@login_required
def game_create(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not can_record_games(membership):
        raise PermissionDenied("Spectators read the campaign; players and the organiser record games.")
    form = GameForm(
        request.POST or None,
        warbands=game_selectors.warbands_for_game_form(campaign=campaign),
        terms=campaign.terms,
        recorder_id=None if is_organiser(membership) else request.user.pk,
    )
    if request.method == "POST" and form.is_valid():
        try:
            _game, url, message = _start_or_record(form, campaign=campaign, by=request.user)
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, message)
            return redirect(url)
    return _game_form_page(request, form, campaign=campaign)


@login_required
def game_detail(request, game_id: int):
    game, membership = get_game_for_user(request.user, game_id)
    return _game_page(request, game, membership)


def _game_page(request, game, membership, *, status: int = 200, field_errors=None):
    page = game_selectors.game_page(game=game)
    context = {
        "page": page,
        "game": game,
        "campaign": game.campaign,
        "terms": page.terms,
        "membership": membership,
        "can_manage": can_manage_game(membership, game),
        "can_delete": can_delete_game(membership, game),
        "editable": game_services.game_is_editable(game=game),
        "owned": {p.warband_id for p in page.players if p.warband.owner_id == request.user.pk},
        "is_organiser": is_organiser(membership),
        "can_write_report": page.report is None and can_write_report(membership, game),
        "can_edit_report": page.report is not None and can_edit_report(membership, page.report),
        "fieldable": {p.warband_id for p in page.players if can_set_game_side(membership, game, p.warband)},
        "field_errors": field_errors or {},
    }
    return render(request, "rosters/game.html", context, status=status)


@login_required
def game_edit(request, game_id: int):
    """Correct a recorded game before its post-game starts, or finish by hand a game being played."""
    game, membership = get_game_for_user(request.user, game_id, manage=True)
    if not game_services.game_is_editable(game=game):
        messages.error(
            request,
            f"Game {game.number}'s post-game has started: its results and Out of Action cannot change now.",
        )
        return redirect(game_url(game))
    warbands = game_selectors.warbands_for_game_form(campaign=game.campaign, game=game)
    form = GameForm(
        request.POST or None,
        warbands=warbands,
        editing=True,
        initial=game_selectors.game_form_initial(game=game),
        terms=game.campaign.terms,
        settable={w.pk for w in warbands if can_set_game_side(membership, game, w)},
    )
    if request.method == "POST" and form.is_valid():
        try:
            game_services.game_update(
                game=game, by=request.user, entries=form.entries(), **form.game_fields()
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, f"Game {game.number} saved.")
            return redirect(game_url(game))
    return _game_form_page(request, form, campaign=game.campaign, game=game)


@login_required
@require_POST
def game_delete(request, game_id: int):
    game, membership = get_game_for_user(request.user, game_id, manage=True)
    if not can_delete_game(membership, game):
        raise PermissionDenied(
            "Only the organiser can delete a game that has a post-game or a tracker board."
        )
    try:
        game_services.game_delete(game=game, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(game_url(game))
    messages.success(request, f"Game {game.number} deleted.")
    return redirect("campaign_detail", campaign_id=game.campaign_id)


@login_required
@require_POST
def game_field(request, game_id: int, warband_id: int):
    """Field fighters for this game: refused with 422 and the reason when over the battle's limits."""
    game, membership = get_game_for_user(request.user, game_id)
    player = game_selectors.game_player(game=game, warband_id=warband_id)
    if player is None:
        raise Http404("That warband did not play this game.")
    if not can_set_game_side(membership, game, player.warband):
        raise PermissionDenied("Only the warband's player or the organiser fields its fighters.")
    try:
        ids = [int(value) for value in request.POST.getlist("fielded")]
        fielding_services.game_field(player=player, fighter_ids=ids, by=request.user)
    except (ValueError, ValidationError) as refusal:
        words = (
            " ".join(refusal.messages) if isinstance(refusal, ValidationError) else "Not a list of fighters."
        )
        request_context = {"field_errors": {player.warband_id: words}}
        return _game_page(request, game, membership, status=UNPROCESSABLE, **request_context)
    messages.success(request, f"{player.warband.name}'s fielded fighters are saved.")
    return redirect(game_url(game) + f"#game-player-{player.warband_id}")
