"""Fix one fighter after Apply: "Reopen <fighter>" takes the Apply back and applies it again with that
fighter's changes left out (its roster row as before the post-game, `PostGameFighter.reopened`), the rest of the
post-game standing; while reopened, its Out of Action mark can come off (its rolls stop counting, undone, and
count again when it is put back: never a new roll for a stored one) and its typed dice can be corrected;
"Settle <fighter>" applies it again with the fighter in. Each in one transaction, told as its net change."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from campaigns.history_context import add_context
from campaigns.models import GamePlayer, OutOfAction
from combat.models import DiceRoll, PostGame, PostGameFighter, PostGameRoll
from combat.rules.words import possessive
from combat.selectors.post_game.state import post_game_revert_refusal, post_game_state
from combat.services.post_game.apply import ransom_context, write_apply
from combat.services.post_game.attempt import PostGameError, fighter_name, live_attempt, lock, step_context
from combat.services.post_game.revert import take_back

OFF_THE_LIST = "taken off the Out of Action list"


def _applied(player: GamePlayer) -> PostGame:
    live = live_attempt(player)
    if live is None or not live.is_applied:
        raise PostGameError(
            f"{possessive(player.warband.name)} post-game of Game {player.game.number} is not applied: change it in the wizard."
        )
    if post_game_revert_refusal(player, live):
        raise PostGameError(
            f"{player.warband.name} has played again since Game {player.game.number}: its post-game can no "
            "longer be changed."
        )
    return live


def _apply_again(player: GamePlayer, live: PostGame, *, by) -> None:
    """The Apply taken back and written again from the stored rolls and answers, in this transaction."""
    take_back(live, by=by, campaign=player.game.campaign)
    state = post_game_state(player=player, for_update=True)
    if not state.ready:
        raise PostGameError("Not ready to apply again: " + " ".join(state.blockers or [state.problem or ""]))
    add_context(**ransom_context(state))
    write_apply(live, state, by=by)


def _answer(live: PostGame, fighter_id: int) -> PostGameFighter:
    answer, _ = PostGameFighter.objects.select_for_update().get_or_create(
        post_game=live, fighter_id=fighter_id
    )
    return answer


def _set_reopened(player: GamePlayer, fighter_id: int, *, reopened: bool, by) -> PostGame:
    player = lock(player)
    live = _applied(player)
    name = fighter_name(player, fighter_id)
    if not PostGameRoll.objects.filter(post_game=live, fighter_id=fighter_id).exists() and reopened:
        raise PostGameError(f"{name} went through no Trauma Step in this post-game: nothing to reopen.")
    answer = _answer(live, fighter_id)
    if answer.reopened == reopened:
        state = "reopened" if reopened else "settled"
        raise PostGameError(f"{name} is already {state}.")
    action = "post_game.reopen" if reopened else "post_game.settle"
    reason = f"{possessive(name)} Trauma result {'reopened' if reopened else 'settled again'}"
    with step_context(
        action=action, player=player, by=by, step="fix", reason=reason, fighter=fighter_id, net=True
    ):
        answer.reopened = reopened
        answer.save(update_fields=["reopened"])
        _apply_again(player, live, by=by)
    return live


@transaction.atomic
def post_game_reopen_fighter(*, player: GamePlayer, fighter_id: int, by) -> PostGame:
    """Reopen one fighter's Trauma result after Apply, until the warband's next game; the rest stands."""
    return _set_reopened(player, fighter_id, reopened=True, by=by)


@transaction.atomic
def post_game_settle_fighter(*, player: GamePlayer, fighter_id: int, by) -> PostGame:
    """Apply a reopened fighter's result again (its Out of Action mark, dice and answers as they are now)."""
    return _set_reopened(player, fighter_id, reopened=False, by=by)


@transaction.atomic
def post_game_reopened_out_of_action(*, player: GamePlayer, fighter_id: int, out: bool, by) -> PostGame:
    """While a fighter is reopened: take its Out of Action mark off (its rolls stop counting, undone) or put it
    back (the same rolls count again). Written to the roster by Settle."""
    player = lock(player)
    live = _applied(player)
    name = fighter_name(player, fighter_id)
    answer = PostGameFighter.objects.filter(post_game=live, fighter_id=fighter_id, reopened=True).first()
    if answer is None:
        raise PostGameError(f"Reopen {name} first: its Out of Action mark changes only while it is reopened.")
    marked = OutOfAction.objects.filter(player=player, fighter_id=fighter_id)
    dice = DiceRoll.objects.select_for_update().filter(post_game_roll__post_game=live, fighter_id=fighter_id)
    reason = (
        f"{name} {'put back on' if out else 'taken off'} the Out of Action list of Game {player.game.number}"
    )
    with step_context(
        action="post_game.out_of_action", player=player, by=by, step="fix", reason=reason, fighter=fighter_id
    ):
        if out and not marked.exists():
            OutOfAction.objects.create(player=player, fighter_id=fighter_id)
            dice.filter(status=DiceRoll.Status.UNDONE, status_reason=OFF_THE_LIST).update(
                status=DiceRoll.Status.COUNTED, status_by=None, status_at=None, status_reason=""
            )
        elif not out and marked.exists():
            marked.delete()
            dice.filter(status=DiceRoll.Status.COUNTED).update(
                status=DiceRoll.Status.UNDONE,
                status_by=by,
                status_at=timezone.now(),
                status_reason=OFF_THE_LIST,
            )
    return live
