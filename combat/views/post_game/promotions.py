"""The post-game's Promotions step: the Promotion Pool, its dice assigned and rolled (RULINGS P-1 to P-7)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from combat.views.post_game.common import player_for_user, step_url


@require_http_methods(["GET", "POST"])
@login_required
def post_game_promotions(request, game_id: int, warband_id: int):
    """Not built yet (issue 12): straight on to Review."""
    player, _membership, _can_write = player_for_user(request.user, game_id, warband_id)
    return redirect(step_url("post_game_review", player))
