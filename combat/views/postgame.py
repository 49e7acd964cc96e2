"""The post-game wizard at `/games/<id>/post-game/<warband_id>/`: one page per step, plus the live status.

1. Out of Action, 2. Troops, 3. ELITE fighters, 4. Experience, 5. Review and apply. The warband's owner and the
campaign's organiser roll and apply; every other member of the campaign reads the same pages, and the overview
refreshes itself every few seconds (htmx polling of the status partial) until the post-game is applied.

Each view parses, calls one service or selector, and renders. Refusals from `combat.services` come back as a
message with status 422 and nothing changed; with htmx, the step's section is swapped in its place.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import is_organiser, membership_of
from combat import selectors
from combat.forms.postgame import ExperienceForm, OutOfActionForm, RansomForm, RollForm
from combat.services import post_game as post_game_services
from rosters.access import can_change_warband

UNPROCESSABLE = 422
# The opponent and spectators watch the post-game fill in: the status partial asks again this often.
POLL_SECONDS = 3
STEP_TITLES = {
    "out-of-action": "Out of Action",
    "troops": "{troops}",
    "elites": "{elite} fighters",
    "experience": "Experience",
    "review": "Review and apply",
}
STEP_VIEWS = {
    "out-of-action": "post_game_out_of_action",
    "troops": "post_game_troops",
    "elites": "post_game_elites",
    "experience": "post_game_experience",
    "review": "post_game_review",
}


def _player_for_user(user, game_id: int, warband_id: int, *, write: bool = False):
    """The warband's entry in the game, the user's membership, and whether the user may roll and apply.

    Outsiders get 404; members read; only the warband's owner or the campaign's organiser write (403).
    """
    player = selectors.post_game_player(game_id=game_id, warband_id=warband_id)
    membership = membership_of(user, player.game.campaign) if player is not None else None
    if membership is None:
        # The same answer for a game that does not exist, a warband that did not play, and an outsider.
        raise Http404("No such post-game.")
    can_write = can_change_warband(membership, player.warband)
    if write and not can_write:
        raise PermissionDenied(
            "Only the warband's owner or the campaign's organiser can roll and apply its post-game."
        )
    return player, membership, can_write


def _url(name: str, player) -> str:
    return reverse(name, args=[player.game_id, player.warband_id])


def _steps(state, current: str) -> list[dict]:
    terms = state.terms
    done = {
        "out-of-action": state.post_game is not None,
        "troops": state.post_game is not None and state.troops_done,
        "elites": state.post_game is not None and state.elites_done,
        "experience": state.post_game is not None and state.elites_done and state.current_step == "review",
        "review": state.applied,
    }
    return [
        {
            "key": key,
            "number": number,
            "title": STEP_TITLES[key].format(troops=f"{terms.troop}s", elite=terms.elite),
            "url": _url(view, state.player),
            "current": key == current,
            "done": done[key],
        }
        for number, (key, view) in enumerate(STEP_VIEWS.items(), start=1)
    ]


def _context(request, player, membership, can_write: bool, *, step: str, state=None, **extra) -> dict:
    state = state if state is not None else selectors.post_game_state(player=player)
    return {
        "state": state,
        "player": player,
        "game": player.game,
        "campaign": player.game.campaign,
        "warband": player.warband,
        "terms": state.terms,
        "can_write": can_write and not state.applied,
        "can_revert": can_write and state.applied,
        "is_organiser": is_organiser(membership),
        "step": step,
        "steps": _steps(state, step),
        "urls": {
            "overview": _url("post_game", player),
            "status": _url("post_game_status", player),
            "roll": _url("post_game_roll", player),
            "ransom": _url("post_game_ransom", player),
            "apply": _url("post_game_apply", player),
            "revert": _url("post_game_revert", player),
            **{key.replace("-", "_"): _url(view, player) for key, view in STEP_VIEWS.items()},
        },
        "poll_seconds": POLL_SECONDS,
        **extra,
    }


def _applied_redirect(request, player, state):
    messages.info(request, "This post-game is applied: here is what it changed.")
    return redirect(_url("post_game", player))


# -- the overview and the live status ----------------------------------------------------------------------------


@require_GET
@login_required
def post_game(request, game_id: int, warband_id: int):
    """The post-game's overview: where it stands, what each roll gave, or once applied what it changed (with
    Revert). The owner and the organiser go straight on to the step where they left off."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id)
    state = selectors.post_game_state(player=player)
    if can_write and not state.applied and state.problem is None and request.GET.get("watch") is None:
        return redirect(_url(STEP_VIEWS[state.current_step], player))
    context = _context(request, player, membership, can_write, step="overview", state=state)
    if state.applied:
        context["revert_refusal"] = post_game_services.post_game_revert_refusal(player, state.post_game)
    return render(request, "combat/post_game.html", context)


