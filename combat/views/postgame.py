"""The post-game wizard at `/games/<id>/post-game/<warband_id>/`: one page per step, plus the live status.

1. Out of Action, 2. Troops, 3. ELITE fighters, 4. Experience, 5. Review and apply. The warband's owner and the
campaign's organiser roll and apply; every other member of the campaign reads the same pages, and the overview
refreshes itself every few seconds (htmx polling of the status partial) until the post-game is applied.

Each view parses, calls one service or selector, and renders. Refusals from `combat.services.post_game`
(`PostGameError`) come back as a message with status 422 and nothing changed; with htmx, the step's section is
swapped in its place.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import is_organiser, membership_of
from combat.forms import postgame as forms
from combat.selectors.post_game.out_of_action import first_rolls_step, out_of_action_choices, post_game_player
from combat.selectors.post_game.state import post_game_overview, post_game_state
from combat.services.post_game.apply import post_game_apply as apply_post_game
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.services.post_game.revert import post_game_revert as revert_post_game
from combat.services.post_game.rolls import post_game_roll as roll_for
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
OTHER_URLS = {
    "overview": "post_game",
    "status": "post_game_status",
    "roll": "post_game_roll",
    "ransom": "post_game_ransom",
    "apply": "post_game_apply",
    "revert": "post_game_revert",
}


def _player_for_user(user, game_id: int, warband_id: int, *, write: bool = False):
    """The warband's entry in the game, the user's membership, and whether the user may roll and apply.

    Outsiders get 404; members read; only the warband's owner or the campaign's organiser write (403).
    """
    player = post_game_player(game_id=game_id, warband_id=warband_id)
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
    started = state.post_game is not None
    done = {
        "out-of-action": started,
        "troops": started and state.troops_done,
        "elites": started and state.elites_done,
        "experience": started and state.elites_done and state.current_step == "review",
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
    state = state if state is not None else post_game_state(player=player)
    urls = {key: _url(view, player) for key, view in OTHER_URLS.items()}
    urls.update({key.replace("-", "_"): _url(view, player) for key, view in STEP_VIEWS.items()})
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
        "urls": urls,
        "poll_seconds": POLL_SECONDS,
        **extra,
    }


def _applied_redirect(request, player):
    messages.info(request, "This post-game is applied: here is what it changed.")
    return redirect(_url("post_game", player))


# -- the overview and the live status ----------------------------------------------------------------------------


@require_GET
@login_required
def post_game(request, game_id: int, warband_id: int):
    """The post-game's overview: where it stands, what each roll gave, or once applied what it changed (with
    Revert). The owner and the organiser go straight on to the step where they left off."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id)
    state = post_game_overview(player=player)
    if can_write and not state.applied and state.problem is None and request.GET.get("watch") is None:
        return redirect(_url(STEP_VIEWS[state.current_step], player))
    context = _context(request, player, membership, can_write, step="overview", state=state)
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
    """Step 1: the fighters the game marked Out of Action, corrected before any dice are rolled for them."""
    posted = request.method == "POST"
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id, write=posted)
    state = post_game_state(player=player)
    if state.applied:
        return _applied_redirect(request, player)
    choices = out_of_action_choices(state)
    form = forms.OutOfActionForm(
        request.POST or None,
        fighters=choices.fighters,
        rolled=choices.rolled,
        initial={"fighters": choices.initial},
    )
    if posted and form.is_valid():
        try:
            post_game_set_out_of_action(player=player, fighter_ids=form.fighter_ids(), by=request.user)
        except PostGameError as error:
            form.add_error(None, str(error))
        else:
            return redirect(_url(STEP_VIEWS[first_rolls_step(state, form.fighter_ids())], player))
    context = _context(request, player, membership, can_write, step="out-of-action", state=state)
    context.update(form=form, rolled=choices.rolled)
    status = UNPROCESSABLE if posted else 200
    return render(request, "combat/post_game_out_of_action.html", context, status=status)


# -- steps 2 and 3: the rolls ---------------------------------------------------------------------------------------


def _card_errors(state, card_errors, entered=None) -> None:
    for casualty in state.casualties:
        casualty.card_error = (card_errors or {}).get(casualty.id)
        casualty.entered = (entered or {}).get(casualty.id)


def _rolls_page(
    request, player, membership, can_write: bool, *, step: str, status=200, card_errors=None, entered=None
):
    context = _context(request, player, membership, can_write, step=step)
    state = context["state"]
    if state.applied and request.method == "GET":
        return _applied_redirect(request, player)
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


def _step_section(request, player, membership, step: str, **extra):
    """The step a card was posted from, shown again (its section with htmx)."""
    if step == "experience":
        return _experience_page(request, player, membership, True, **extra)
    return _rolls_page(request, player, membership, True, step=step, **extra)


