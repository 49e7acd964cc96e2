"""The post-game's Dismiss the wounded step: fighters with 2 or more Battle Scars dismissed (CAMPAIGN_PHASE.md)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from combat.views.post_game.common import player_for_user, step_url


@require_http_methods(["GET", "POST"])
@login_required
def post_game_dismiss(request, game_id: int, warband_id: int):
    """Not built yet (issue 12): straight on to Review."""
    player, _membership, _can_write = player_for_user(request.user, game_id, warband_id)
    return redirect(step_url("post_game_review", player))
