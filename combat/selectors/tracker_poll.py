"""The tracker's poll answered from the shared cache (issue 15): "nothing changed" costs no database query.

Every phone at the table asks `tracker/board/?version=N` every 2 seconds. Two things decide a 204: the board's
version is still N, and this session may read the game. Both are in the cache once warm:

- the board's version is written to the cache by the services that move it on, under the board's row lock and in
  the same transaction (`remember_board_version`): writers are serialised by that lock, so the cache never goes
  back to an older version; a reader that misses reads the database and only *adds* what it read, so it cannot
  overwrite a newer version a writer has just set. A transaction that rolls back after setting it leaves a version
  the database does not have: polls then get the whole board (never a wrong 204) until the next action sets it;
- the reader is remembered by `campaigns.access_cache`, which tells how a lost membership forgets it.

Only a cache every process shares is trusted (`settings.CACHE_IS_SHARED`, Redis): in a worker's own memory the
version another worker moved on would never arrive. Without it the poll reads the version from the database.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.cache import cache

from campaigns import access_cache
from combat.selectors.tracker import tracker_version


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
