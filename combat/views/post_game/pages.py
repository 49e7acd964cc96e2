"""The post-game's overview and live status, and the pages of steps 1 to 5 (Out of Action, Troops, ELITE
fighters, Experience, Review)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.access import is_organiser
from combat.forms import postgame as forms
from combat.selectors.post_game.out_of_action import first_rolls_step, out_of_action_choices
from combat.selectors.post_game.state import post_game_overview, post_game_state
from combat.selectors.post_game.steps import takes_step
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.views.post_game.common import (
    UNPROCESSABLE,
    applied_redirect,
    experience_page,
    next_step_url,
    page_context,
    player_for_user,
    rolls_page,
    step_page,
)

# -- the overview and the live status ----------------------------------------------------------------------------


@require_GET
@login_required
def post_game(request, game_id: int, warband_id: int):
    """The post-game's overview: where it stands, what each roll gave, or once applied what it changed (with
    Revert). The owner and the organiser go straight on to the step where they left off."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id)
    state = post_game_overview(player=player)
    if can_write and not state.applied and state.problem is None and request.GET.get("watch") is None:
        return redirect(step_page(state.current_step, player))
    context = page_context(request, player, membership, can_write, step="overview", state=state)
    return render(request, "combat/post_game.html", context)


@require_GET
@login_required
def post_game_status(request, game_id: int, warband_id: int):
    """The live part of the overview, polled by htmx every few seconds; it stops asking once applied."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id)
    context = page_context(request, player, membership, can_write, step="overview")
    return render(request, "combat/post_game.html#post-game-status", context)


# -- step 1: Out of Action ---------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def post_game_out_of_action(request, game_id: int, warband_id: int):
    """Step 1: the fighters the game marked Out of Action, corrected before any dice are rolled for them."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    state = post_game_state(player=player)
    if state.applied:
        return applied_redirect(request, player)
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
            if not takes_step(state, "troops"):
                # A post-game without the Trauma Step (Fallout: Factions' own) goes on to its next step.
                return redirect(next_step_url("out-of-action", player))
            return redirect(step_page(first_rolls_step(state, form.fighter_ids()), player))
    context = page_context(request, player, membership, can_write, step="out-of-action", state=state)
    context.update(form=form, rolled=choices.rolled)
    status = UNPROCESSABLE if posted else 200
    return render(request, "combat/post_game_out_of_action.html", context, status=status)


# -- steps 2 and 3: the rolls' pages ---------------------------------------------------------------------------


@require_GET
@login_required
def post_game_troops(request, game_id: int, warband_id: int):
    """Step 2: each Troop's Survival Roll (RULING T-2), rolled or typed in."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id)
    return rolls_page(request, player, membership, can_write, step="troops")


@require_GET
@login_required
def post_game_elites(request, game_id: int, warband_id: int):
    """Step 3: each ELITE fighter's D66 on the Trauma Table (RULINGS T-3 to T-5), and Captured ransoms."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id)
    return rolls_page(request, player, membership, can_write, step="elites")


# -- step 4: Experience ------------------------------------------------------------------------------------------


class _FormRefused(Exception):  # noqa: N818 - a signal, not an error: the form shows its own errors
    """The Experience form did not validate: its write is undone, and the page shows the form's errors."""


@require_http_methods(["GET", "POST"])
@login_required
def post_game_experience(request, game_id: int, warband_id: int):
    """Step 4 (RULING X-4): +1 XP for each ELITE fighter that took part and survived, +1 for at least one Glorious
    Deed, Bitter Lessons' D3, no XP for a Troop (its Deeds feed the Promotion Pool) nor for a fighter that cannot
    gain XP; the organiser may adjust."""
    posted = request.method == "POST"
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=posted)
    if not posted:
        return experience_page(request, player, membership, can_write)
    organiser = is_organiser(membership)
    posted_form: list[forms.ExperienceForm] = []

    def answers(lines) -> dict[int, ExperienceAnswer]:
        # The form read against the Experience the write works out under its locks: the post-game read once.
        form = forms.ExperienceForm(request.POST, lines=lines, adjust=organiser)
        posted_form.append(form)
        if not form.is_valid():
            raise _FormRefused
        return {fighter_id: ExperienceAnswer(**answer) for fighter_id, answer in form.answers().items()}

    try:
        post_game_record_experience(player=player, by=request.user, answers=answers, adjust=organiser)
    except _FormRefused:
        form = posted_form[-1]
    except PostGameError as error:
        # Refused before or after the form was read: the form as posted, with the reason.
        form = posted_form[-1] if posted_form else None
        if form is None:
            form = forms.ExperienceForm(
                request.POST, lines=post_game_state(player=player).xp, adjust=organiser
            )
            form.is_valid()
        form.add_error(None, str(error))
    else:
        return redirect(next_step_url("experience", player))
    # Refused: nothing changed (the write was undone), so the page reads the post-game as it was.
    return experience_page(request, player, membership, can_write, status=UNPROCESSABLE, form=form)


# -- step 5: Review and apply; Revert ---------------------------------------------------------------------------------


@require_GET
@login_required
def post_game_review(request, game_id: int, warband_id: int):
    """Step 5: every change to the roster, in words, and the Apply button (or why it cannot be pressed yet)."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id)
    state = post_game_state(player=player)
    if state.applied:
        return applied_redirect(request, player)
    context = page_context(request, player, membership, can_write, step="review", state=state)
    return render(request, "combat/post_game_review.html", context)
