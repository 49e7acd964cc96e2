"""The tracker's poll answered from the shared cache: "nothing changed" costs no database query.

Every phone at the table asks `tracker/board/?version=N` every 2 seconds. Two things decide a 204: the board's
version is still N, and this session may read the game. Both are in the cache once warm:

- the board's version is written to the cache by the services that move it on, under the board's row lock and in
  the same transaction (`remember_board_version`): writers are serialised by that lock, so the cache never goes
  back to an older version; a reader that misses reads the database and only *adds* what it read, so it cannot
  overwrite a newer version a writer has just set. A transaction that rolls back after setting it leaves a version
  the database does not have: polls then get the whole board (never a wrong 204) until the next action sets it;
- the reader is remembered by `combat.access_cache`, which tells how a lost membership forgets it.

Only a cache every process shares is trusted (`settings.CACHE_IS_SHARED`, Redis): in a worker's own memory the
version another worker moved on would never arrive. Without it the poll reads the version from the database.

A changed poll carries only what changed, when the page's version and layout allow it
(`board_changes`): the cards of the fighters the actions since that version touched (each action lists them), the
last action, the game log's new and changed entries and the new version, all swapped out of band. The whole board instead when the gap
cannot be worked out card by card: too old, a version moved on by no logged action (the end of the game), an action
on the game's own state (a pending step, Harsh Lessons, a shooting engagement), a fighter come into or gone out of
play or a fighter more or fewer (the page's `layout` differs), or more cards than the board is worth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache

from combat import access_cache
from combat.models import TrackerAction, TrackerFighter
from combat.selectors.tracker import Board, board_layout, board_of, tracker_version
from combat.selectors.tracker_rows import BoardReads, board_with_game

# A changed poll answers card by card when the page is at most this many versions behind and at most this many
# fighters changed; beyond, the whole board is about as cheap and certainly right.
MOST_VERSIONS_BEHIND = 20
MOST_CARDS = 10
# The id an action lists in `touched` for the game's own state (combat/services/tracker/board.py).
GAME_STATE = 0


def _version_key(game_id: int) -> str:
    return f"tracker-version:{game_id}"


def remember_board_version(*, game_id: int, version: int) -> None:
    """Called by the tracker's services right after they save a new version, under the board's row lock."""
    cache.set(_version_key(game_id), version)


def board_version(*, game_id: int) -> int | None:
    """The board's version from the cache, else from the database (then kept, unless a writer was quicker)."""
    if not settings.CACHE_IS_SHARED:
        return tracker_version(game_id=game_id)
    version = cache.get(_version_key(game_id))
    if version is None:
        version = tracker_version(game_id=game_id)
        if version is not None:
            cache.add(_version_key(game_id), version)
    return version


def remember_read_version(*, game_id: int, version: int) -> None:
    """The board's version as just read from the database, kept unless a writer was quicker (as `board_version`)."""
    if settings.CACHE_IS_SHARED:
        cache.add(_version_key(game_id), version)


# Django's session keys: 32 lowercase letters and digits. Anything else in the cookie is no session of ours.
_SESSION_KEY = re.compile(r"[a-z0-9]{32}")
_CACHED_SESSIONS = "django.contrib.sessions.backends.cached_db"


def board_unchanged(*, session_key: str | None, game_id: int, version: str | None) -> bool:
    """True when the cache alone shows that the board is at `version` and that this session reads the game: the
    session as `cached_db` keeps it, the version, the reader and the game's access token in one round trip."""
    if not settings.CACHE_IS_SHARED or settings.SESSION_ENGINE != _CACHED_SESSIONS or not version:
        return False
    if session_key is None or not _SESSION_KEY.fullmatch(session_key):
        return False
    keys = {
        "session": access_cache.session_cache_key(session_key),
        "version": _version_key(game_id),
        "reader": access_cache.reader_key(session_key, game_id),
        "token": access_cache.token_key(game_id),
    }
    found = cache.get_many(list(keys.values()))
    current = found.get(keys["version"])
    if current is None or str(current) != version:
        return False
    return access_cache.is_remembered_reader(
        session_data=found.get(keys["session"]),
        entry=found.get(keys["reader"]),
        token=found.get(keys["token"]),
    )


@dataclass
class BoardChanges:
    """What a changed poll sends: `board`, whose crews hold only the changed fighters, and of its game log the
    entries the page lacks (`added`, oldest first) and those it shows that now read otherwise (`redrawn`: undone
    since, or gaining or losing the Undo of the last action); the log whole when the page's was empty."""

    board: Board
    added: list[TrackerAction] = field(default_factory=list)
    redrawn: list[TrackerAction] = field(default_factory=list)
    whole_log: bool = False


def board_changes(
    *, game, since: str | None, layout: str | None, viewer=None, reads: BoardReads | None = None
) -> BoardChanges | None:
    """What changed since version `since` of a page showing `layout` (`Board.layout`); None when only the whole
    board is right (see the module's docstring). `reads`: the board as the poll read it (`board_with_game`), else
    read here, in one round trip whatever the size of the crews."""
    if not since or not since.isdigit() or not layout:
        return None
    if reads is None:
        reads = board_with_game(game_id=game.pk, viewer=viewer)
    tracker = reads.tracker if reads is not None else None
    if tracker is None or tracker.ended or tracker.pending or tracker.shooting:
        return None
    seen, current = int(since), tracker.version
    if not 0 <= current - seen <= MOST_VERSIONS_BEHIND:
        return None
    touched = _touched_since(reads.log, seen, current)
    if touched is None or GAME_STATE in touched or len(touched) > MOST_CARDS:
        return None
    out_of_play = [row.fighter_id for row in reads.rows if row.status != TrackerFighter.Status.ACTIVE]
    if board_layout(len(reads.rows), out_of_play) != layout:
        return None
    rows = [row for row in reads.rows if row.fighter_id in touched]
    board = board_of(tracker, game, rows, reads.log, viewer=viewer)
    return _log_changes(board, seen, current)


def _log_changes(board: Board, seen: int, current: int) -> BoardChanges:
    """The game log's entries to send: each is drawn from what it is now, and the page had every action up to
    version `seen` (actions are never deleted, so a page at version 0 alone had none)."""
    if seen == 0:
        return BoardChanges(board, whole_log=True)
    had = [action for action in board.log if action.version <= seen]
    added = [action for action in board.log if seen < action.version <= current]
    redrawn = {action for action in had if action.undone_version and seen < action.undone_version <= current}
    # The last action not undone carries the Undo: the one the page showed it on, and the one that has it now.
    then = next(
        (action for action in reversed(had) if not (action.undone_version and action.undone_version <= seen)),
        None,
    )
    now = board.last_action
    if then is not now:
        redrawn.update(action for action in (then, now) if action is not None and action.version <= seen)
    return BoardChanges(board, added, sorted(redrawn, key=lambda action: action.version))


def _touched_since(log: list[TrackerAction], seen: int, current: int) -> set[int] | None:
    """The fighters (roster ids, as the services list them in `touched`) the actions and undos after version
    `seen` changed; None when some version in between was moved on by no logged action or undo (each moves it on
    by exactly one)."""
    moves = [action for action in log if seen < action.version <= current]
    moves += [action for action in log if action.undone_version and seen < action.undone_version <= current]
    if len(moves) != current - seen:
        return None
    return {fighter_id for action in moves for fighter_id in action.touched}
