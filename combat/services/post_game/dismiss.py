"""The post-game's Dismiss the wounded step: which fighters with 2 or more Battle Scars are dismissed
(CAMPAIGN_PHASE.md, "After the Trauma Step, a player may also dismiss any fighter with 2 or more Battle Scars").

Only the answers are written here. The dismissal itself (status Dismissed, its Battlekit to the Arsenal, RULING
T-4) is a `FighterChange` of `combat/selectors/post_game/dismiss.py`, so the Apply's fighters and Battlekit parts
write it with their before-images and the Revert's parts put it back: `apply_part` and `revert_part` have nothing
of their own to write.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction

from campaigns.models import GamePlayer
from combat import rules
from combat.models import PostGame, PostGameFighter
from combat.services.post_game.attempt import PostGameError, fighter_name, lock, open_with_state, step_context

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState


@transaction.atomic
def post_game_dismiss(*, player: GamePlayer, by, fighter_ids: Iterable[int]) -> PostGame:
    """The fighters dismissed become exactly `fighter_ids` (none is fine: dismissing is optional), and the step is
    passed. Only a fighter with 2 or more Battle Scars after this post-game's Trauma Step may be dismissed, and
    not one holding Promotion Dice (a dismissed fighter gets none)."""
    player = lock(player)
    wanted = set(fighter_ids)
    reason = f"Post-game of Game {player.game.number}: the wounded dismissed for {player.warband.name}"
    with step_context(action="post_game.dismiss", player=player, by=by, step="dismiss", reason=reason):
        live, state = open_with_state(
            player, by=by, action="post_game.dismiss", step="dismiss", reason=reason
        )
        if state.problem:
            raise PostGameError(state.problem)
        candidates = {candidate.id: candidate for candidate in state.dismiss.candidates}
        for fighter_id in sorted(wanted - set(candidates)):
            raise PostGameError(
                f"{fighter_name(player, fighter_id)} does not have {rules.DISMISS_FROM_SCARS} or more Battle Scars "
                "after the Trauma Step: it cannot be dismissed."
            )
        holding = sorted(candidates[pk].name for pk in wanted if candidates[pk].promotion_dice)
        if holding:
            raise PostGameError(
                f"{', '.join(holding)} holds Promotion Dice: a dismissed fighter gets none, so take them back on "
                "the Promotions step first."
            )
        took_part = {line.id: line.took_part for line in state.xp}
        rows = [
            PostGameFighter(
                post_game=live,
                fighter_id=pk,
                dismissed=pk in wanted,
                took_part=took_part.get(pk, True),
            )
            for pk in candidates
        ]
        PostGameFighter.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["post_game", "fighter"], update_fields=["dismissed"]
        )
        live.dismiss_passed = True
        live.save(update_fields=["dismiss_passed"])
    return live


def apply_part(state: PostGameState) -> dict[str, Any]:
    """Nothing of its own: a dismissal is in `state.changes`, written by the Apply's fighters and Battlekit
    parts with their before-images (see the module's docstring)."""
    return {}


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """Nothing of its own: the Revert's fighters and Battlekit parts restore a dismissed fighter."""
