"""What every page of the post-game wizard shares: who may read and write, the step bar, the context, the step
pages shown again after a refused write.

The wizard lives at `/games/<id>/post-game/<warband_id>/`: 1. Out of Action, 2. Troops, 3. ELITE fighters,
4. Experience, 5. Review and apply. The warband's owner and the campaign's organiser roll and apply; every other
member of the campaign reads the same pages, and the overview refreshes itself every few seconds (htmx polling of
the status partial) until the post-game is applied.

Each view parses, calls one service or selector, and renders. Refusals from the post-game services
(`PostGameError`) come back as a message with status 422 and nothing changed; with htmx, the step's section is
swapped in its place.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from campaigns.access import is_organiser
from campaigns.models import Membership
from combat import rules
from combat.forms import postgame as forms
from combat.selectors.post_game.out_of_action import post_game_player
from combat.selectors.post_game.state import post_game_state
from combat.selectors.post_game.steps import POST_GAME_STEPS, post_game_steps, steps_for
from combat.selectors.post_game.steps import step as registry_step
from rosters.access import can_change_warband

UNPROCESSABLE = 422
# The opponent and spectators watch the post-game fill in: the status partial asks again this often.
POLL_SECONDS = 3
OTHER_URLS = {
    "overview": "post_game",
    "status": "post_game_status",
    "roll": "post_game_roll",
    "ransom": "post_game_ransom",
    "ransom_withdraw": "post_game_ransom_withdraw",
    "ransom_answer": "post_game_ransom_answer",
    "ransom_reopen": "post_game_ransom_reopen",
    "apply": "post_game_apply",
    "revert": "post_game_revert",
}


def player_for_user(user, game_id: int, warband_id: int, *, write: bool = False):
    """The warband's entry in the game, the user's membership, and whether the user may roll and apply.

    Outsiders get 404; members read; only the warband's owner or the campaign's organiser write (403).
    """
    # The entry and the user's membership in one query.
    player = post_game_player(game_id=game_id, warband_id=warband_id, user=user)
    if player is None or player.member_id is None:
        # The same answer for a game that does not exist, a warband that did not play, and an outsider.
        raise Http404("No such post-game.")
    membership = Membership(
        pk=player.member_id, campaign=player.game.campaign, user=user, role=player.member_role
    )
    membership._state.adding = False  # noqa: SLF001 - a row read from the database, as a query would leave it
    can_write = can_change_warband(membership, player.warband)
    if write and not can_write:
        raise PermissionDenied(
            "Only the warband's owner, while a player, or the campaign's organiser can roll and apply its post-game."
        )
    return player, membership, can_write


def step_url(name: str, player) -> str:
    return reverse(name, args=[player.game_id, player.warband_id])


def step_page(key: str, player) -> str:
    """The page of the step with this key."""
    return step_url(registry_step(key, player.game.campaign).url_name, player)


def next_step_url(step: str, player) -> str:
    """The page of the step after `step` in the wizard's order, the steps the attempt opened with (a step with
    nothing to do sends on again)."""
    steps = post_game_steps(player=player)
    keys = [entry.key for entry in steps]
    return step_url(steps[keys.index(step) + 1].url_name, player)


def neighbours(steps, key: str, state, urls: dict | None = None) -> dict:
    """The steps before and after `key` in this post-game, each as its title and page (None at either end, or for
    a page not among them); `urls`: the pages by step key, worked out already."""
    keys = [entry.key for entry in steps]
    if key not in keys:
        return {"previous_step": None, "next_step": None}
    at = keys.index(key)

    def link(entry) -> dict:
        url = urls[entry.key] if urls else step_url(entry.url_name, state.player)
        return {"title": entry.heading(state.terms), "url": url}

    return {
        "previous_step": link(steps[at - 1]) if at > 0 else None,
        "next_step": link(steps[at + 1]) if at + 1 < len(steps) else None,
    }


def step_bar(state, current: str, urls: dict | None = None) -> list[dict]:
    """The wizard's steps as the bar shows them: a Trauma Step page is done once its rolls are in; a later step
    once the wizard has gone on past it (not while it is being filled in); the Review once applied. `urls`: the
    pages by step key, worked out already."""
    steps = steps_for(state.campaign, state.post_game)
    keys = [entry.key for entry in steps]
    started = state.post_game is not None
    reached = keys.index(state.current_step) if started else 0

    def done(number: int, entry) -> bool:
        if entry.gate:
            return started and entry.done(state)
        if entry is steps[-1]:
            return state.applied
        passed = started and state.elites_done and number < reached and current != entry.key
        return state.applied or passed

    return [
        {
            "key": entry.key,
            "number": number + 1,
            "title": entry.heading(state.terms),
            "url": urls[entry.key] if urls else step_url(entry.url_name, state.player),
            "current": entry.key == current,
            "done": done(number, entry),
        }
        for number, entry in enumerate(steps)
    ]


def step_position(bar: list[dict]) -> dict | None:
    """Where the page stands in the step bar, for the compact bar a phone shows: the current step, its number of
    all, the steps before and after it (None for none); None on a page that is no step (the overview)."""
    here = next((number for number, item in enumerate(bar) if item["current"]), None)
    if here is None:
        return None
    return {
        **bar[here],
        "count": len(bar),
        "previous": bar[here - 1] if here > 0 else None,
        "next": bar[here + 1] if here + 1 < len(bar) else None,
    }


def page_context(request, player, membership, can_write: bool, *, step: str, state=None, **extra) -> dict:
    state = state if state is not None else post_game_state(player=player)
    steps = steps_for(state.campaign, state.post_game)
    if step != "overview" and step not in {entry.key for entry in steps}:
        # A step this campaign's post-game does not take (a Trench Crusade step in a Fallout: Factions campaign
        # that did not switch it on): no such page here.
        raise Http404("This post-game has no such step.")
    # Each page's URL worked out once (a reverse() each), for the links, the step bar and the neighbours.
    pages = {entry.key: step_url(entry.url_name, player) for entry in POST_GAME_STEPS}
    urls = {key: step_url(view, player) for key, view in OTHER_URLS.items()}
    urls.update({key.replace("-", "_"): url for key, url in pages.items()})
    bar = step_bar(state, step, pages)
    return {
        "state": state,
        "player": player,
        "game": player.game,
        "campaign": player.game.campaign,
        "warband": player.warband,
        "terms": state.terms,
        "can_write": can_write and not state.applied,
        "can_revert": can_write and state.applied,
        # Correct a typed die (owner or organiser), void a server roll (organiser), until the next game.
        "can_fix": can_write and state.revert_refusal is None and state.problem is None,
        "is_organiser": is_organiser(membership),
        "step": step,
        "steps": bar,
        "step_position": step_position(bar),
        "urls": urls,
        "poll_seconds": POLL_SECONDS,
        "step_keys": frozenset(entry.key for entry in steps),
        **neighbours(steps, step, state, pages),
        **extra,
    }


def applied_redirect(request, player):
    messages.info(request, "This post-game is applied: here is what it changed.")
    return redirect(step_url("post_game", player))


def mark_card_errors(state, card_errors, entered=None) -> None:
    for casualty in state.casualties:
        casualty.card_error = (card_errors or {}).get(casualty.id)
        casualty.entered = (entered or {}).get(casualty.id)


def rolls_page(
    request,
    player,
    membership,
    can_write: bool,
    *,
    step: str,
    status=200,
    card_errors=None,
    entered=None,
    state=None,
):
    """A Trauma Step page; `state`: the post-game read already in this request (a refused write changed nothing),
    or None to read it."""
    context = page_context(request, player, membership, can_write, step=step, state=state)
    state = context["state"]
    if state.applied and request.method == "GET":
        return applied_redirect(request, player)
    mark_card_errors(state, card_errors, entered)
    context["casualties"] = state.troops if step == "troops" else state.elites
    if request.htmx and request.method == "POST":
        return render(request, "combat/post_game_rolls.html#post-game-step", context, status=status)
    return render(request, "combat/post_game_rolls.html", context, status=status)


def step_section(request, player, membership, step: str, **extra):
    """The step a card was posted from, shown again (its section with htmx)."""
    if step == "experience":
        return experience_page(request, player, membership, True, **extra)
    return rolls_page(request, player, membership, True, step=step, **extra)


def card_refused(
    request, player, membership, step: str, fighter_id, reason: str, *, entered=None, state=None
):
    """A refused roll or answer: the step again with the reason on the fighter's card, 422, nothing stored (so the
    post-game read before the write, `state`, still holds)."""
    entered = {fighter_id: entered} if entered is not None else None
    extra = {"card_errors": {fighter_id: reason}, "state": state, **({"entered": entered} if entered else {})}
    return step_section(request, player, membership, step, status=UNPROCESSABLE, **extra)


def experience_page(
    request,
    player,
    membership,
    can_write: bool,
    *,
    status: int = 200,
    form=None,
    card_errors=None,
    state=None,
):
    context = page_context(request, player, membership, can_write, step="experience", state=state)
    state = context["state"]
    if state.applied:
        return applied_redirect(request, player)
    mark_card_errors(state, card_errors)
    context["form"] = form or forms.ExperienceForm(lines=state.xp, adjust=context["is_organiser"])
    # RULING X-4 in the engine's words: the step's rule line says what a Troop's Deeds do instead.
    context["xp_words"] = {
        "taking_part": rules.XP_FOR_TAKING_PART_WORDS,
        "deeds": rules.XP_FOR_DEEDS_WORDS,
        "troop": rules.TROOP_DEEDS_WORDS,
    }
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
