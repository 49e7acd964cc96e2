"""The names a page of sentences needs (users, games, rolls, fighters, warbands), read in one query."""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

from campaigns.terms import Terms
from rosters.history.entries import GameRef
from rosters.history.sources import SOURCE_BY_NAME, SOURCE_BY_RANK

# --------------------------------------------------------------------------------------------------------------
# Lookups: the names the sentences need, one query per kind of name, deleted rows read from their last event
# --------------------------------------------------------------------------------------------------------------


def _rows_by_id(model_label: str, source_name: str, ids: Iterable[int]) -> dict[int, dict]:
    ids = sorted({int(i) for i in ids if i is not None})
    if not ids:
        return {}
    table = apps.get_model(model_label)._meta.db_table
    events = SOURCE_BY_NAME[source_name].table
    sql = f"""
        SELECT ids.id, COALESCE(
            (SELECT to_jsonb(t) FROM {table} t WHERE t.id = ids.id),
            (SELECT to_jsonb(e) FROM {events} e WHERE e.pgh_obj_id = ids.id
             ORDER BY e.pgh_created_at DESC, e.pgh_id DESC LIMIT 1))
        FROM unnest(%s::bigint[]) AS ids(id)
    """
    with connection.cursor() as db:
        db.execute(sql, [ids])
        return {row[0]: _json(row[1]) for row in db.fetchall() if row[1] is not None}


