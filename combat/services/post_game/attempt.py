"""What every post-game write shares: the locks, the history context, the live attempt and its refusals.

Every write locks the game, then the warband's entry in it (the order `rosters.services` locks them in), so two
tabs, a double click or two players at once are served one after the other: a roll already made is given back
instead of rolled again, and a second Apply is refused. The unique constraints of combat/models/postgame.py hold
the same line in the database.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max

from campaigns.history_context import history_context
from campaigns.models import Game, GamePlayer
from combat.models import PostGame
from combat.rules.words import possessive
from combat.selectors.post_game import rows
from combat.selectors.post_game.state import PostGameState, post_game_state
from combat.selectors.post_game.steps import campaign_step_keys
from rosters.models import Fighter
from rosters.services.games import game_post_game_mark


class PostGameError(ValueError):
    """A post-game write refused, with a message a player can read; nothing was written."""


def step_context(
    *, action: str, player: GamePlayer, by, step: str, reason: str, **extra: Any
) -> AbstractContextManager:
    """The django-pghistory context of one post-game write (`action`, `reason`, `game`, `warband`, `step`...)."""
    return history_context(
        by=by,
        action=action,
        reason=reason,
        game=player.game_id,
        warband=player.warband_id,
        campaign=player.game.campaign_id,
        step=step,
        **extra,
    )


def lock(player: GamePlayer, *, with_others: bool = False) -> GamePlayer:
    """The game, then the warband's entry in it, locked for the rest of the transaction. `with_others`: the other
    warbands' post-game states of the game read with the entry (`others_post_game`), for the game's status when
    this write marks its own (`mark(..., others=...)`); read once the game is locked, and only a write holding
    the game's lock moves them, so they stay true until this transaction ends."""
    # Statements written once per process (`rows`): every write of the wizard takes these locks first.
    if not rows.lock_game(player.game_id):
        raise PostGameError("That game no longer exists.")
    locked = rows.locked_player_row(player.pk, with_others=with_others)
    if locked is None:
        raise GamePlayer.DoesNotExist("GamePlayer matching query does not exist.")
    return locked


def refuse_while_played(player: GamePlayer) -> None:
    game = player.game
    if game.status == Game.Status.IN_PROGRESS:
        raise PostGameError(
            f"Game {game.number} is still being played: its post-game opens when it is recorded."
        )


def live_attempt(player: GamePlayer) -> PostGame | None:
    """The attempt being filled in or applied (a reverted one is history)."""
    return rows.live_attempt_row(player)


def mark(player: GamePlayer, state: str, *, by, action: str, step: str, reason: str, **extra: Any) -> None:
    """The warband's post-game status on the game page, and the game's own status with it. `extra` may say
    `locked=True`: `player` comes from `lock` in this transaction (its game and itself locked, not read again)."""
    try:
        game_post_game_mark(
            player=player, state=state, by=by, reason=reason, action=action, step=step, **extra
        )
    except ValidationError as error:
        raise PostGameError(" ".join(error.messages)) from error


def open_attempt(player: GamePlayer, *, by, action: str, step: str, reason: str, live=...) -> PostGame:
    """The attempt being filled in, started on the first write (the game page then shows "In progress").
    `live` is the live attempt when the caller has read it already."""
    refuse_while_played(player)
    live = live_attempt(player) if live is ... else live
    if live is not None and live.is_applied:
        raise PostGameError(
            f"{possessive(player.warband.name)} post-game of Game {player.game.number} is already applied: "
            "revert it first to change it."
        )
    if live is not None:
        return live
    attempt = (PostGame.objects.filter(player=player).aggregate(top=Max("attempt"))["top"] or 0) + 1
    # The attempt keeps the steps it opens with: a house rule switched later applies to post-games not started.
    steps = list(campaign_step_keys(player.game.campaign))
    live = PostGame.objects.create(player=player, attempt=attempt, started_by=by, steps=steps)
    mark(player, GamePlayer.PostGame.IN_PROGRESS, by=by, action=action, step=step, reason=reason)
    return live


def open_with_state(
    player: GamePlayer, *, by, action: str, step: str, reason: str, state: PostGameState | None = None
) -> tuple[PostGame, PostGameState]:
    """The attempt being filled in and the post-game's state, read once under the locks of this transaction (or
    `state`, read so already): the attempt is one of its rows, no second read. When this write starts the
    attempt, the state is read again with it, so nothing is decided on a read that misses it."""
    state = state if state is not None else post_game_state(player=player)
    live = open_attempt(player, by=by, action=action, step=step, reason=reason, live=state.post_game)
    if state.post_game is None:
        state = post_game_state(player=player)
    return live, state


def fighter_name(player: GamePlayer, fighter_id: int) -> str:
    name = (
        Fighter.objects.filter(pk=fighter_id, warband_id=player.warband_id)
        .values_list("name", flat=True)
        .first()
    )
    return name or "That fighter"
