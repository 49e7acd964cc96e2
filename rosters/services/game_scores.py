"""Correcting a game's results and Victory Points at any time, with a reason told in the history.

The standings rank by Victory Points, then wins (RULING W-2, `combat.rules.rank_standings`), so a number typed wrong
at the table must stay correctable after the game's post-games started or finished; unlike "Correct the game"
(`games.game_update`), which also moves Out of Action marks and so locks once a post-game starts, this changes
only the numbers the standings read: a post-game never reads a result or a Victory Point (its Exploration's
winner reads the result the post-game was started with, and keeps it). Who may correct which side is the game
policy's (`campaigns.access.can_set_game_side`), checked by the view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction

from campaigns.models import VICTORY_POINTS_MAX, Game, GamePlayer
from combat.rules.words import possessive
from rosters.services.common import change_context
from rosters.services.errors import GameLocked, RosterRefused

# The reason goes into the history context, not a column: as long as the tracker's note for the history.
REASON_MAX_LENGTH = 300
# The history tells a correction of this action with its reason, always (rosters/history/campaign_events.py).
SCORE_ACTION = "game.score"


@dataclass(frozen=True)
class SideScore:
    """One warband's result (win, loss or draw) and Victory Points in a game."""

    result: str
    victory_points: int


def _check_side(player: GamePlayer, score: SideScore) -> None:
    name = possessive(player.warband.name)
    if score.result not in GamePlayer.Result.values:
        raise RosterRefused({"result": f"Enter {name} result: win, loss or draw."})
    points = score.victory_points
    if type(points) is not int or not 0 <= points <= VICTORY_POINTS_MAX:
        raise RosterRefused(
            {
                "victory_points": f"{name} Victory Points must be a whole number from 0 to {VICTORY_POINTS_MAX}."
            }
        )


def _check_together(results: list[str]) -> None:
    """The results of every side after the correction, as recording a game checks them."""
    if all(result == GamePlayer.Result.WIN for result in results):
        raise RosterRefused("Not every warband can win the same game: correct the other side too.")
    if len(results) == 2 and results.count(GamePlayer.Result.DRAW) == 1:
        raise RosterRefused("A draw is a draw for both warbands: correct the other side too.")


def _told(game: Game, changed: list[tuple[GamePlayer, SideScore]]) -> str:
    parts = [
        f"{player.warband.name} {GamePlayer.Result(score.result).label.lower()}, {score.victory_points} VP"
        for player, score in changed
    ]
    return f"Corrected Game {game.number}'s score: {'; '.join(parts)}"


@transaction.atomic
def game_score_correct(*, game: Game, by, scores: Mapping[int, SideScore], reason: str) -> Game:
    """Correct the results and Victory Points of some sides of a recorded game (`scores`: warband id -> its
    `SideScore`), with the reason the history tells beside each change. Refused, changing nothing: no reason, a
    game still being played (its end records them), a warband not in the game, a result or VP out of range,
    results that no longer agree. Sides whose numbers do not change are left alone."""
    reason = (reason or "").strip()
    if not reason:
        raise RosterRefused({"reason": "Say why the score changes: the history tells it to everyone."})
    if len(reason) > REASON_MAX_LENGTH:
        raise RosterRefused({"reason": f"Keep the reason to {REASON_MAX_LENGTH} characters."})
    game = Game.objects.select_for_update(of=("self",)).get(pk=game.pk)
    if game.status == Game.Status.IN_PROGRESS:
        raise GameLocked(f"Game {game.number} is still being played: its end records the score.")
    players = {
        player.warband_id: player
        for player in GamePlayer.objects.select_for_update(of=("self",))
        .filter(game=game)
        .select_related("warband")
        .order_by("id")
    }
    unknown = set(scores) - set(players)
    if unknown or not scores:
        raise RosterRefused("Correct the score of a warband that played this game.")
    for warband_id, score in scores.items():
        _check_side(players[warband_id], score)
    _check_together([scores[w].result if w in scores else p.result for w, p in players.items()])
    changed = [
        (players[w], score)
        for w, score in scores.items()
        if (players[w].result, players[w].victory_points) != (score.result, score.victory_points)
    ]
    if not changed:
        return game
    with change_context(action=SCORE_ACTION, reason=reason, by=by, game=game, score=_told(game, changed)):
        for player, score in changed:
            player.result, player.victory_points = score.result, score.victory_points
            player.full_clean()
            player.save(update_fields=["result", "victory_points"])
    return game
