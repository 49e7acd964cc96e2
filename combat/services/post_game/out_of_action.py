"""Step 1 of the post-game: the fighters taken Out of Action, as the game recorded them, corrected."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from campaigns.models import GamePlayer, OutOfAction
from combat.models import PostGame, PostGameRoll
from combat.rules.words import possessive
from combat.services.post_game.attempt import PostGameError, lock, open_attempt, step_context
from rosters.models import Fighter


def _refuse_inactive(player: GamePlayer, fighters: dict[int, Fighter], added: set[int]) -> None:
    """A fighter put on the list must be one of the warband's, on the active roster."""
    for fighter_id in added:
        fighter = fighters.get(fighter_id)
        if fighter is None:
            raise PostGameError(f"Fighter {fighter_id} is not in {player.warband.name}.")
        if not fighter.is_active:
            raise PostGameError(
                f"{fighter.name} is not on the active roster ({fighter.get_status_display()})."
            )


def _refuse_rolled(live: PostGame, fighters: dict[int, Fighter], dropped: set[int]) -> None:
    """A fighter comes off the list only before any roll is made for it in this attempt."""
    rolled = set(
        PostGameRoll.objects.filter(post_game=live, fighter_id__in=dropped).values_list(
            "fighter_id", flat=True
        )
    )
    if rolled:
        names = ", ".join(sorted(fighters[fighter_id].name for fighter_id in rolled))
        raise PostGameError(f"Dice are already rolled for {names}: it stays Out of Action in this post-game.")


@transaction.atomic
def post_game_set_out_of_action(*, player: GamePlayer, fighter_ids: Iterable[int], by) -> PostGame:
    """Step 1: the fighters taken Out of Action become exactly `fighter_ids` (the game record corrected).

    A fighter can come off the list only before any roll is made for it in this attempt.
    """
    player = lock(player)
    reason = f"{possessive(player.warband.name)} Out of Action list for Game {player.game.number} confirmed"
    action, step = "post_game.out_of_action", "out-of-action"
    with step_context(action=action, player=player, by=by, step=step, reason=reason):
        live = open_attempt(player, by=by, action=action, step=step, reason=reason)
        wanted = {int(fighter_id) for fighter_id in fighter_ids}
        marked = set(OutOfAction.objects.filter(player=player).values_list("fighter_id", flat=True))
        fighters = Fighter.objects.filter(pk__in=wanted | marked, warband_id=player.warband_id)
        by_id = {fighter.pk: fighter for fighter in fighters}
        _refuse_inactive(player, by_id, wanted - marked)
        _refuse_rolled(live, by_id, marked - wanted)
        OutOfAction.objects.filter(player=player, fighter_id__in=marked - wanted).delete()
        OutOfAction.objects.bulk_create(
            [OutOfAction(player=player, fighter_id=fighter_id) for fighter_id in sorted(wanted - marked)]
        )
    return live