@require_GET
@login_required
def post_game_status(request, game_id: int, warband_id: int):
    """The live part of the overview, polled by htmx every few seconds; it stops asking once applied."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id)
    context = _context(request, player, membership, can_write, step="overview")
    return render(request, "combat/post_game.html#post-game-status", context)


# -- step 1: Out of Action ---------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def post_game_out_of_action(request, game_id: int, warband_id: int):
    player, membership, can_write = _player_for_user(
        request.user, game_id, warband_id, write=request.method == "POST"
    )
    state = selectors.post_game_state(player=player)
    if state.applied:
        return _applied_redirect(request, player, state)
    rolled = {casualty.id for casualty in state.casualties if casualty.rolls}
    form = OutOfActionForm(
        request.POST or None,
        fighters=[
            fighter for fighter in state.fighters if fighter.is_active or fighter in state.out_of_action
        ],
        initial={"fighters": [fighter.pk for fighter in state.out_of_action]},
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                post_game_services.post_game_set_out_of_action(
                    player=player, fighter_ids=set(form.cleaned_data["fighters"]) | rolled, by=request.user
                )
            except post_game_services.PostGameError as error:
                form.add_error(None, str(error))
            else:
                chosen = set(form.cleaned_data["fighters"]) | rolled
                troops = [f for f in state.fighters if f.pk in chosen and not selectors.post_game_is_elite(f)]
                return redirect(_url(STEP_VIEWS["troops" if troops else "elites"], player))
        status = UNPROCESSABLE
    context = _context(request, player, membership, can_write, step="out-of-action", state=state)
    context.update(form=form, rolled=rolled)
    return render(request, "combat/post_game_out_of_action.html", context, status=status)


# -- steps 2 and 3: the rolls ---------------------------------------------------------------------------------------


def _card_errors(state, card_errors, entered=None) -> None:
    for casualty in state.casualties:
        casualty.card_error = (card_errors or {}).get(casualty.id)
        casualty.entered = (entered or {}).get(casualty.id)


def _rolls_page(
    request,
    player,
    membership,
    can_write: bool,
    *,
    step: str,
    status: int = 200,
    card_errors=None,
    entered=None,
    **extra,
):
    context = _context(request, player, membership, can_write, step=step, **extra)
    state = context["state"]
    if state.applied and request.method == "GET":
        return _applied_redirect(request, player, state)
    _card_errors(state, card_errors, entered)
    context["casualties"] = state.troops if step == "troops" else state.elites
    if request.htmx and request.method == "POST":
        return render(request, "combat/post_game_rolls.html#post-game-step", context, status=status)
    return render(request, "combat/post_game_rolls.html", context, status=status)


@require_GET
@login_required
def post_game_troops(request, game_id: int, warband_id: int):
    """Step 2: each Troop's Survival Roll (RULING T-2), rolled or typed in."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id)
    return _rolls_page(request, player, membership, can_write, step="troops")


@require_GET
@login_required
def post_game_elites(request, game_id: int, warband_id: int):
    """Step 3: each ELITE fighter's D66 on the Trauma Table (RULINGS T-3 to T-5), and Captured ransoms."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id)
    return _rolls_page(request, player, membership, can_write, step="elites")


@require_POST
@login_required
def post_game_roll(request, game_id: int, warband_id: int):
    """A roll: "Roll" (the server's dice) or "Enter dice" (typed in). Stored before it is shown; asked twice (a
    double click, a second tab), the stored roll is shown again."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id, write=True)
    form = RollForm(request.POST)
    step = request.POST.get("step") if request.POST.get("step") in STEP_VIEWS else "troops"
    if not form.is_valid():
        return _roll_refused(request, player, membership, step, form.cleaned_data.get("fighter"), form)
    data = form.cleaned_data
    try:
        made = post_game_services.post_game_roll(
            player=player,
            fighter_id=data["fighter"],
            purpose=data["purpose"],
            sequence=data["sequence"],
            faces=data["faces"],
            by=request.user,
        )
    except post_game_services.PostGameError as error:
        return _roll_refused(request, player, membership, step, data["fighter"], str(error))
    if not made.created:
        messages.info(request, f"Already rolled: {made.roll.dice_roll.label}. Shown again, not rolled twice.")
    if request.htmx:
        return _step_section(request, player, membership, step)
    return redirect(f"{_url(STEP_VIEWS[step], player)}#fighter-{data['fighter']}")


def _step_section(request, player, membership, step: str, *, status: int = 200, **extra):
    if step == "experience":
        return _experience_page(request, player, membership, True, status=status, **extra)
    return _rolls_page(request, player, membership, True, step=step, status=status, **extra)


def _roll_refused(request, player, membership, step: str, fighter_id, reason):
    """A refused roll: the step again with the reason on the fighter's card, status 422, nothing stored."""
    if not isinstance(reason, str):
        reason = " ".join(message for messages_ in reason.errors.values() for message in messages_)
    return _step_section(
        request, player, membership, step, status=UNPROCESSABLE, card_errors={fighter_id: reason}
    )


