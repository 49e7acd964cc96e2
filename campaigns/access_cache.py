"""Who may read a game, remembered in the shared cache for requests that come every few seconds (issue 15).

The tracker's poll asks every 2 seconds from every phone at the table whether the board changed. Answering "no"
must not cost the database a query, so the poll's first full answer remembers that this session's user reads
this game, and later polls ask only the cache. What is remembered is only ever "this session read this game":

- keyed on the user, the session's auth hash (which a password change through this session changes) and the game;
- stamped with the campaign's access token, which `campaign_access_changed` replaces once a member is taken out or
  a game deleted has committed, so every reader remembered before that has to pass the full check again;
- for READER_SECONDS at most, which bounds what Django tells no one about (a password changed elsewhere, a user
  deactivated in the admin). A stale entry could only ever confirm "unchanged since the version you were shown".

The token is read *before* the database says the user is a member (`reader_token`, then the check, then
`remember_reader`): a removal committed between the two replaces the token, so the entry is born stale.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.db import transaction

READER_SECONDS = 5 * 60


def _token_key(campaign_id: int) -> str:
    return f"campaign-access:{campaign_id}"


def _campaign_key(game_id: int) -> str:
    # A game never moves to another campaign, so this needs no invalidation.
    return f"game-campaign:{game_id}"


def _reader_key(session, game_id: int) -> str | None:
    user_id, auth_hash = session.get(SESSION_KEY), session.get(HASH_SESSION_KEY)
    if not user_id or not auth_hash:
        return None
    return f"game-reader:{game_id}:{user_id}:{auth_hash}"


def reader_token(*, game_id: int) -> str | None:
    """The campaign's access token as it is before the access check; None the first time a game is asked."""
    campaign_id = cache.get(_campaign_key(game_id))
    if campaign_id is None:
        return None
    key = _token_key(campaign_id)
    cache.add(key, secrets.token_hex(8))
    return cache.get(key)


def remember_reader(*, session, game, token: str | None) -> None:
    """After the full check passed: this session reads `game` (under the token read before the check)."""
    cache.set(_campaign_key(game.pk), game.campaign_id)
    key = _reader_key(session, game.pk)
    if key is not None and token is not None:
        cache.set(key, (game.campaign_id, token), timeout=READER_SECONDS)


def reader_key(*, session, game_id: int) -> str | None:
    """The key under which `is_remembered_reader` finds this session's entry for the game (None: not logged in)."""
    return _reader_key(session, game_id)


def is_remembered_reader(entry) -> bool:
    """Whether an entry read under `reader_key` still holds: its campaign's token has not been replaced."""
    if entry is None:
        return False
    campaign_id, token = entry
    return cache.get(_token_key(campaign_id)) == token


def campaign_access_changed(*, campaign_id: int) -> None:
    """Someone lost access to the campaign (or one of its games is gone): forget its remembered readers once the
    change is committed (before, a reader could pass the check on the old rows under the new token)."""
    transaction.on_commit(lambda: cache.set(_token_key(campaign_id), secrets.token_hex(8)))
