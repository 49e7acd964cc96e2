"""The moment an as-of view reads: right after a warband's post-game of a game, or right after it was recorded."""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection

from rosters.history import registry

# A post-game applied or undone; a game recorded: at once (game.record), or started with the tracker and ended
# (game.finish, tracker.end_game), or its record corrected before any post-game started (game.update).
RECORD_ACTIONS = ("game.record", "game.finish", "game.update", "tracker.end_game")
# A correction after Apply takes the Apply back and applies it again, or leaves it open.
FIX_ACTIONS = ("post_game.correct", "post_game.void")
MOMENT_ACTIONS = ("post_game.apply", "post_game.revert", *FIX_ACTIONS, *RECORD_ACTIONS)


@dataclass(frozen=True)
class AsOfMoment:
    """The moment an as-of view reads: right after the post-game, or right after the game was recorded."""

    at: dt.datetime | None
    applied: bool  # the warband's post-game of this game is applied (and not undone)
    reverted: bool  # a post-game was applied, then undone
    played: bool  # the warband took part in the game
    in_progress: bool = False  # the game is still being played (on the tracker)

    @property
    def explanation(self) -> str:
        if self.at is None:
            return "There is no history of this game yet."
        if self.in_progress:
            return (
                "The game is still being played: this is the roster as it went into it. The tracker's actions so "
                "far are in the story below."
            )
        if self.applied:
            return "As it stood right after its post-game was applied."
        if self.reverted:
            return "Its post-game was undone, so this is the roster right after the game was recorded."
        if not self.played:
            return "It did not play this game: this is the roster when the game was recorded."
        return "Its post-game is not applied yet, so this is the roster right after the game was recorded."


def _times_by_action(*, warband_id: int, game_id: int) -> dict[str, dt.datetime]:
    """When the events of each moment action on the game (a post-game: of this warband) were written."""
    union = " UNION ALL ".join(
        f"SELECT pgh_context_id, pgh_created_at FROM {source.table} WHERE pgh_context_id IN (SELECT id FROM ctx)"
        for source in registry.table_sources()
    )
    sql = f"""
        WITH ctx AS (
            SELECT id, metadata->>'action' AS action FROM pghistory_context
            WHERE metadata->>'game' = %(g)s AND metadata->>'action' = ANY(%(actions)s)
              AND (metadata->>'action' NOT LIKE 'post%%' OR metadata->>'warband' = %(w)s)
        )
        SELECT ctx.action, max(ev.pgh_created_at) FROM ctx JOIN ({union}) ev ON ev.pgh_context_id = ctx.id
        GROUP BY ctx.action
    """
    with connection.cursor() as db:
        db.execute(sql, {"g": str(game_id), "w": str(warband_id), "actions": list(MOMENT_ACTIONS)})
        return dict(db.fetchall())


def _player_rows(*, warband_id: int, game_id: int) -> tuple[list[tuple], dt.datetime | None]:
    """The warband's game player events in the game, and when the game was first recorded."""
    with connection.cursor() as db:
        db.execute(
            f"SELECT pgh_label, post_game, pgh_created_at FROM {registry.by_name('player').table} "
            "WHERE game_id = %s AND warband_id = %s ORDER BY pgh_created_at, pgh_id",
            [game_id, warband_id],
        )
        player_rows = db.fetchall()
        db.execute(
            f"SELECT min(pgh_created_at) FROM {registry.by_name('game').table} "
            "WHERE pgh_obj_id = %s AND pgh_label = 'insert'",
            [game_id],
        )
        return player_rows, db.fetchone()[0]


def _with_fallbacks(by_action: dict, player_rows: list[tuple]) -> tuple:
    """(recorded, applied, reverted) times; without a context (older data) from the game player's own events:
    inserted = recorded, post_game -> done = applied, done -> another = reverted."""
    applied_at = by_action.get("post_game.apply")
    reverted_at = by_action.get("post_game.revert")
    recorded_at = max([t for action in RECORD_ACTIONS if (t := by_action.get(action))], default=None)
    previous = None
    for label, post_game, at in player_rows:
        if label == "insert" and recorded_at is None:
            recorded_at = at
        if label != "delete":
            if post_game == "done" and previous != "done" and "post_game.apply" not in by_action:
                applied_at = at
            if previous == "done" and post_game != "done" and "post_game.revert" not in by_action:
                reverted_at = at
            previous = post_game
    fixed_at = max([t for action in FIX_ACTIONS if (t := by_action.get(action))], default=None)
    if fixed_at is not None and applied_at is not None and fixed_at > applied_at:
        # Applied again with the new faces when the post-game is done now; else open again (a step reopened).
        if previous == "done":
            applied_at = fixed_at
        else:
            reverted_at = fixed_at
    return recorded_at, applied_at, reverted_at


def as_of_moment(*, warband, game) -> AsOfMoment:
    """When the warband's post-game of the game was applied, read from the history context.

    The post-game service writes under `pghistory.context(action="post_game.apply", game=..., warband=...)`;
    the time of the events it wrote is the moment. Without such a context (older data) the moment the game
    player's `post_game` became "done" stands in for it; the same goes for reverts and for recording the game.
    """
    by_action = _times_by_action(warband_id=warband.pk, game_id=game.pk)
    player_rows, game_recorded = _player_rows(warband_id=warband.pk, game_id=game.pk)
    recorded_at, applied_at, reverted_at = _with_fallbacks(by_action, player_rows)
    played = bool(player_rows) and player_rows[-1][0] != "delete"
    applied = applied_at is not None and (reverted_at is None or reverted_at < applied_at)
    if applied:
        return AsOfMoment(at=applied_at, applied=True, reverted=False, played=played)
    return AsOfMoment(
        at=recorded_at or game_recorded,
        applied=False,
        reverted=reverted_at is not None,
        played=played,
        in_progress=game.status == "in_progress",
    )