def _json(value):
    """A jsonb column from a raw query: Django's psycopg setup hands jsonb over as text, for JSONField to parse."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def _as_int(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _as_ints(value) -> list[int]:
    if isinstance(value, list | tuple):
        return [i for v in value if (i := _as_int(v)) is not None]
    single = _as_int(value)
    return [single] if single is not None else []


def display_name(user) -> str:
    if user is None:
        return "someone"
    return (user.first_name or user.get_username()).strip() or user.get_username()


@dataclass
class _Lookups:
    terms: Terms
    users: dict[int, Any]
    games: dict[int, dict]
    rolls: dict[int, Any]
    fighters: dict[int, dict]
    warbands: dict[int, dict]
    players: dict[int, dict]
    tracker: dict[int, Any] = field(default_factory=dict)  # pgh_id of a board's event -> its TrackerStep
    # (game id, warband id) -> the applied post-games' (applied_at, summary), oldest first
    post_games: dict[tuple[int, int], list] = field(default_factory=dict)

    def post_game_summary(self, game_id, warband_id, at: dt.datetime) -> dict | None:
        """The summary the post-game Apply written at `at` stored (combat.PostGame.summary): the first applied at
        or after the moment its transaction began."""
        key = (_as_int(game_id), _as_int(warband_id))
        return next(
            (summary for applied_at, summary in self.post_games.get(key, []) if applied_at >= at), None
        )

    def user(self, user_id) -> str | None:
        user_id = _as_int(user_id)
        if user_id is None:
            return None
        return display_name(self.users.get(user_id))

    def fighter(self, fighter_id) -> str:
        row = self.fighters.get(_as_int(fighter_id) or -1)
        return row["name"] if row else "a fighter no longer on record"

    def warband(self, warband_id) -> str:
        row = self.warbands.get(_as_int(warband_id) or -1)
        return row["name"] if row else f"a {self.terms.warband} no longer on record"

    def game(self, game_id) -> GameRef | None:
        game_id = _as_int(game_id)
        if game_id is None:
            return None
        row = self.games.get(game_id)
        if row is None:
            return GameRef(id=game_id, number=None)
        try:
            played_on = dt.date.fromisoformat(row["played_on"]) if row.get("played_on") else None
        except (TypeError, ValueError):
            played_on = None
        return GameRef(
            id=game_id,
            number=row.get("number"),
            played_on=played_on,
            scenario=row.get("scenario", ""),
            status=row.get("status") or "",
        )


@dataclass(frozen=True)
class _Person:
    """The two names a sentence may use for a user (no need for the whole row)."""

    first_name: str
    username: str

    def get_username(self) -> str:
        return self.username


@dataclass(frozen=True)
class _Roll:
    fighter_id: int | None
    purpose: str
    source: str
    rolled_by: _Person | None
    faces: tuple[int, ...] = ()


def _latest_sql(model_label: str, source_name: str, ids: str) -> str:
    """Rows by id from `ids` (a query of one `id` column); a deleted row from its last event."""
    table = apps.get_model(model_label)._meta.db_table
    events = SOURCE_BY_NAME[source_name].table
    return f"""
        SELECT ids.id, COALESCE(
            (SELECT to_jsonb(t) FROM {table} t WHERE t.id = ids.id),
            (SELECT to_jsonb(e) FROM {events} e WHERE e.pgh_obj_id = ids.id
             ORDER BY e.pgh_created_at DESC, e.pgh_id DESC LIMIT 1)) AS data
        FROM ({ids}) ids"""


def _load_lookups(
    rows: list[tuple], terms: Terms, *, extra: Mapping[str, Iterable] | None = None
) -> _Lookups:
    """Every name the page's sentences need, in one query whatever the page holds (the feed's query budget).

    `extra`: more ids to name, by kind ("users", "games", "rolls", "fighters", "warbands"), e.g. the fighters of
    the tracker's actions on the page. A roll's fighter (the attacker of an Attack Test) is named too.
    """
    users, games, rolls, fighters, warbands, players = set(), set(), set(), set(), set(), set()
    applies = set()  # (game, warband) of the post-games applied on the page
    extra = extra or {}
    users.update(extra.get("users", ()))
    games.update(extra.get("games", ()))
    rolls.update(extra.get("rolls", ()))
    fighters.update(extra.get("fighters", ()))
    warbands.update(extra.get("warbands", ()))
    for src, _pgh_id, _at, _label, _obj_id, context, data, prev in rows:
        name = SOURCE_BY_RANK[src].name
        context = context or {}
        users.update(_as_ints(context.get("user")))
        games.update(_as_ints(context.get("game")))
        rolls.update(_as_ints(context.get("roll")))
        if context.get("action") == "post_game.apply":
            applies.add((_as_int(context.get("game")), _as_int(context.get("warband"))))
            if name == "player":
                applies.add((_as_int((data or {}).get("game_id")), _as_int((data or {}).get("warband_id"))))
        for row in (data or {}, prev or {}):
            if name in ("injury", "item", "out_of_action"):
                fighters.add(row.get("fighter_id"))
            if name in ("fighter", "item", "player"):
                warbands.add(row.get("warband_id"))
            if name in ("player", "injury", "tracker"):
                games.add(row.get("game_id"))
            if name == "out_of_action":
                players.add(row.get("player_id"))
            if name == "membership":
                users.add(row.get("user_id"))
            if name == "warband":
                users.add(row.get("owner_id"))
    if not rows:
        return _Lookups(terms=terms, users={}, games={}, rolls={}, fighters={}, warbands={}, players={})
    user_table = get_user_model()._meta.db_table
    # The dice log lives in `combat`, above `rosters` in the layers (ARCHITECTURE.md): read it by its label.
    roll_table = apps.get_model("combat.DiceRoll")._meta.db_table
    post_game_table = apps.get_model("combat.PostGame")._meta.db_table
    player_table = apps.get_model("campaigns.GamePlayer")._meta.db_table
    sql = f"""
        WITH pl AS ({_latest_sql("campaigns.GamePlayer", "player", "SELECT unnest(%(p)s::bigint[]) AS id")}),
        fi AS ({
        _latest_sql(
            "rosters.Fighter",
            "fighter",
            "SELECT unnest(%(f)s::bigint[]) AS id "
            f"UNION SELECT fighter_id FROM {roll_table} WHERE id = ANY(%(r)s) AND fighter_id IS NOT NULL",
        )
    }),
        wb AS ({
        _latest_sql(
            "rosters.Warband",
            "warband",
            "SELECT unnest(%(w)s::bigint[]) AS id "
            "UNION SELECT (data->>'warband_id')::bigint FROM fi "
            "UNION SELECT (data->>'warband_id')::bigint FROM pl",
        )
    }),
        gm AS ({
        _latest_sql(
            "campaigns.Game",
            "game",
            "SELECT unnest(%(g)s::bigint[]) AS id UNION SELECT (data->>'game_id')::bigint FROM pl",
        )
    })
        SELECT 'player', id, data FROM pl
        UNION ALL SELECT 'fighter', id, data FROM fi
        UNION ALL SELECT 'warband', id, data FROM wb
        UNION ALL SELECT 'game', id, data FROM gm
        UNION ALL SELECT 'user', u.id, jsonb_build_object('first_name', u.first_name, 'username', u.username)
            FROM {user_table} u WHERE u.id = ANY(%(u)s)
        UNION ALL SELECT 'roll', r.id, jsonb_build_object(
                'fighter_id', r.fighter_id, 'purpose', r.purpose, 'source', r.source, 'faces', r.faces,
                'first_name', u.first_name, 'username', u.username)
            FROM {roll_table} r LEFT JOIN {user_table} u ON u.id = r.rolled_by_id WHERE r.id = ANY(%(r)s)
        UNION ALL SELECT 'post_game', pg.id, jsonb_build_object(
                'game_id', gp.game_id, 'warband_id', gp.warband_id, 'applied_at', pg.applied_at,
                'summary', pg.summary)
            FROM {post_game_table} pg JOIN {player_table} gp ON gp.id = pg.player_id
            WHERE pg.applied_at IS NOT NULL
              AND (gp.game_id, gp.warband_id) IN (SELECT * FROM unnest(%(ag)s::bigint[], %(aw)s::bigint[]))
    """

    def ids(values) -> list[int]:
        return sorted({int(v) for v in values if _as_int(v) is not None})

    params = {
        "p": ids(players),
        "f": ids(fighters),
        "w": ids(warbands),
        "g": ids(games),
        "u": ids(users),
        "r": ids(rolls),
        "ag": [g for g, w in sorted(applies) if g is not None and w is not None],
        "aw": [w for g, w in sorted(applies) if g is not None and w is not None],
    }
    found: dict[str, dict[int, Any]] = {
        k: {} for k in ("player", "fighter", "warband", "game", "user", "roll", "post_game")
    }
    with connection.cursor() as db:
        db.execute(sql, params)
        for kind, pk, data in db.fetchall():
            data = _json(data)
            if pk is None or data is None:
                continue
            if kind == "user":
                data = _Person(first_name=data["first_name"], username=data["username"])
            elif kind == "roll":
                roller = _Person(data["first_name"], data["username"]) if data.get("username") else None
                data = _Roll(
                    data.get("fighter_id"),
                    data.get("purpose") or "",
                    data.get("source") or "",
                    roller,
                    tuple(data.get("faces") or ()),
                )
            found[kind][pk] = data
    post_games: dict[tuple[int, int], list] = {}
    for row in found["post_game"].values():
        try:
            applied_at = dt.datetime.fromisoformat(row["applied_at"])
        except (TypeError, ValueError, KeyError):
            continue
        key = (row.get("game_id"), row.get("warband_id"))
        post_games.setdefault(key, []).append((applied_at, row.get("summary") or {}))
    for attempts in post_games.values():
        attempts.sort(key=lambda attempt: attempt[0])
    return _Lookups(
        terms=terms,
        users=found["user"],
        games=found["game"],
        rolls=found["roll"],
        fighters=found["fighter"],
        warbands=found["warband"],
        players=found["player"],
        post_games=post_games,
    )
