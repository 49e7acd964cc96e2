"""Step 5 of the post-game: Apply, and Revert until the warband's next game."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from combat.rules.words import possessive
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.apply import post_game_apply as apply_post_game
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.revert import post_game_revert as revert_post_game
from combat.views.post_game.common import UNPROCESSABLE, page_context, player_for_user, step_url


@require_POST
@login_required
def post_game_apply(request, game_id: int, warband_id: int):
    """Apply: every change in one transaction; refused with a message when already applied or not ready."""
    player, membership, can_write = player_for_user(request.user, game_id, warband_id, write=True)
    try:
        apply_post_game(player=player, by=request.user)
    except PostGameError as error:
        messages.error(request, str(error))
        state = post_game_state(player=player)
        if state.applied:
            return redirect(step_url("post_game", player))
        context = page_context(request, player, membership, can_write, step="review", state=state)
        return render(request, "combat/post_game_review.html", context, status=UNPROCESSABLE)
    messages.success(
        request,
        f"Post-game of Game {player.game.number} applied to {player.warband.name}. "
        "A mistake? Revert it below until the next game.",
    )
    return redirect(step_url("post_game", player))


@require_POST
@login_required
def post_game_revert(request, game_id: int, warband_id: int):
    """Revert this post-game: the roster back exactly as it was; the same attempt reopens at Review with its rolls
    and answers (a roll is final)."""
    player, _, _ = player_for_user(request.user, game_id, warband_id, write=True)
    try:
        revert_post_game(player=player, by=request.user)
    except PostGameError as error:
        messages.error(request, str(error))
        return redirect(f"{step_url('post_game', player)}?watch=1")
    messages.success(
        request,
        f"Post-game of Game {player.game.number} reverted: {possessive(player.warband.name)} roster is back as it was. "
        "Its rolls stay as they were, every one still counting: check the Review, correct a typed die if one "
        "was wrong, and apply again.",
    )
    return redirect(step_url("post_game_review", player))
