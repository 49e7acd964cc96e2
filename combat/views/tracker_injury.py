"""A Trench Crusade model on the board (TC_IN_GAME.md): the Injury Roll's short form with its exact odds
(`/games/<id>/tracker/fighters/<fighter>/injury-roll/`), the roll (`.../injury-roll/roll/`, one tap from the card
with the server's dice, or the form) and the one-tap markers (`.../markers/`).

Each view parses, calls one selector or service, and renders (docs/architecture.md). The odds update by an htmx GET
of the same page as the options change (only the odds partial comes back); without JavaScript "Show the odds" is a
plain GET. A refusal answers 4xx with the reason beside its field and nothing stored.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from campaigns.models import Game
from combat.forms.tracker_injury import MARKER_TAPS, InjuryRollForm, MarkerForm
from combat.selectors.tracker_attack import tracker_attackers
from combat.selectors.tracker_attack import tracker_target as target_on_board
from combat.selectors.tracker_injury import InjuryInputRefused, injury_inputs, injury_preview
from combat.selectors.tracker_state import is_tough, rules_for
from combat.services.tracker import injury as injury_services
from combat.services.tracker.errors import TrackerError
from combat.views.tracker import act_on_board
from combat.views.tracker_common import (
    UNPROCESSABLE,
    done,
    form_error,
    game_for,
    is_partial,
    refusal_status,
    refused,
    render_board,
    sent_with,
)

NOT_ON_BOARD = "That fighter is not on this game's board."
# The fields a refusal is shown beside on the form; any other reason is shown above it.
SHOWN_BESIDE = {
    "injury_dice",
    "modifiers",
    "blood_spent",
    "blessings_spent",
    "armour",
    "bloodbath",
    "faces",
    "roll",
    "attacker",
}
FROM_BOARD = "board"


def _preview(target, form: InjuryRollForm):
    """The odds of the roll the form describes, or the reason there are none (and its field)."""
    if target.status != "active":
        return None, None, None
    try:
        return injury_preview(injury_inputs(target, **form.roll_kwargs())), None, None
    except InjuryInputRefused as refusal:
        return None, str(refusal), refusal.field


def _context(request, game, can_act, target, form, *, error=None, error_field=None) -> dict:
    if not form.is_bound or form.is_valid():
        preview, odds_error, odds_field = _preview(target, form)
    else:
        preview, odds_error, odds_field = None, None, None
    form.offer_attackers(tracker_attackers(target=target))  # the page draws its "By"
    faces = [None] * (preview.dice if preview else 0)
    for index, face in enumerate(form.raw_faces[: len(faces)]):
        faces[index] = face
    return {
        "game": game,
        "campaign": game.campaign,
        "terms": game.campaign.terms,
        "target": target,
        "tough": is_tough(target.fighter),
        "can_act": can_act and game.status == Game.Status.IN_PROGRESS and not target.tracker.ended,
        "version": target.tracker.version,
        "form": form,
        "preview": preview,
        "faces": faces,
        "error": error or odds_error,
        "error_field": next((f for f in (error_field, odds_field) if f in SHOWN_BESIDE), None),
        "pending": target.tracker.pending,
    }


def _target(request, game_id: int, fighter_id: int, *, act: bool = False):
    game, can_act = game_for(request, game_id, act=act)
    target = target_on_board(game=game, fighter_id=fighter_id)
    if target is None or rules_for(game).single_model_damage:
        return game, can_act, None
    return game, can_act, target


@login_required
@require_GET
def tracker_injury(request, game_id: int, fighter_id: int):
    game, can_act, target = _target(request, game_id, fighter_id)
    if target is None:
        return render_board(request, game, can_act, error=NOT_ON_BOARD, status=404)
    params = request.GET if "version" in request.GET else None
    form = InjuryRollForm(
        params, initial={"version": target.tracker.version}, faces=request.GET.getlist("face")
    )
    context = _context(request, game, can_act, target, form)
    if form.is_bound and not form.is_valid():
        context["error"] = form_error(form)
    if is_partial(request):
        return render(request, "combat/tracker_injury.html#injury-odds", context)
    return render(request, "combat/tracker_injury.html", context)


@login_required
@require_POST
def tracker_injury_roll(request, game_id: int, fighter_id: int):
    """An Injury Roll: from the card (one tap, the server's dice, nothing special) or from the short form."""
    game, can_act, target = _target(request, game_id, fighter_id, act=True)
    if target is None:
        return render_board(request, game, can_act, error=NOT_ON_BOARD, status=404)
    form = InjuryRollForm(request.POST, faces=request.POST.getlist("face"))
    from_board = request.POST.get("from") == FROM_BOARD
    if not form.is_valid():
        error, field, status = form_error(form), next(iter(form.errors), None), UNPROCESSABLE
    else:
        data = form.cleaned_data
        try:
            injury_services.injury_roll(
                game=game,
                target_id=fighter_id,
                by=request.user,
                version=data["version"],
                faces=data["faces"],
                sent=sent_with(data),
                attacker_id=form.attacker_id(),
                **form.roll_kwargs(),
            )
        except TrackerError as refusal:
            if from_board or refusal_status(refusal) != 400:
                return refused(request, game, can_act, refusal)
            error, field, status = refusal.message, refusal.field, 400
        else:
            return done(request, game, can_act)
    if from_board:
        return render_board(request, game, can_act, error=error, status=status)
    context = _context(request, game, can_act, target, form, error=error, error_field=field)
    return render(request, "combat/tracker_injury.html", context, status=status)


@login_required
@require_POST
def tracker_markers(request, game_id: int, fighter_id: int):
    """+1 / -1 Blood or Blessing Marker, Down or stand up: one tap on the card."""

    def tap(game, data):
        what, change = MARKER_TAPS[data["marker"]]
        injury_services.tracker_marker(
            game=game,
            target_id=fighter_id,
            what=what,
            change=change,
            by=request.user,
            version=data["version"],
            sent=sent_with(data),
        )

    return act_on_board(request, game_id, MarkerForm, tap)