@require_POST
@login_required
def post_game_ransom(request, game_id: int, warband_id: int):
    """Captured: the ransom paid (how many ducats, to whom) or not."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id, write=True)
    state = selectors.post_game_state(player=player)
    form = RansomForm(request.POST, opponents=state.opponents, currency=state.terms.currency)
    fighter_id = request.POST.get("fighter")
    if form.is_valid():
        data = form.cleaned_data
        try:
            post_game_services.post_game_answer_ransom(
                player=player,
                fighter_id=data["fighter"],
                paid=data["paid"],
                ransom=data["ransom"],
                captor_id=data["captor"],
                by=request.user,
            )
        except post_game_services.PostGameError as error:
            reason = str(error)
        else:
            if request.htmx:
                return _rolls_page(request, player, membership, True, step="elites")
            return redirect(f"{_url('post_game_elites', player)}#fighter-{data['fighter']}")
    else:
        reason = " ".join(message for errors in form.errors.values() for message in errors)
    try:
        fighter_id = int(fighter_id)
    except (TypeError, ValueError):
        fighter_id = None
    return _rolls_page(
        request,
        player,
        membership,
        True,
        step="elites",
        status=UNPROCESSABLE,
        card_errors={fighter_id: reason},
        entered={
            fighter_id: {"paid": request.POST.get("paid", ""), "ransom": request.POST.get("ransom", "")}
        },
    )


# -- step 4: Experience ------------------------------------------------------------------------------------------


def _experience_page(
    request, player, membership, can_write: bool, *, status: int = 200, form=None, card_errors=None, **extra
):
    context = _context(request, player, membership, can_write, step="experience", **extra)
    state = context["state"]
    if state.applied:
        return _applied_redirect(request, player, state)
    _card_errors(state, card_errors)
    if form is None:
        form = ExperienceForm(lines=state.xp, adjust=context["is_organiser"])
    context["form"] = form
    context["d3"] = [casualty for casualty in state.casualties if casualty.waiting_for == "d3"]
    context["bitter"] = [
        casualty
        for casualty in state.casualties
        if casualty.outcome is not None
        and casualty.outcome.entry
        and casualty.outcome.entry.code == "bitter_lessons"
    ]
    if request.htmx and request.method == "POST":
        return render(request, "combat/post_game_experience.html#post-game-step", context, status=status)
    return render(request, "combat/post_game_experience.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def post_game_experience(request, game_id: int, warband_id: int):
    """Step 4: +1 XP for each ELITE fighter that took part and survived, Glorious Deeds, Bitter Lessons' D3, no XP
    for a fighter that cannot gain XP; the organiser may adjust."""
    player, membership, can_write = _player_for_user(
        request.user, game_id, warband_id, write=request.method == "POST"
    )
    if request.method == "GET":
        return _experience_page(request, player, membership, can_write)
    state = selectors.post_game_state(player=player)
    organiser = is_organiser(membership)
    form = ExperienceForm(request.POST, lines=state.xp, adjust=organiser)
    if form.is_valid():
        answers = {
            fighter_id: post_game_services.ExperienceAnswer(**answer)
            for fighter_id, answer in form.answers().items()
        }
        try:
            post_game_services.post_game_record_experience(
                player=player, by=request.user, answers=answers, adjust=organiser
            )
        except post_game_services.PostGameError as error:
            form.add_error(None, str(error))
        else:
            return redirect(_url("post_game_review", player))
    return _experience_page(request, player, membership, can_write, status=UNPROCESSABLE, form=form)


# -- step 5: Review and apply; Revert ---------------------------------------------------------------------------------


@require_GET
@login_required
def post_game_review(request, game_id: int, warband_id: int):
    """Step 5: every change to the roster, in words, and the Apply button (or why it cannot be pressed yet)."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id)
    state = selectors.post_game_state(player=player)
    if state.applied:
        return _applied_redirect(request, player, state)
    context = _context(request, player, membership, can_write, step="review", state=state)
    return render(request, "combat/post_game_review.html", context)


@require_POST
@login_required
def post_game_apply(request, game_id: int, warband_id: int):
    """Apply: every change in one transaction; refused with a message when already applied or not ready."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id, write=True)
    try:
        post_game_services.post_game_apply(player=player, by=request.user)
    except post_game_services.PostGameError as error:
        messages.error(request, str(error))
        state = selectors.post_game_state(player=player)
        if state.applied:
            return redirect(_url("post_game", player))
        context = _context(request, player, membership, can_write, step="review", state=state)
        return render(request, "combat/post_game_review.html", context, status=UNPROCESSABLE)
    messages.success(
        request,
        f"Post-game of Game {player.game.number} applied to {player.warband.name}. "
        "A mistake? Revert it below until the next game.",
    )
    return redirect(_url("post_game", player))


@require_POST
@login_required
def post_game_revert(request, game_id: int, warband_id: int):
    """Revert this post-game: the roster back exactly as it was; the wizard can then be done again."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id, write=True)
    try:
        post_game_services.post_game_revert(player=player, by=request.user)
    except post_game_services.PostGameError as error:
        messages.error(request, str(error))
        return redirect(f"{_url('post_game', player)}?watch=1")
    messages.success(
        request,
        f"Post-game of Game {player.game.number} reverted: {player.warband.name}'s roster is back as it was. "
        "Its rolls stay in the dice log; do the post-game again when you are ready.",
    )
    return redirect(_url("post_game", player))
