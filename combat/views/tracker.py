"""The in-game tracker at `/games/<id>/tracker/`: the board, its poll, setting it up, and the quick actions on it
(Fatigue, Recover Harm, +1 Harm, +1 Injury, Out of Action and back in play, undo, the Confusion steps, equally close models, the end of a shooting engagement).

Each view parses, calls one service or selector, and renders (docs/architecture.md); GET never writes: the board is set up by
the "Track this game live" button (POST). The target's page is `tracker_target.py`, the end of the game
`tracker_end.py`, what they share `tracker_common.py`.

htmx: the board polls `tracker/board/?version=N&layout=L` every 2 seconds; an unchanged board answers 204 with no
body, a changed one the changed fighters' cards out of band (or the whole live partial when that cannot be told).
Quick actions answer with the fighter's card when the form asked for it (`hx-target="#fighter-N"`, only what
changed, the rest out of band), else with the board's live partial.

A fighter at full strength is drawn compact; its card is fetched whole when opened (`tracker/fighters/<id>/card/`),
and the page names the cards it shows opened (`open=`) in every request from the board, so a board drawn again
keeps them open.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from campaigns.access import can_manage_game, membership_read
from combat import access_cache
from combat.forms.tracker import (
    ConfusionChoiceForm,
    ConfusionTestForm,
    FatigueForm,
    FriendsForm,
    OutOfActionForm,
    TieForm,
    VersionForm,
)
from combat.selectors import tracker_poll
from combat.selectors.tracker_rows import board_with_game
from combat.services.tracker import board as board_services
from combat.services.tracker import confusion as confusion_services
from combat.services.tracker import fatigue as fatigue_services
from combat.services.tracker import marks as mark_services
from combat.services.tracker import out_of_action as out_of_action_services
from combat.services.tracker import units as unit_services
from combat.services.tracker.errors import TrackerError
from combat.views.tracker_common import (
    UNPROCESSABLE,
    board_context,
    board_for,
    done,
    form_error,
    game_for,
    is_partial,
    refused,
    refused_attempt,
    render_board,
    sent_with,
)

# --- The board ------------------------------------------------------------------------------------------------


@login_required
@require_GET
def tracker(request, game_id: int):
    game, can_act, reads = board_for(request, game_id)
    context = board_context(request, game, can_act, attempt=refused_attempt(request, game), reads=reads)
    return render(request, "combat/tracker.html", context)


@login_required
@require_GET
def tracker_card(request, game_id: int, fighter_id: int):
    """A fighter's card opened, its actions in sight, or folded back to its one line (`?fold=1`): swapped in by
    htmx; without JavaScript, the board with that card open (or folded), at the card."""
    game, can_act, reads = board_for(request, game_id)
    fold = request.GET.get("fold") == "1"
    if not is_partial(request):
        board_url = reverse("tracker", kwargs={"game_id": game.pk})
        opened = "" if fold else f"?open={fighter_id}"
        return redirect(f"{board_url}{opened}#fighter-{fighter_id}")
    context = board_context(request, game, can_act, reads=reads)
    fighter = context["board"].by_id.get(fighter_id) if context["board"] is not None else None
    if fighter is None:
        raise Http404("That fighter is not on this game's board.")
    fighter.opened = not fold
    return render(request, "combat/tracker.html#fighter-card", {**context, "f": fighter})


@login_required
@require_POST
def tracker_start(request, game_id: int):
    """ "Track this game live": the game's board set up (idempotent: two phones at once get one board)."""
    game, can_act = game_for(request, game_id, act=True)
    try:
        board_services.tracker_start(game=game, by=request.user)
    except TrackerError as error:
        return refused(request, game, can_act, error)
    return redirect("tracker", game_id=game.pk)


@require_GET
def tracker_board(request, game_id: int):
    """The poll: 204 while the board is unchanged since `version`, else the live partial.

    Answered from the shared cache alone when it knows both the version and this session as a reader of the game
    (combat/selectors/tracker_poll.py): no query for the user, the game or the board. Anything else
    takes the full check below, which then teaches the cache.
    """
    version = request.GET.get("version")
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if tracker_poll.board_unchanged(session_key=session_key, game_id=game_id, version=version):
        # The session was read from the cache, not through request.session: say the answer depends on it.
        response = HttpResponse(status=204)
        patch_vary_headers(response, ["Cookie"])
        return response
    return _tracker_board_checked(request, game_id, version)


@login_required
def _tracker_board_checked(request, game_id: int, version: str | None):
    token = access_cache.reader_token(game_id=game_id)  # before the check: see combat/access_cache.py
    # The board's row, rows and log with the membership, in one round trip; its version read from the database.
    reads = board_with_game(game_id=game_id, viewer=request.user)
    if reads is None:
        raise Http404("This game has no board.")
    game = reads.tracker.game
    membership = membership_read(reads.tracker, request.user, game)
    tracker_poll.remember_read_version(game_id=game.pk, version=reads.tracker.version)
    access_cache.remember_reader(session=request.session, game=game, token=token)
    if version == str(reads.tracker.version):
        return HttpResponse(status=204)
    can_act = can_manage_game(membership, game)
    if request.htmx:
        changes = tracker_poll.board_changes(
            game=game, since=version, layout=request.GET.get("layout"), viewer=request.user, reads=reads
        )
        if changes is not None:
            # Only out-of-band parts: the live partial polling stays in place (and keeps polling).
            context = {**board_context(request, game, can_act, board=changes.board), "changes": changes}
            return reswap(render(request, "combat/tracker.html#board-changes", context), "none")
    return render(
        request, "combat/tracker.html#tracker-live", board_context(request, game, can_act, reads=reads)
    )


