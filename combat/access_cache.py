"""Who may read a game, remembered in the shared cache for requests that come every few seconds.

The tracker's poll asks every 2 seconds from every phone at the table whether the board changed. Answering "no"
must cost no database query and as few cache round trips as can be: one. So the poll's first full answer
remembers that this session reads this game, and later polls read in one `get_many` the session itself (as
Django's `cached_db` sessions keep it), the board's version, this entry and the game's access token:

- the entry is keyed on the session and the game, and holds the user and the session's auth hash it was made
  for: a session logged out (gone from the cache) or logged in again as someone else does not match it;
- it is stamped with the game's access token, which `forget_readers` replaces for every game of the campaign
  once any write to it but a board action has committed (a member taken out, a role changed, a game deleted: the
  cache's one owner, config/page_versions.py, decides), so every reader remembered before has to pass the full
  check again;
- it lasts READER_SECONDS at most, which bounds what Django tells no one about (a password changed in another
  session, a user deactivated in the admin). A stale entry could only ever confirm "unchanged since the version
  you were shown".

The token is read *before* the database says the user is a member (`reader_token`, then the check, then
`remember_reader`): a removal committed between the two replaces the token, so the entry is born stale.

It lives in combat with the tracker's poll, its only reader, which may not import config: so the keys are named
here, and config/page_versions.py, which hears of every write, replaces the tokens.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.cached_db import KEY_PREFIX as SESSION_KEY_PREFIX
from django.core.cache import cache

READER_SECONDS = 5 * 60


def token_key(game_id: int) -> str:
    return f"game-access:{game_id}"


def reader_key(session_key: str | None, game_id: int) -> str | None:
    return f"game-reader:{game_id}:{session_key}" if session_key else None


def session_cache_key(session_key: str) -> str:
    """Where Django's `cached_db` sessions keep this session in the default cache (SESSION_CACHE_ALIAS)."""
    return SESSION_KEY_PREFIX + session_key


def reader_token(*, game_id: int) -> str:
    """The game's access token as it is before the access check (made when it has none)."""
    cache.add(token_key(game_id), secrets.token_hex(8))
    return cache.get(token_key(game_id))


def remember_reader(*, session, game, token: str) -> None:
    """After the full check passed: this session reads `game` (under the token read before the check)."""
    key = reader_key(session.session_key, game.pk)
    user_id, auth_hash = session.get(SESSION_KEY), session.get(HASH_SESSION_KEY)
    if key is not None and user_id and auth_hash:
        cache.set(key, (user_id, auth_hash, token), timeout=READER_SECONDS)


def is_remembered_reader(*, session_data, entry, token) -> bool:
    """Whether what one `get_many` found still holds: the session is there, for the user and auth hash the entry
    was made for, and the game's token has not been replaced since."""
    if session_data is None or entry is None or token is None:
        return False
    user_id, auth_hash, remembered_token = entry
    return (
        remembered_token == token
        and session_data.get(SESSION_KEY) == user_id
        and session_data.get(HASH_SESSION_KEY) == auth_hash
    )


def forget_readers(*, game_ids) -> None:
    """Every reader remembered of these games passes the full check again at its next poll. Called by
    config/page_versions.py once a write has committed (before, a reader could pass the check on the old rows under
    the new token)."""
    tokens = {token_key(game_id): secrets.token_hex(8) for game_id in game_ids}
    if tokens:
        cache.set_many(tokens)
