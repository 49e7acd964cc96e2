"""The names a page of sentences needs (users, games, fighters, warbands, and what sources add), in one query."""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

from campaigns.people import display_name
from campaigns.terms import Terms
from rosters.history import registry
from rosters.history.entries import GameRef
from rosters.history.registry import EventRow, Ids, LookupPart

# The kinds of name every page may need; a source adds more (`Source.lookup_parts`, e.g. the rolls).
CORE_IDS = ("users", "games", "fighters", "warbands", "players")


def json_value(value):
    """A jsonb column from a raw query: Django's psycopg setup hands jsonb over as text, for JSONField to parse."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def as_int(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def as_ints(value) -> list[int]:
    if isinstance(value, list | tuple):
        return [i for v in value if (i := as_int(v)) is not None]
    single = as_int(value)
    return [single] if single is not None else []


def id_list(values: Iterable) -> list[int]:
    """Sorted distinct ids from anything that may hold them (a query parameter)."""
    return sorted({int(v) for v in values if as_int(v) is not None})


def new_ids() -> Ids:
    return {kind: set() for kind in CORE_IDS}


@dataclass(frozen=True)
class Person:
    """The two names a sentence may use for a user (no need for the whole row)."""

    first_name: str
    username: str

    def get_username(self) -> str:
        return self.username


@dataclass(frozen=True)
class Roll:
    """A roll of the dice log, as a sentence names it (a source that keeps the dice log fills `Lookups.rolls`)."""

    fighter_id: int | None
    purpose: str
    source: str  # "server" or "entered"
    rolled_by: Person | None
    faces: tuple[int, ...] = ()
    status: str = "counted"  # or voided, corrected, undone (the dice log's DiceRoll.status)
    later: str = ""  # when it no longer counts, in words: "later voided by Olga (wrong fighter)"


@dataclass
class Lookups:
    terms: Terms
    users: dict[int, Any]
    games: dict[int, dict]
    fighters: dict[int, dict]
    warbands: dict[int, dict]
    players: dict[int, dict]
    rolls: dict[int, Roll] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)  # source name -> what its `load` read for the page

    def user(self, user_id) -> str | None:
        user_id = as_int(user_id)
        if user_id is None:
            return None
        return display_name(self.users.get(user_id))

    def fighter(self, fighter_id) -> str:
        row = self.fighters.get(as_int(fighter_id) or -1)
        return row["name"] if row else "a fighter no longer on record"

    def warband(self, warband_id) -> str:
        row = self.warbands.get(as_int(warband_id) or -1)
        return row["name"] if row else f"a {self.terms.warband} no longer on record"

    def game(self, game_id) -> GameRef | None:
        game_id = as_int(game_id)
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


def _latest_sql(model_label: str, source_name: str, ids: str) -> str:
    """Rows by id from `ids` (a query of one `id` column); a deleted row from its last event."""
    table = apps.get_model(model_label)._meta.db_table
    events = registry.by_name(source_name).table
    return f"""
        SELECT ids.id, COALESCE(
            (SELECT to_jsonb(t) FROM {table} t WHERE t.id = ids.id),
            (SELECT to_jsonb(e) FROM {events} e WHERE e.pgh_obj_id = ids.id
             ORDER BY e.pgh_created_at DESC, e.pgh_id DESC LIMIT 1)) AS data
        FROM ({ids}) ids"""


def rows_by_id(model_label: str, source_name: str, ids: Iterable[int]) -> dict[int, dict]:
    """Rows of one model by id, a deleted row from its last event."""
    ids = id_list(ids)
    if not ids:
        return {}
    with connection.cursor() as db:
        db.execute(_latest_sql(model_label, source_name, "SELECT unnest(%s::bigint[]) AS id"), [ids])
        return {row[0]: json_value(row[1]) for row in db.fetchall() if row[1] is not None}


def _collect_context(row: EventRow, ids: Ids) -> None:
    context = row.context or {}
    ids["users"].update(as_ints(context.get("user")))
    ids["games"].update(as_ints(context.get("game")))


def _lookup_sql(parts: list[LookupPart]) -> str:
    """The one query: game players, fighters, warbands and games (deleted ones from their last event), users,
    and each source's own kinds of name."""
    user_table = get_user_model()._meta.db_table
    more_fighters = "".join(f" UNION {part.fighters}" for part in parts if part.fighters)
    fighters = _latest_sql(
        "rosters.Fighter", "fighter", f"SELECT unnest(%(f)s::bigint[]) AS id{more_fighters}"
    )
    warbands = _latest_sql(
        "rosters.Warband",
        "warband",
        "SELECT unnest(%(w)s::bigint[]) AS id "
        "UNION SELECT (data->>'warband_id')::bigint FROM fi "
        "UNION SELECT (data->>'warband_id')::bigint FROM pl",
    )
    games = _latest_sql(
        "campaigns.Game",
        "game",
        "SELECT unnest(%(g)s::bigint[]) AS id UNION SELECT (data->>'game_id')::bigint FROM pl",
    )
    players = _latest_sql("campaigns.GamePlayer", "player", "SELECT unnest(%(p)s::bigint[]) AS id")
    own = "".join(f"\n        UNION ALL {part.sql}" for part in parts)
    return f"""
        WITH pl AS ({players}), fi AS ({fighters}), wb AS ({warbands}), gm AS ({games})
        SELECT 'player', id, data FROM pl
        UNION ALL SELECT 'fighter', id, data FROM fi
        UNION ALL SELECT 'warband', id, data FROM wb
        UNION ALL SELECT 'game', id, data FROM gm
        UNION ALL SELECT 'user', u.id, jsonb_build_object('first_name', u.first_name, 'username', u.username)
            FROM {user_table} u WHERE u.id = ANY(%(u)s){own}
    """


def _run_lookups(parts: list[LookupPart], ids: Ids) -> dict[str, dict[int, Any]]:
    params = {
        "p": id_list(ids["players"]),
        "f": id_list(ids["fighters"]),
        "w": id_list(ids["warbands"]),
        "g": id_list(ids["games"]),
        "u": id_list(ids["users"]),
    }
    for part in parts:
        params.update(part.params(ids))
    found: dict[str, dict[int, Any]] = {k: {} for k in ("player", "fighter", "warband", "game", "user")}
    found.update({part.kind: {} for part in parts})
    with connection.cursor() as db:
        db.execute(_lookup_sql(parts), params)
        for kind, pk, data in db.fetchall():
            data = json_value(data)
            if pk is not None and data is not None:
                found[kind][pk] = data
    return found


def load_lookups(rows: list[EventRow], terms: Terms) -> Lookups:
    """Every name the page's sentences need, in one query whatever the page holds (the feed's query budget), plus
    the one query of each source that needs more (`Source.load`), only when the page holds what it reads."""
    ids = new_ids()
    for row in rows:
        _collect_context(row, ids)
        registry.by_rank(row.src).collect(row, ids)
    state = {source.name: source.load(rows, ids) for source in registry.sources()}
    if not rows:
        return Lookups(terms=terms, users={}, games={}, fighters={}, warbands={}, players={}, state=state)
    parts = [part for source in registry.sources() for part in source.lookup_parts()]
    found = _run_lookups(parts, ids)
    look = Lookups(
        terms=terms,
        users={pk: Person(d["first_name"], d["username"]) for pk, d in found["user"].items()},
        games=found["game"],
        fighters=found["fighter"],
        warbands=found["warband"],
        players=found["player"],
        state=state,
    )
    for part in parts:
        part.read(found[part.kind], look)
    return look
