"""The in-game tracker at `/games/<id>/tracker/`: the board, a target's page (odds, then roll or type the Damage),
Confusion Tests, undo, and the end of the game.

Each view parses, calls one service or selector, and renders (STYLE.md). Players whose warbands are in the game
and the organiser act; every other member reads (and the board's poll works for them); outsiders get 404 and
anonymous users go to log in.

htmx: the board polls `tracker/board/?version=N` every 2 seconds; an unchanged board answers 204 with no body.
Quick actions on the board (Fatigue, Recover Harm, undo, Confusion steps) answer with the board's live partial.
A refused action answers 409 (the board changed, or a step comes first) or 422 (bad input), with the page or
partial that says why; the pages tell htmx to swap those in.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import can_manage_game, get_game_for_user
from campaigns.models import Game, GamePlayer
from combat import selectors
from combat.forms.tracker import (
    AttackForm,
    ConfusionChoiceForm,
    ConfusionTestForm,
    DamageForm,
    EndGameForm,
    FatigueForm,
    FriendsForm,
    RollForm,
    TieForm,
    VersionForm,
)
from combat.services import tracker as tracker_services

UNPROCESSABLE = 422
POLL_SECONDS = 2


def _game(request, game_id: int, *, act: bool = False) -> tuple[Game, bool]:
    """The game and whether the user may act on its board (403 when `act` and they may not)."""
    game, membership = get_game_for_user(request.user, game_id)
    can_act = can_manage_game(membership, game)
    if act and not can_act:
        raise PermissionDenied(
            "Only the organiser and the players whose warbands are in this game act on its board."
        )
    return game, can_act


def _partial(request) -> bool:
    return bool(request.htmx) and not request.htmx.boosted


def _board_context(request, game: Game, can_act: bool, *, board=None, error: str | None = None) -> dict:
    board = board if board is not None else selectors.tracker_board(game=game)
    return {
        # Built once per page rather than once per fighter: the board is re-rendered for every phone.
        "fighters_url": reverse("tracker", kwargs={"game_id": game.pk}) + "fighters/",
        "csrf_field": format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
        ),
        "game": game,
        "campaign": game.campaign,
        "terms": game.campaign.terms,
        "board": board,
        "can_act": can_act and board is not None and not board.tracker.ended and game.status == "in_progress",
        "error": error,
        "poll_seconds": POLL_SECONDS,
        "post_game": _post_game_links(game, board),
    }


def _post_game_links(game: Game, board) -> list[tuple[str, str]]:
    if board is None or not board.tracker.ended:
        return []
    return [(crew.warband.name, f"/games/{game.pk}/post-game/{crew.warband.pk}/") for crew in board.crews]


def _render_board(request, game: Game, can_act: bool, *, error: str | None = None, status: int = 200):
    context = _board_context(request, game, can_act, error=error)
    template = "combat/tracker.html#tracker-live" if _partial(request) else "combat/tracker.html"
    return render(request, template, context, status=status)


def _done(request, game: Game, can_act: bool):
    """After an action: the live partial for htmx, else back to the board (POST, redirect, GET)."""
    if _partial(request):
        return _render_board(request, game, can_act)
    return redirect("tracker", game_id=game.pk)


def _refused(request, game: Game, can_act: bool, error: tracker_services.TrackerError):
    """A refused action: the board as it is now, with the reason, and nothing changed."""
    return _render_board(request, game, can_act, error=error.message, status=error.status)


def _form_error(form) -> str:
    errors = [str(message) for message in form.non_field_errors()]
    for name, field_errors in form.errors.items():
        if name == "__all__":
            continue
        label = form.fields[name].label if name in form.fields else name
        errors.extend(
            f"{label}: {message}" if name == "version" else str(message) for message in field_errors
        )
    return " ".join(errors) or "Check the form."


# --- The board ------------------------------------------------------------------------------------------------


@login_required
@require_GET
def tracker(request, game_id: int):
    game, can_act = _game(request, game_id)
    board = selectors.tracker_board(game=game)
    if board is None and game.status == Game.Status.IN_PROGRESS and can_act:
        # The first look at a game in progress sets up its board (idempotent: two phones at once get one board).
        tracker_services.tracker_start(game=game, by=request.user)
        board = selectors.tracker_board(game=game)
    return render(request, "combat/tracker.html", _board_context(request, game, can_act, board=board))


@login_required
@require_GET
def tracker_board(request, game_id: int):
    """The poll: 204 while the board is unchanged since `version`, else the live partial."""
    game, membership = get_game_for_user(request.user, game_id)
    current = selectors.tracker_version(game_id=game.pk)
    if current is None:
        raise Http404("This game has no board.")
    if request.GET.get("version") == str(current):
        return HttpResponse(status=204)
    can_act = can_manage_game(membership, game)
    return render(request, "combat/tracker.html#tracker-live", _board_context(request, game, can_act))


# --- A target: odds, then the Damage typed or the Attack Test rolled ------------------------------------------


NOT_ON_BOARD = "That fighter is not on this game's board."


def _not_on_board(request, game: Game, can_act: bool):
    # A fighter of another game (or none): the board as it is, with the reason, and nothing changed.
    return _render_board(request, game, can_act, error=NOT_ON_BOARD, status=404)


def _attack(form: AttackForm, attackers) -> selectors.AttackTest:
    """The Attack Test the form describes; a field left out or invalid counts as its default."""
    data = {}
    if form.is_bound:
        form.is_valid()
        data = form.cleaned_data

    def value(name):
        given = data.get(name)
        return form.fields[name].initial if given is None else given

    attacker = {row.fighter_id: row for row in attackers}.get(data.get("attacker"))
    return selectors.AttackTest(
        dice=value("dice"),
        stat=value("stat"),
        makeshift=bool(data.get("makeshift")),
        brawl=bool(data.get("brawl")),
        charged=bool(data.get("charged")),
        supporting_friends=value("supporting"),
        bonus=value("bonus"),
        attacker=attacker,
    )


def _attack_params(form: AttackForm, attack: selectors.AttackTest) -> list[tuple[str, object]]:
    """The Attack Test as hidden fields of the roll form: what is rolled is what the odds were shown for."""
    params = [
        ("attacker", attack.attacker.fighter_id if attack.attacker else ""),
        ("dice", attack.dice),
        ("stat", attack.stat),
        ("supporting", attack.supporting_friends),
        ("bonus", attack.bonus),
    ]
    params += [(name, "on") for name in ("makeshift", "brawl", "charged") if getattr(attack, name)]
    data = form.cleaned_data if form.is_bound else {}
    for bound in form.distance_fields:
        distance = data.get(bound.name)
        if distance is not None:
            params.append((bound.name, distance))
    if data.get("target_limit"):
        params.append(("target_limit", data["target_limit"]))
    return params


def _target_context(
    request, game, can_act, target, *, attack_form=None, damage_form=None, error=None
) -> dict:
    attackers = selectors.tracker_attackers(target=target)
    models = target.models_left if selectors.is_unit(target.fighter) else 1
    if attack_form is None:
        params = request.GET if "dice" in request.GET else None
        attack_form = AttackForm(params, attackers=attackers, models=models)
    attack = _attack(attack_form, attackers)
    pool = odds = pool_error = None
    if target.status == "active":
        try:
            pool = selectors.attack_dice_pool(target, attack)
            odds = selectors.tracker_attack_odds(target, pool)
        except ValueError as problem:
            pool_error = f"No odds for this Attack Test: {problem}."
    faces: list = [None] * (pool.pool if pool else 0)
    for index, face in enumerate(getattr(attack_form, "raw_faces", [])[: len(faces)]):
        faces[index] = face
    version = target.tracker.version
    return {
        "game": game,
        "campaign": game.campaign,
        "terms": game.campaign.terms,
        "target": target,
        "unit": selectors.is_unit(target.fighter),
        "can_act": can_act and game.status == Game.Status.IN_PROGRESS and not target.tracker.ended,
        "version": version,
        "attack_form": attack_form,
        "attack_params": _attack_params(attack_form, attack),
        "damage_form": damage_form or DamageForm(initial={"version": version}, models=models),
        "pool": pool,
        "pool_error": pool_error,
        "odds": odds,
        "faces": faces,
        "ladder": selectors.tracker_damage_ladder(target),
        "error": error,
        "pending": target.tracker.pending,
    }


@login_required
@require_GET
def tracker_target(request, game_id: int, fighter_id: int):
    game, can_act = _game(request, game_id)
    target = selectors.tracker_target(game=game, fighter_id=fighter_id)
    if target is None:
        return _not_on_board(request, game, can_act)
    context = _target_context(request, game, can_act, target)
    if _partial(request):
        return render(request, "combat/tracker_target.html#attack-odds", context)
    return render(request, "combat/tracker_target.html", context)


def _target_refused(request, game, can_act, target, *, status: int, error: str, **forms):
    context = _target_context(request, game, can_act, target, error=error, **forms)
    return render(request, "combat/tracker_target.html", context, status=status)


@login_required
@require_POST
def tracker_damage(request, game_id: int, fighter_id: int):
    game, can_act = _game(request, game_id, act=True)
    target = selectors.tracker_target(game=game, fighter_id=fighter_id)
    if target is None:
        return _not_on_board(request, game, can_act)
    models = target.models_left if selectors.is_unit(target.fighter) else 1
    form = DamageForm(request.POST, models=models)
    if not form.is_valid():
        return _target_refused(
            request, game, can_act, target, status=UNPROCESSABLE, error=_form_error(form), damage_form=form
        )
    try:
        tracker_services.tracker_apply_damage(
            game=game,
            target_id=fighter_id,
            damage=form.cleaned_data["damage"],
            by=request.user,
            version=form.cleaned_data["version"],
            distances=form.distances(),
            target_limit=form.target_limit(),
        )
    except tracker_services.TrackerError as error:
        if isinstance(error, tracker_services.TrackerConflict | tracker_services.TrackerBlocked):
            return _refused(request, game, can_act, error)
        return _target_refused(
            request, game, can_act, target, status=error.status, error=error.message, damage_form=form
        )
    return redirect("tracker", game_id=game.pk)


@login_required
@require_POST
def tracker_attack(request, game_id: int, fighter_id: int):
    game, can_act = _game(request, game_id, act=True)
    target = selectors.tracker_target(game=game, fighter_id=fighter_id)
    if target is None:
        return _not_on_board(request, game, can_act)
    attackers = selectors.tracker_attackers(target=target)
    models = target.models_left if selectors.is_unit(target.fighter) else 1
    form = RollForm(request.POST, attackers=attackers, models=models, faces=request.POST.getlist("face"))
    if not form.is_valid():
        return _target_refused(
            request, game, can_act, target, status=UNPROCESSABLE, error=_form_error(form), attack_form=form
        )
    try:
        tracker_services.tracker_roll_attack(
            game=game,
            target_id=fighter_id,
            attack=_attack(form, attackers),
            faces=form.cleaned_data["faces"],
            by=request.user,
            version=form.cleaned_data["version"],
            distances=form.distances(),
            target_limit=form.target_limit(),
        )
    except tracker_services.TrackerError as error:
        if isinstance(error, tracker_services.TrackerConflict | tracker_services.TrackerBlocked):
            return _refused(request, game, can_act, error)
        return _target_refused(
            request, game, can_act, target, status=error.status, error=error.message, attack_form=form
        )
    return redirect("tracker", game_id=game.pk)


# --- Quick actions on the board -------------------------------------------------------------------------------


def _act(request, game_id: int, form_class, call, **form_kwargs):
    """Parse `form_class`, call the service through `call(game, cleaned_data)`, answer with the board."""
    game, can_act = _game(request, game_id, act=True)
    form = form_class(request.POST, **form_kwargs)
    if not form.is_valid():
        return _render_board(request, game, can_act, error=_form_error(form), status=UNPROCESSABLE)
    try:
        call(game, form.cleaned_data)
    except tracker_services.TrackerError as error:
        return _refused(request, game, can_act, error)
    return _done(request, game, can_act)


@login_required
@require_POST
def tracker_fatigue(request, game_id: int, fighter_id: int):
    return _act(
        request,
        game_id,
        FatigueForm,
        lambda game, data: tracker_services.tracker_adjust_fatigue(
            game=game, target_id=fighter_id, change=data["change"], by=request.user, version=data["version"]
        ),
    )


@login_required
@require_POST
def tracker_recover_harm(request, game_id: int, fighter_id: int):
    return _act(
        request,
        game_id,
        VersionForm,
        lambda game, data: tracker_services.tracker_recover_harm(
            game=game, target_id=fighter_id, by=request.user, version=data["version"]
        ),
    )


@login_required
@require_POST
def tracker_undo(request, game_id: int):
    return _act(
        request,
        game_id,
        VersionForm,
        lambda game, data: tracker_services.tracker_undo(game=game, by=request.user, version=data["version"]),
    )


@login_required
@require_POST
def tracker_friends(request, game_id: int):
    return _act(
        request,
        game_id,
        FriendsForm,
        lambda game, data: tracker_services.tracker_mark_friends(
            game=game, friend_ids=data["friends"], by=request.user, version=data["version"]
        ),
    )


@login_required
@require_POST
def tracker_confusion_test(request, game_id: int):
    return _act(
        request,
        game_id,
        ConfusionTestForm,
        lambda game, data: tracker_services.tracker_confusion_test(
            game=game, friend_id=data["friend"], faces=data["faces"], by=request.user, version=data["version"]
        ),
        faces=request.POST.getlist("face"),
    )


@login_required
@require_POST
def tracker_confusion_choice(request, game_id: int):
    return _act(
        request,
        game_id,
        ConfusionChoiceForm,
        lambda game, data: tracker_services.tracker_confusion_choose(
            game=game, choice=data["choice"], by=request.user, version=data["version"]
        ),
    )


@login_required
@require_POST
def tracker_ties(request, game_id: int):
    return _act(
        request,
        game_id,
        TieForm,
        lambda game, data: tracker_services.tracker_order_ties(
            game=game, tie_order=data["order"], by=request.user, version=data["version"]
        ),
    )


# --- The end of the game --------------------------------------------------------------------------------------


@login_required
def tracker_end(request, game_id: int):
    """Review what the end of the game records (it cannot be undone here), enter the results, end it."""
    game, can_act = _game(request, game_id, act=request.method == "POST")
    board = selectors.tracker_board(game=game)
    if board is None:
        raise Http404("This game has no board.")
    players = list(GamePlayer.objects.filter(game=game).select_related("warband").order_by("id"))
    form = EndGameForm(request.POST or None, players=players, initial={"version": board.version})
    status = 200
    error = None
    if request.method == "POST":
        if form.is_valid():
            try:
                tracker_services.tracker_end_game(
                    game=game,
                    results=form.results(),
                    by=request.user,
                    version=form.cleaned_data["version"],
                    reason=form.cleaned_data["reason"],
                )
            except tracker_services.TrackerError as refusal:
                if isinstance(refusal, tracker_services.TrackerConflict | tracker_services.TrackerBlocked):
                    return _refused(request, game, can_act, refusal)
                error, status = refusal.message, refusal.status
            else:
                messages.success(request, f"{game} is recorded. Each warband's post-game is waiting.")
                return redirect(reverse("tracker", kwargs={"game_id": game.pk}))
        else:
            error, status = _form_error(form), UNPROCESSABLE
    context = {
        **_board_context(request, game, can_act, board=board, error=error),
        "form": form,
        "out_of_action": [f for crew in board.crews for f in crew.fighters if f.status == "incapacitated"],
        "fled": [f for crew in board.crews for f in crew.fighters if f.status == "fled"],
        "harsh_lessons": [crew for crew in board.crews if crew.harsh_lessons],
    }
    return render(request, "combat/tracker_end.html", context, status=status)
