"""The pages of Fallout: Factions' own post-game steps: Harsh Lessons (the crew's XP, RULING D-11) and the
Injuries carried on the roster. Neither asks anything: each shows what the rules decide from the Out of Action
list and the roster, and the Review applies it."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from combat.views.post_game.common import applied_redirect, page_context, player_for_user


def _page(request, game_id: int, warband_id: int, *, step: str, template: str):
    player, membership, can_write = player_for_user(request.user, game_id, warband_id)
    context = page_context(request, player, membership, can_write, step=step)
    if context["state"].applied:
        return applied_redirect(request, player)
    return render(request, template, context)


@require_GET
@login_required
def post_game_harsh_lessons(request, game_id: int, warband_id: int):
    """The crew's Harsh Lessons XP in this game (000 "Experience: Harsh Lessons", RULING D-11)."""
    return _page(
        request, game_id, warband_id, step="harsh-lessons", template="combat/post_game_harsh_lessons.html"
    )


@require_GET
@login_required
def post_game_injuries(request, game_id: int, warband_id: int):
    """The Injuries each fighter carries on the roster (000 "Injury")."""
    return _page(request, game_id, warband_id, step="injuries", template="combat/post_game_injuries.html")