def _card_refused(request, player, membership, step: str, fighter_id, reason: str, *, entered=None):
    """A refused roll or answer: the step again with the reason on the fighter's card, 422, nothing stored."""
    entered = {fighter_id: entered} if entered is not None else None
    extra = {"card_errors": {fighter_id: reason}, **({"entered": entered} if entered else {})}
    return _step_section(request, player, membership, step, status=UNPROCESSABLE, **extra)


@require_POST
@login_required
def post_game_roll(request, game_id: int, warband_id: int):
    """A roll: "Roll" (the server's dice) or "Enter dice" (typed in). Stored before it is shown; asked twice (a
    double click, a second tab), the stored roll is shown again."""
    player, membership, _ = _player_for_user(request.user, game_id, warband_id, write=True)
    form = forms.RollForm(request.POST)
    step = request.POST.get("step") if request.POST.get("step") in STEP_VIEWS else "troops"
    if not form.is_valid():
        return _card_refused(
            request, player, membership, step, form.cleaned_data.get("fighter"), forms.form_reason(form)
        )
    data = form.cleaned_data
    try:
        made = roll_for(
            player=player,
            fighter_id=data["fighter"],
            purpose=data["purpose"],
            sequence=data["sequence"],
            faces=data["faces"],
            by=request.user,
        )
    except PostGameError as error:
        return _card_refused(request, player, membership, step, data["fighter"], str(error))
    if not made.created:
        messages.info(request, f"Already rolled: {made.roll.dice_roll.label}. Shown again, not rolled twice.")
    if request.htmx:
        return _step_section(request, player, membership, step)
    return redirect(f"{_url(STEP_VIEWS[step], player)}#fighter-{data['fighter']}")


@require_POST
@login_required
def post_game_ransom(request, game_id: int, warband_id: int):
    """Captured: the ransom paid (how many ducats, to whom) or not."""
    player, membership, _ = _player_for_user(request.user, game_id, warband_id, write=True)
    state = post_game_state(player=player)
    form = forms.RansomForm(request.POST, opponents=state.opponents, currency=state.terms.currency)
    try:
        if not form.is_valid():
            raise PostGameError(forms.form_reason(form))
        post_game_answer_ransom(player=player, by=request.user, **form.answer())
    except PostGameError as error:
        fighter_id = forms.posted_fighter(request.POST)
        return _card_refused(
            request, player, membership, "elites", fighter_id, str(error), entered=form.entered()
        )
    if request.htmx:
        return _rolls_page(request, player, membership, True, step="elites")
    return redirect(f"{_url('post_game_elites', player)}#fighter-{form.cleaned_data['fighter']}")


# -- step 4: Experience ------------------------------------------------------------------------------------------


def _experience_page(
    request, player, membership, can_write: bool, *, status: int = 200, form=None, card_errors=None
):
    context = _context(request, player, membership, can_write, step="experience")
    state = context["state"]
    if state.applied:
        return _applied_redirect(request, player)
    _card_errors(state, card_errors)
    context["form"] = form or forms.ExperienceForm(lines=state.xp, adjust=context["is_organiser"])
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
    posted = request.method == "POST"
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        return _experience_page(request, player, membership, can_write)
    organiser = is_organiser(membership)
    form = forms.ExperienceForm(request.POST, lines=post_game_state(player=player).xp, adjust=organiser)
    if form.is_valid():
        answers = {fighter_id: ExperienceAnswer(**answer) for fighter_id, answer in form.answers().items()}
        try:
            post_game_record_experience(player=player, by=request.user, answers=answers, adjust=organiser)
        except PostGameError as error:
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
    state = post_game_state(player=player)
    if state.applied:
        return _applied_redirect(request, player)
    context = _context(request, player, membership, can_write, step="review", state=state)
    return render(request, "combat/post_game_review.html", context)


@require_POST
@login_required
def post_game_apply(request, game_id: int, warband_id: int):
    """Apply: every change in one transaction; refused with a message when already applied or not ready."""
    player, membership, can_write = _player_for_user(request.user, game_id, warband_id, write=True)
    try:
        apply_post_game(player=player, by=request.user)
    except PostGameError as error:
        messages.error(request, str(error))
        state = post_game_state(player=player)
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
    player, _, _ = _player_for_user(request.user, game_id, warband_id, write=True)
    try:
        revert_post_game(player=player, by=request.user)
    except PostGameError as error:
        messages.error(request, str(error))
        return redirect(f"{_url('post_game', player)}?watch=1")
    messages.success(
        request,
        f"Post-game of Game {player.game.number} reverted: {player.warband.name}'s roster is back as it was. "
        "Its rolls stay in the dice log; do the post-game again when you are ready.",
    )
    return redirect(_url("post_game", player))
