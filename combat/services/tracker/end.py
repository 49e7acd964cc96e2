"""The end of the game on the board: the Incapacitated (or marked) taken Out of Action, Harsh Lessons XP, the
results."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from campaigns.models import VICTORY_POINTS_MAX, Game, GamePlayer, OutOfAction
from combat.models import TrackerFighter, TrackerGame
from combat.rules.words import possessive
from combat.selectors.tracker_poll import remember_board_version
from combat.services.tracker.board import action_context, lock, refuse_while_pending
from combat.services.tracker.errors import TrackerBlocked, TrackerError
from rosters.models import Warband

# Taken Out of Action at the end: the Incapacitated (000; the Fled are not, RULING D-9) and, on a board whose
# fighters have no Endurance, those marked Out of Action (003 "Trauma Step"; combat/rules/board_rules.py).
OUT_OF_ACTION_AT_THE_END = (TrackerFighter.Status.INCAPACITATED, TrackerFighter.Status.OUT_OF_ACTION)


def _check_results(players: list[GamePlayer], results: Mapping[int, str]) -> None:
    """One result, win, loss or draw, for every warband in the game and none for another."""
    valid = set(GamePlayer.Result.values)
    for player in players:
        if results.get(player.pk) not in valid:
            raise TrackerError(f"Enter {possessive(player.warband.name)} result: win, loss or draw.")
    if set(results) - {player.pk for player in players}:
        raise TrackerError("A result was given for a warband that is not in this game.")


def _check_victory_points(players: list[GamePlayer], victory_points: Mapping[int, int]) -> None:
    """Victory Points (RULING W-2 ranks the standings by them) for warbands of this game, each 0 to the model's
    limit; a warband left out scores 0."""
    if set(victory_points) - {player.pk for player in players}:
        raise TrackerError("Victory Points were given for a warband that is not in this game.")
    for player in players:
        points = victory_points.get(player.pk, 0)
        if type(points) is not int or not 0 <= points <= VICTORY_POINTS_MAX:
            raise TrackerError(
                f"{possessive(player.warband.name)} Victory Points must be a whole number from 0 to "
                f"{VICTORY_POINTS_MAX}."
            )


@transaction.atomic
def tracker_end_game(
    *,
    game: Game,
    results: Mapping[int, str],
    by,
    version: int,
    reason: str = "",
    victory_points: Mapping[int, int] | None = None,
) -> TrackerGame:
    """End of game: the Incapacitated fighters and those marked Out of Action are taken Out of Action (the Fled
    are not, RULING D-9), each crew's Harsh Lessons XP goes to its crew XP (RULING D-11), the results are
    recorded, and the game waits for each warband's post-game. One transaction; refused while a step is pending or when the board changed unseen.

    `results`: GamePlayer id -> "win", "loss" or "draw", one for every warband in the game. `victory_points`:
    GamePlayer id -> the Victory Points it scored (0 to `VICTORY_POINTS_MAX`; a warband left out scores 0).
    """
    tracker = lock(game, version, [], strict=True)
    refuse_while_pending(tracker)
    if tracker.shooting:
        raise TrackerBlocked(
            "A shooting engagement is still open: end the shooting first, so its models are removed (RULING A-5)."
        )
    players = list(GamePlayer.objects.filter(game=game).select_related("warband").order_by("id"))
    _check_results(players, results)
    victory_points = victory_points or {}
    _check_victory_points(players, victory_points)
    taken = list(
        TrackerFighter.objects.filter(tracker=tracker, status__in=OUT_OF_ACTION_AT_THE_END).select_related(
            "fighter"
        )
    )
    names = ", ".join(row.fighter.name for row in taken) or "nobody"
    reason = reason.strip() or f"{game} ended in the tracker; Out of Action: {names}"
    with action_context(action="tracker.end_game", game=game, by=by, reason=reason):
        if not Game.objects.filter(pk=game.pk, status=Game.Status.IN_PROGRESS).update(
            status=Game.Status.RECORDED
        ):
            raise TrackerBlocked(f"{game} is no longer in progress: it was recorded already.")
        # RULING D-9: only the Incapacitated (or marked) are Out of Action; a model that Fled is not.
        OutOfAction.objects.bulk_create(
            [OutOfAction(player_id=row.player_id, fighter_id=row.fighter_id) for row in taken],
            ignore_conflicts=True,
        )
        if tracker.harsh_lessons:
            # RULING D-11: 1 XP per crew that earned Harsh Lessons, once per game.
            Warband.objects.filter(pk__in=tracker.harsh_lessons).update(crew_xp=F("crew_xp") + 1)
        for player in players:
            GamePlayer.objects.filter(pk=player.pk).update(
                result=results[player.pk],
                victory_points=victory_points.get(player.pk, 0),
                post_game=GamePlayer.PostGame.PENDING,
            )
        tracker.version += 1
        tracker.ended_at = timezone.now()
        tracker.save(update_fields=["version", "ended_at"])
        remember_board_version(game_id=tracker.game_id, version=tracker.version)
    game.status = Game.Status.RECORDED
    return tracker