# --- Quick actions on the board -------------------------------------------------------------------------------


def act_on_board(request, game_id: int, form_class, call, **form_kwargs):
    """Parse `form_class`, call the service through `call(game, cleaned_data)`, answer with the board."""
    game, can_act = game_for(request, game_id, act=True)
    form = form_class(request.POST, **form_kwargs)
    if not form.is_valid():
        return render_board(request, game, can_act, error=form_error(form), status=UNPROCESSABLE)
    try:
        call(game, form.cleaned_data)
    except TrackerError as error:
        return refused(request, game, can_act, error)
    return done(request, game, can_act)


@login_required
@require_POST
def tracker_fatigue(request, game_id: int, fighter_id: int):
    return act_on_board(
        request,
        game_id,
        FatigueForm,
        lambda game, data: fatigue_services.tracker_adjust_fatigue(
            game=game,
            target_id=fighter_id,
            change=data["change"],
            by=request.user,
            version=data["version"],
            sent=sent_with(data),
        ),
    )


@login_required
@require_POST
def tracker_recover_harm(request, game_id: int, fighter_id: int):
    return act_on_board(
        request,
        game_id,
        VersionForm,
        lambda game, data: fatigue_services.tracker_recover_harm(
            game=game, target_id=fighter_id, by=request.user, version=data["version"], sent=sent_with(data)
        ),
    )


@login_required
@require_POST
def tracker_add_harm(request, game_id: int, fighter_id: int):
    """ "+1 Harm" on a card: 1 Harm marked by a rule other than Damage (000 "Harm")."""
    return _mark(request, game_id, fighter_id, "harm")


@login_required
@require_POST
def tracker_add_injury(request, game_id: int, fighter_id: int):
    """ "+1 Injury" on a card: 1 Injury Box marked (000 "Injury"); one reaching Health Incapacitates (RULING D-8)."""
    return _mark(request, game_id, fighter_id, "injury")


def _mark(request, game_id: int, fighter_id: int, mark: str):
    return act_on_board(
        request,
        game_id,
        VersionForm,
        lambda game, data: mark_services.tracker_mark(
            game=game,
            target_id=fighter_id,
            mark=mark,
            by=request.user,
            version=data["version"],
            sent=sent_with(data),
        ),
    )


@login_required
@require_POST
def tracker_out_of_action(request, game_id: int, fighter_id: int):
    """ "Out of Action" on a card of a board whose fighters have no Endurance (combat/rules/board_rules.py)."""
    return _out_of_action(request, game_id, fighter_id, taken=True)


@login_required
@require_POST
def tracker_back_in_play(request, game_id: int, fighter_id: int):
    """ "Back in play": an Out of Action mark taken back."""
    return _out_of_action(request, game_id, fighter_id, taken=False)


def _out_of_action(request, game_id: int, fighter_id: int, *, taken: bool):
    return act_on_board(
        request,
        game_id,
        OutOfActionForm,
        lambda game, data: out_of_action_services.tracker_out_of_action(
            game=game,
            target_id=fighter_id,
            taken=taken,
            by=request.user,
            version=data["version"],
            sent=sent_with(data),
            attacker_id=data.get("attacker"),
        ),
    )


@login_required
@require_POST
def tracker_undo(request, game_id: int):
    return act_on_board(
        request,
        game_id,
        VersionForm,
        lambda game, data: board_services.tracker_undo(game=game, by=request.user, version=data["version"]),
    )


@login_required
@require_POST
def tracker_friends(request, game_id: int):
    return act_on_board(
        request,
        game_id,
        FriendsForm,
        lambda game, data: confusion_services.tracker_mark_friends(
            game=game, friend_ids=data["friends"], by=request.user, version=data["version"]
        ),
    )


@login_required
@require_POST
def tracker_confusion_test(request, game_id: int):
    return act_on_board(
        request,
        game_id,
        ConfusionTestForm,
        lambda game, data: confusion_services.tracker_confusion_test(
            game=game, friend_id=data["friend"], faces=data["faces"], by=request.user, version=data["version"]
        ),
        faces=request.POST.getlist("face"),
    )


@login_required
@require_POST
def tracker_confusion_choice(request, game_id: int):
    return act_on_board(
        request,
        game_id,
        ConfusionChoiceForm,
        lambda game, data: confusion_services.tracker_confusion_choose(
            game=game, choice=data["choice"], by=request.user, version=data["version"]
        ),
    )


@login_required
@require_POST
def tracker_ties(request, game_id: int):
    return act_on_board(
        request,
        game_id,
        TieForm,
        lambda game, data: unit_services.tracker_order_ties(
            game=game, tie_order=data["order"], by=request.user, version=data["version"]
        ),
    )


@login_required
@require_POST
def tracker_end_shooting(request, game_id: int):
    """ "End the shooting": the models assigned shooting damage are removed now (RULING A-5)."""
    return act_on_board(
        request,
        game_id,
        VersionForm,
        lambda game, data: unit_services.tracker_end_shooting(
            game=game, by=request.user, version=data["version"]
        ),
    )
