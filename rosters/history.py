"""The campaign's history, read from django-pghistory's event tables (ARCHITECTURE.md, History).

Every tracked model (`config/history.py`) has a generated `*Event` model whose rows are full snapshots written by
database triggers, each tied to a `pghistory.Context` row holding the `action`, `reason`, `game`, `warband`,
`fighter`, `roll`, `step` and `user` a service or the request set (BRIEF, history context contract). This module
turns those rows into what a player reads:

- `history_page()` — the feed: sentences such as "Brother Marcus suffered Hand Wound (D66 14) — post-game of
  Game 3, rolled by Bob on the server", newest first, filtered by warband, fighter, game and kind of change,
  paginated by keyset over `(pgh_created_at, source rank, pgh_id)`. A change is the difference between an update
  event and the previous event of the same object.
- `roster_as_of()` — a warband exactly as it stood right after a game's post-game (or right after the game was
  recorded, if its post-game is not applied), rebuilt from the last event of each object at that moment.
- `game_changes()` — what changed for a warband in a game: fighters added or lost, XP, Injuries, Scars,
  Battlekit moves, the Strongbox.

Why not `pghistory.models.Events`: its common table expression unions every event table with a `row_to_json`
and a previous-row lookup per event before any filter or limit applies, so its cost grows with the whole
history; the feed must stay fast with 100,000 events (issue 6, Speed). The queries below read the same generated
event models, scoped to one campaign and limited per table before the union, and compute the diff only for the
rows of the page. The indexes they rely on are in `rosters/migrations/*history_indexes*`.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

from campaigns.terms import Terms, terms_for

PAGE_SIZE = 50

# --------------------------------------------------------------------------------------------------------------
# Sources: the event tables the history reads, and their order inside one transaction.
#
# Every event a trigger writes in one transaction gets the same `pgh_created_at` (PostgreSQL's NOW()), so events
# of one service call are ordered by a fixed rank of their table: read newest first, a post-game shows "finished
# its post-game" above the Scars, Injuries and Battlekit moves it made.
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    name: str
    label: str  # the generated pghistory event model
    rank: int

    @property
    def model(self):
        return apps.get_model(self.label)

    @property
    def table(self) -> str:
        return self.model._meta.db_table


SOURCES: tuple[_Source, ...] = (
    _Source("item", "rosters.ItemEvent", 0),
    _Source("injury", "rosters.InjuryEvent", 1),
    _Source("out_of_action", "campaigns.OutOfActionEvent", 2),
    _Source("fighter", "rosters.FighterEvent", 3),
    _Source("warband", "rosters.WarbandEvent", 4),
    _Source("membership", "campaigns.MembershipEvent", 5),
    _Source("player", "campaigns.GamePlayerEvent", 6),
    _Source("game", "campaigns.GameEvent", 7),
    _Source("campaign", "campaigns.CampaignEvent", 8),
)
SOURCE_BY_RANK = {source.rank: source for source in SOURCES}
SOURCE_BY_NAME = {source.name: source for source in SOURCES}

# Kinds of change, as the feed's filter offers them. The labels use the preset's words where they differ.
KINDS: tuple[str, ...] = (
    "roster",
    "xp",
    "injuries",
    "scars",
    "battlekit",
    "strongbox",
    "profile",
    "games",
    "campaign",
)


def kind_choices(terms: Terms) -> list[tuple[str, str]]:
    labels = {
        "roster": "Fighters joined or lost",
        "xp": "XP",
        "injuries": "Injuries",
        "scars": "Battle Scars",
        "battlekit": terms.battlekit,
        "strongbox": f"{terms.strongbox} and {terms.glory}",
        "profile": "Names, stats and notes",
        "games": "Games and post-games",
        "campaign": "Campaign and members",
    }
    return [(kind, labels[kind]) for kind in KINDS]


# Which kind each changed column of an update belongs to; columns not listed are bookkeeping (ids, created_at).
FIGHTER_FIELDS = {
    "status": "roster",
    "misses_next_game": "roster",
    "warband_id": "roster",
    "xp": "xp",
    "battle_scars": "scars",
    "name": "profile",
    "fighter_type": "profile",
    "keywords": "profile",
    "champion": "profile",
    "strength": "profile",
    "perception": "profile",
    "endurance": "profile",
    "charisma": "profile",
    "intelligence": "profile",
    "agility": "profile",
    "luck": "profile",
    "health": "profile",
    "harm_limit": "profile",
    "movement": "profile",
    "unit_size": "profile",
    "can_gain_xp": "profile",
}
WARBAND_FIELDS = {
    "strongbox": "strongbox",
    "glory": "strongbox",
    "crew_xp": "xp",
    "name": "profile",
    "faction": "profile",
    "notes": "profile",
    "owner_id": "profile",
}
# Tables whose every event is one kind.
SOURCE_KIND = {
    "item": "battlekit",
    "injury": "injuries",
    "out_of_action": "games",
    "player": "games",
    "game": "games",
    "membership": "campaign",
    "campaign": "campaign",
}
# Kind of an insert or delete of a fighter or warband.
ROW_KIND = {"fighter": "roster", "warband": "roster"}
UPDATE_FIELDS = {"fighter": FIGHTER_FIELDS, "warband": WARBAND_FIELDS}


# --------------------------------------------------------------------------------------------------------------
# Cursors
# --------------------------------------------------------------------------------------------------------------

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_CURSOR = re.compile(r"^(\d{1,18})-(\d)-(\d{1,18})$")


class BadCursor(ValueError):
    """A page link that was not made by this module (edited by hand, or truncated)."""


@dataclass(frozen=True, order=True)
class Cursor:
    """A position in the history: events are ordered by (at, rank, pgh_id), all descending in the feed."""

    at: dt.datetime
    rank: int
    pgh_id: int

    def encode(self) -> str:
        micros = (self.at - _EPOCH) // dt.timedelta(microseconds=1)
        return f"{micros}-{self.rank}-{self.pgh_id}"

    @classmethod
    def decode(cls, text: str) -> Cursor:
        match = _CURSOR.match(text or "")
        if not match or int(match.group(2)) not in SOURCE_BY_RANK:
            raise BadCursor("That page link is not valid; start again from the newest changes.")
        at = _EPOCH + dt.timedelta(microseconds=int(match.group(1)))
        return cls(at=at, rank=int(match.group(2)), pgh_id=int(match.group(3)))


# --------------------------------------------------------------------------------------------------------------
# What the feed returns
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryFilter:
    """Which part of a campaign's history to read. The caller checks that the ids belong to the campaign."""

    campaign_id: int
    warband_id: int | None = None
    fighter_id: int | None = None
    game_id: int | None = None
    kind: str | None = None
    until: dt.datetime | None = None  # only events at or before this moment (the as-of view's story)

    def __post_init__(self):
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"Unknown kind of change: {self.kind!r}")


@dataclass(frozen=True)
class GameRef:
    id: int
    number: int | None
    played_on: dt.date | None = None
    scenario: str = ""

    @property
    def title(self) -> str:
        return f"Game {self.number}" if self.number is not None else "A deleted game"


@dataclass(frozen=True)
class Change:
    """One sentence of the history: a kind of change, with who and why."""

    kind: str
    text: str  # the change alone: "Brother Marcus gained 2 XP (now 7)"
    sentence: str  # with reason, game and roll: "... — post-game of Game 3, rolled by Bob on the server"


@dataclass
class HistoryEntry:
    """One pghistory event, told as one or more sentences."""

    cursor: Cursor
    source: str
    label: str  # insert / update / delete
    obj_id: int
    at: dt.datetime
    context: dict
    data: dict
    prev: dict | None
    who: str | None = None
    action: str | None = None
    reason: str | None = None
    game: GameRef | None = None
    warband_id: int | None = None
    fighter_id: int | None = None
    warband_name: str | None = None
    fighter_name: str | None = None
    changes: list[Change] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.cursor.encode()

    @property
    def kinds(self) -> set[str]:
        return {change.kind for change in self.changes}


@dataclass
class HistoryGroup:
    """Consecutive entries of one game (or between games), for the feed's headings."""

    game: GameRef | None
    entries: list[HistoryEntry]


@dataclass
class HistoryPage:
    entries: list[HistoryEntry]
    older: str | None  # cursor of the next (older) page, None on the last page
    newest: str | None  # cursor of the newest entry shown, for polling
    overflow: bool = False  # polling found more new entries than one page holds

    @property
    def groups(self) -> list[HistoryGroup]:
        return group_by_game(self.entries)


def group_by_game(entries: Iterable[HistoryEntry]) -> list[HistoryGroup]:
    groups: list[HistoryGroup] = []
    for entry in entries:
        game_id = entry.game.id if entry.game else None
        if groups and (groups[-1].game.id if groups[-1].game else None) == game_id:
            groups[-1].entries.append(entry)
        else:
            groups.append(HistoryGroup(game=entry.game, entries=[entry]))
    return groups


# --------------------------------------------------------------------------------------------------------------
# The feed's query
# --------------------------------------------------------------------------------------------------------------


def _scope_ctes(f: HistoryFilter) -> str:
    """Ids that scope the event tables to one campaign (or one warband), deleted rows included: its warbands, their
    fighters, and the contexts written for the filtered game."""
    warband = apps.get_model("rosters.Warband")._meta.db_table
    fighter = apps.get_model("rosters.Fighter")._meta.db_table
    wbe, fte = (SOURCE_BY_NAME[n].table for n in ("warband", "fighter"))
    if f.warband_id is not None:
        wb = "SELECT %(w)s::bigint AS id"
    else:
        wb = (
            f"SELECT id FROM {warband} WHERE campaign_id = %(c)s "
            f"UNION SELECT pgh_obj_id FROM {wbe} WHERE pgh_label = 'delete' AND campaign_id = %(c)s"
        )
    return f"""
        wb AS ({wb}),
        ft AS (
            SELECT id FROM {fighter} WHERE warband_id IN (SELECT id FROM wb)
            UNION SELECT pgh_obj_id FROM {fte} WHERE pgh_label = 'delete' AND warband_id IN (SELECT id FROM wb)
        ),
        gctx AS (SELECT id FROM pghistory_context WHERE metadata->>'game' = %(g)s)"""


def _scope_condition(source: _Source, f: HistoryFilter) -> str | None:
    """The WHERE clause that keeps one table's events in scope; None leaves the table out."""
    name = source.name
    w, fi = f.warband_id is not None, f.fighter_id is not None
    in_warbands = "e.warband_id = %(w)s" if w else "e.warband_id IN (SELECT id FROM wb)"
    if name in ("campaign", "membership", "game"):
        if w or fi:
            return None
        return "e.pgh_obj_id = %(c)s" if name == "campaign" else "e.campaign_id = %(c)s"
    if name == "player":
        return None if fi else in_warbands
    if name == "warband":
        if fi:
            return None
        return "e.pgh_obj_id = %(w)s" if w else "e.campaign_id = %(c)s"
    if name == "fighter":
        return "e.pgh_obj_id = %(f)s" if fi else in_warbands
    if name in ("out_of_action", "injury"):
        return "e.fighter_id = %(f)s" if fi else "e.fighter_id IN (SELECT id FROM ft)"
    if name == "item":
        held = " AND (e.fighter_id = %(f)s OR p.fighter_id = %(f)s)" if fi else ""
        return in_warbands + held
    raise AssertionError(name)


def _distinct(columns: Iterable[str]) -> str:
    return " OR ".join(f"e.{column} IS DISTINCT FROM p.{column}" for column in columns)


def _kind_condition(source: _Source, kind: str | None) -> str | None:
    """'' keeps every event of the table, a predicate keeps some, None leaves the table out."""
    if kind is None:
        return ""
    if source.name in SOURCE_KIND:
        return "" if SOURCE_KIND[source.name] == kind else None
    fields = [column for column, k in UPDATE_FIELDS[source.name].items() if k == kind]
    row_kind = ROW_KIND[source.name] == kind
    if not fields and not row_kind:
        return None
    parts = []
    if row_kind:
        parts.append("e.pgh_label <> 'update'")
    if fields:
        parts.append(f"(e.pgh_label = 'update' AND ({_distinct(fields)}))")
    return "(" + " OR ".join(parts) + ")"


def _game_condition(source: _Source) -> str:
    """Written for the game (its context names it), or a row of the game itself."""
    players = apps.get_model("campaigns.GamePlayer")._meta.db_table
    own = {
        "game": " OR e.pgh_obj_id = %(gi)s",
        "player": " OR e.game_id = %(gi)s",
        "injury": " OR e.game_id = %(gi)s",
        "out_of_action": (
            f" OR e.player_id IN (SELECT id FROM {players} WHERE game_id = %(gi)s"
            f" UNION SELECT pgh_obj_id FROM {SOURCE_BY_NAME['player'].table} WHERE game_id = %(gi)s)"
        ),
    }.get(source.name, "")
    return f"(e.pgh_context_id IN (SELECT id FROM gctx){own})"


def _cursor_condition(source: _Source, cursor: Cursor, older: bool) -> str:
    """Events strictly older (or newer) than the cursor, in a form the (pgh_created_at, pgh_id) index serves."""
    if older:
        if source.rank < cursor.rank:
            return "e.pgh_created_at <= %(cur_at)s"
        if source.rank == cursor.rank:
            return "(e.pgh_created_at, e.pgh_id) < (%(cur_at)s, %(cur_id)s)"
        return "e.pgh_created_at < %(cur_at)s"
    if source.rank > cursor.rank:
        return "e.pgh_created_at >= %(cur_at)s"
    if source.rank == cursor.rank:
        return "(e.pgh_created_at, e.pgh_id) > (%(cur_at)s, %(cur_id)s)"
    return "e.pgh_created_at > %(cur_at)s"


_PREV_JOIN = """
    LEFT JOIN LATERAL (
        SELECT * FROM {table} p0
        WHERE p0.pgh_obj_id = e.pgh_obj_id AND (p0.pgh_created_at, p0.pgh_id) < (e.pgh_created_at, e.pgh_id)
        ORDER BY p0.pgh_created_at DESC, p0.pgh_id DESC LIMIT 1
    ) p ON TRUE"""


def _source_select(source: _Source, f: HistoryFilter, cursor: Cursor | None, older: bool) -> str | None:
    scope = _scope_condition(source, f)
    kind = _kind_condition(source, f.kind)
    if scope is None or kind is None:
        return None
    conditions = [scope]
    if kind:
        conditions.append(kind)
    if f.game_id is not None:
        conditions.append(_game_condition(source))
    if f.until is not None:
        conditions.append("e.pgh_created_at <= %(until)s")
    if cursor is not None:
        conditions.append(_cursor_condition(source, cursor, older))
    where = " AND ".join(conditions)
    joins = ""
    if " p." in where or "(p." in where:
        joins += _PREV_JOIN.format(table=source.table)
    direction = "DESC" if older else "ASC"
    return f"""(
    SELECT {source.rank} AS src, e.pgh_id, e.pgh_created_at, e.pgh_label, e.pgh_obj_id, e.pgh_context_id
    FROM {source.table} e{joins}
    WHERE {where}
    ORDER BY e.pgh_created_at {direction}, e.pgh_id {direction}
    LIMIT %(n)s)"""


def _fetch_events(f: HistoryFilter, cursor: Cursor | None, older: bool, limit: int) -> list[tuple]:
    selects = [(s, sql) for s in SOURCES if (sql := _source_select(s, f, cursor, older)) is not None]
    if not selects:
        return []
    direction = "DESC" if older else "ASC"
    order = f"pgh_created_at {direction}, src {direction}, pgh_id {direction}"
    data_cases = " ".join(
        f"WHEN {s.rank} THEN (SELECT to_jsonb(x) FROM {s.table} x WHERE x.pgh_id = page.pgh_id)"
        for s, _ in selects
    )
    prev_cases = " ".join(
        f"""WHEN {s.rank} THEN (
            SELECT to_jsonb(x) FROM {s.table} x
            WHERE x.pgh_obj_id = page.pgh_obj_id
              AND (x.pgh_created_at, x.pgh_id) < (page.pgh_created_at, page.pgh_id)
            ORDER BY x.pgh_created_at DESC, x.pgh_id DESC LIMIT 1)"""
        for s, _ in selects
    )
    sql = f"""
        WITH {_scope_ctes(f)},
        page AS (
            SELECT * FROM ({" UNION ALL ".join(sql for _, sql in selects)}) u
            ORDER BY {order}
            LIMIT %(n)s
        )
        SELECT page.src, page.pgh_id, page.pgh_created_at, page.pgh_label, page.pgh_obj_id, ctx.metadata,
            CASE page.src {data_cases} END AS data,
            CASE WHEN page.pgh_label = 'update' THEN CASE page.src {prev_cases} END END AS prev
        FROM page LEFT JOIN pghistory_context ctx ON ctx.id = page.pgh_context_id
        ORDER BY page.pgh_created_at {direction}, page.src {direction}, page.pgh_id {direction}
    """
    params: dict[str, Any] = {
        "c": f.campaign_id,
        "w": f.warband_id,
        "f": f.fighter_id,
        "g": str(f.game_id) if f.game_id is not None else None,
        "gi": f.game_id,
        "until": f.until,
        "n": limit,
    }
    if cursor is not None:
        params.update(cur_at=cursor.at, cur_id=cursor.pgh_id)
    with connection.cursor() as db:
        db.execute(sql, params)
        rows = [(*row[:5], _json(row[5]), _json(row[6]), _json(row[7])) for row in db.fetchall()]
    return rows if older else rows[::-1]


def history_page(
    *,
    campaign,
    filters: HistoryFilter | None = None,
    before: str | Cursor | None = None,
    after: str | Cursor | None = None,
    limit: int = PAGE_SIZE,
) -> HistoryPage:
    """One page of a campaign's history, newest first.

    `before` (a cursor from `HistoryPage.older`) reads the next older page; `after` (a cursor from
    `HistoryPage.newest`) reads only what happened since, for polling. Raises `BadCursor` for a mangled cursor.
    Runs a fixed number of queries whatever the number of events: one for the events, then one per kind of name
    the sentences need (users, games, rolls, fighters, warbands, game players).
    """
    filters = filters or HistoryFilter(campaign_id=campaign.pk)
    if filters.campaign_id != campaign.pk:
        raise ValueError("The filter belongs to another campaign.")
    if isinstance(before, str):
        before = Cursor.decode(before)
    if isinstance(after, str):
        after = Cursor.decode(after)
    if after is not None:
        rows = _fetch_events(filters, after, older=False, limit=limit + 1)
        overflow = len(rows) > limit
        rows = rows[-limit:] if overflow else rows
        entries = describe_events(rows, campaign=campaign, kind=filters.kind)
        newest = entries[0].key if entries else after.encode()
        return HistoryPage(entries=entries, older=None, newest=newest, overflow=overflow)
    rows = _fetch_events(filters, before, older=True, limit=limit + 1)
    has_more = len(rows) > limit
    entries = describe_events(rows[:limit], campaign=campaign, kind=filters.kind)
    newest = entries[0].key if entries else None
    if before is None and newest is None:
        # An empty history: poll from "now" so the first change arrives. Rank 0 and id 0 sort before any event.
        newest = Cursor(at=_EPOCH, rank=0, pgh_id=0).encode()
    return HistoryPage(
        entries=entries,
        older=entries[-1].key if has_more and entries else None,
        newest=newest,
    )


def iter_history(
    *, campaign, filters: HistoryFilter | None = None, chunk: int = 500
) -> Iterator[HistoryEntry]:
    """Every entry of the history, newest first, read page by page (the CSV export streams from this)."""
    before = None
    while True:
        page = history_page(campaign=campaign, filters=filters, before=before, limit=chunk)
        yield from page.entries
        if page.older is None:
            return
        before = page.older


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
            id=game_id, number=row.get("number"), played_on=played_on, scenario=row.get("scenario", "")
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


def _load_lookups(rows: list[tuple], terms: Terms) -> _Lookups:
    """Every name the page's sentences need, in one query whatever the page holds (the feed's query budget)."""
    users, games, rolls, fighters, warbands, players = set(), set(), set(), set(), set(), set()
    for src, _pgh_id, _at, _label, _obj_id, context, data, prev in rows:
        name = SOURCE_BY_RANK[src].name
        context = context or {}
        users.update(_as_ints(context.get("user")))
        games.update(_as_ints(context.get("game")))
        rolls.update(_as_ints(context.get("roll")))
        for row in (data or {}, prev or {}):
            if name in ("injury", "item", "out_of_action"):
                fighters.add(row.get("fighter_id"))
            if name in ("fighter", "item", "player"):
                warbands.add(row.get("warband_id"))
            if name in ("player", "injury"):
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
    sql = f"""
        WITH pl AS ({_latest_sql("campaigns.GamePlayer", "player", "SELECT unnest(%(p)s::bigint[]) AS id")}),
        fi AS ({_latest_sql("rosters.Fighter", "fighter", "SELECT unnest(%(f)s::bigint[]) AS id")}),
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
                'fighter_id', r.fighter_id, 'purpose', r.purpose, 'source', r.source,
                'first_name', u.first_name, 'username', u.username)
            FROM {roll_table} r LEFT JOIN {user_table} u ON u.id = r.rolled_by_id WHERE r.id = ANY(%(r)s)
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
    }
    found: dict[str, dict[int, Any]] = {
        k: {} for k in ("player", "fighter", "warband", "game", "user", "roll")
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
                    data.get("fighter_id"), data.get("purpose") or "", data.get("source") or "", roller
                )
            found[kind][pk] = data
    return _Lookups(
        terms=terms,
        users=found["user"],
        games=found["game"],
        rolls=found["roll"],
        fighters=found["fighter"],
        warbands=found["warband"],
        players=found["player"],
    )


# --------------------------------------------------------------------------------------------------------------
# Sentences
# --------------------------------------------------------------------------------------------------------------

STAT_LABELS = {
    "strength": "Strength",
    "perception": "Perception",
    "endurance": "Endurance",
    "charisma": "Charisma",
    "intelligence": "Intelligence",
    "agility": "Agility",
    "luck": "Luck",
    "health": "Health",
    "harm_limit": "Harm Limit",
    "movement": "Movement",
    "unit_size": "models in the unit",
}
STATUS_SENTENCES = {
    "active": "{name} is back on the active roster",
    "dead": "{name} died",
    "unfit_for_duty": "{name} is Unfit For Duty",
    "blinded": "{name} was Blinded",
    "executed": "{name} was executed",
    "retired": "{name} retired",
}
GAME_STATUS = {
    "in_progress": "in progress",
    "recorded": "recorded",
    "post_game": "post-game in progress",
    "done": "post-game done",
}
RESULTS = {"win": "win", "loss": "loss", "draw": "draw", "": "no result"}
ROLES = {"organiser": "organiser", "player": "player", "spectator": "spectator"}
# Roll purposes that explain a kind of change (the post-game's Survival and Trauma rolls, Bitter Lessons' D3...).
ROLL_PURPOSES = {
    "injuries": ("trauma", "survival", "injur"),
    "scars": ("trauma", "survival", "scar"),
    "roster": ("trauma", "survival"),
    "xp": ("xp", "lesson", "experience"),
    "strongbox": ("ransom", "robbed", "trauma"),
    "battlekit": ("trauma", "robbed"),
}


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _signed(n: int, gained: str, lost: str, unit: str) -> str:
    return f"{gained if n > 0 else lost} {abs(n)} {unit}"


class _Teller:
    """Builds the sentences of one event: the change itself, then who and why from its context."""

    def __init__(self, entry: HistoryEntry, lookups: _Lookups):
        self.entry = entry
        self.look = lookups
        self.terms = lookups.terms
        self.d = entry.data
        self.p = entry.prev or {}

    # -- the tail: reason, game, roll, who ----------------------------------------------------------------------

    def _rolls_for(self, kind: str) -> list:
        rolls = [self.look.rolls[r] for r in _as_ints(self.entry.context.get("roll")) if r in self.look.rolls]
        if not rolls:
            return []
        fighter_id = self.entry.fighter_id
        if fighter_id is not None:
            rolls = [r for r in rolls if r.fighter_id == fighter_id]
        elif len(rolls) > 1:
            rolls = [r for r in rolls if r.fighter_id is None]
        words = ROLL_PURPOSES.get(kind)
        if words is None:
            return []
        return [r for r in rolls if any(w in (r.purpose or "").lower() for w in words)]

    def _roll_phrase(self, kind: str) -> tuple[str | None, set[str]]:
        rolls = self._rolls_for(kind)
        if not rolls:
            return None, set()
        parts, rollers = [], set()
        for source in ("server", "entered"):
            by = sorted({display_name(r.rolled_by) for r in rolls if r.source == source and r.rolled_by})
            if not any(r.source == source for r in rolls):
                continue
            rollers.update(by)
            who = f" by {' and '.join(by)}" if by else ""
            parts.append(
                f"rolled{who} on the server" if source == "server" else f"entered{who} from the table"
            )
        return ", ".join(parts), rollers

    def _game_phrase(self) -> str | None:
        action = self.entry.action or ""
        game = self.look.game(self.entry.context.get("game"))
        if game is None:
            return None
        title = game.title
        if action == "post_game.apply":
            return f"post-game of {title}"
        if action == "post_game.revert":
            return f"post-game of {title} undone"
        if action.startswith("tracker."):
            return f"during {title}"
        if action == "game.record":
            return f"recording {title}"
        return title

    def _restates(self, reason: str) -> bool:
        """Whether a reason only says again what the sentence says.

        Services record a reason for every write, and when the player typed none it is a sentence of their own
        naming what changed ("Brother Marcus gained 2 XP (now 7)", "Recorded Game 3: ..."). A reason a player
        gives ("ransom for Brother Marcus" on the Strongbox, "killed the Heretic Priest" on XP) names neither the
        row that changed nor the game, and is shown.
        """
        entry, look = self.entry, self.look
        names = {self.d.get("name"), self.p.get("name")}
        if entry.source in ("fighter", "injury", "item", "out_of_action") and entry.fighter_id is not None:
            names.add(look.fighter(entry.fighter_id))
        if entry.source in ("warband", "player"):
            names.add(look.warband(entry.warband_id))
        # Services' own reasons start with who did it ("olga_organiser made a new invitation link").
        for user_id in (entry.context.get("user"), self.d.get("user_id"), self.d.get("owner_id")):
            person = look.users.get(_as_int(user_id) or -1)
            if person is not None:
                names.update({person.get_username(), display_name(person)})
        for game in (entry.game, look.game(entry.context.get("game"))):
            if game is not None and game.number is not None:
                names.add(game.title)
        text = reason.lower()
        return any(
            name and len(name) > 1 and re.search(rf"\b{re.escape(name.lower())}\b", text) for name in names
        )

    def finish(self, kind: str, text: str, *, who_in_text: bool = False) -> Change:
        sentence = text
        reason = (self.entry.reason or "").strip()
        game_phrase = self._game_phrase()
        if reason and not self._restates(reason):
            # "gained 2 XP (now 7)" + reason reads "gained 2 XP (now 7; killed an ELITE)".
            sentence = f"{sentence[:-1]}; {reason})" if sentence.endswith(")") else f"{sentence} ({reason})"
        roll_phrase, rollers = self._roll_phrase(kind)
        who = self.entry.who
        tail = []
        game = self.look.game(self.entry.context.get("game"))
        if game_phrase and not re.search(rf"\b{re.escape(game.title.lower())}\b", text.lower()):
            tail.append(game_phrase)
        if who and not who_in_text and who not in rollers:
            if tail:
                tail[0] = f"{tail[0]} by {who}"
            else:
                tail.append(f"by {who}")
        if roll_phrase:
            tail.append(roll_phrase)
        if tail:
            sentence = f"{sentence} — {', '.join(tail)}"
        return Change(kind=kind, text=text, sentence=sentence)

    def subject(self, done: str, passive: str) -> tuple[str, bool]:
        """'Pat added X' when the context knows who, 'X was added' when it does not."""
        if self.entry.who:
            return done.format(who=self.entry.who), True
        return passive, False

    # -- per table ----------------------------------------------------------------------------------------------

    def changes(self) -> list[Change]:
        name = self.entry.source
        return getattr(self, f"_{name}")()

    def _diff(self) -> dict[str, tuple]:
        return {
            k: (self.p.get(k), v)
            for k, v in self.d.items()
            if not k.startswith("pgh_") and k in self.p and self.p.get(k) != v
        }

    def _fighter(self) -> list[Change]:
        d, label = self.d, self.entry.label
        name = d.get("name", "A fighter")
        warband = self.look.warband(d.get("warband_id"))
        if label == "insert":
            kind_of = f" ({d['fighter_type']})" if d.get("fighter_type") else ""
            text, who_in = self.subject(
                f"{{who}} added {name}{kind_of} to {warband}", f"{name}{kind_of} joined {warband}"
            )
            return [self.finish("roster", text, who_in_text=who_in)]
        if label == "delete":
            text, who_in = self.subject(f"{{who}} removed {name} from {warband}", f"{name} left {warband}")
            return [self.finish("roster", text, who_in_text=who_in)]
        diff = self._diff()
        out: list[Change] = []
        if "xp" in diff:
            old, new = diff["xp"]
            out.append(self.finish("xp", f"{name} {_signed(new - old, 'gained', 'lost', 'XP')} (now {new})"))
        if "battle_scars" in diff:
            old, new = diff["battle_scars"]
            n = new - old
            what = "a Battle Scar" if abs(n) == 1 else f"{abs(n)} Battle Scars"
            out.append(self.finish("scars", f"{name} {'gained' if n > 0 else 'lost'} {what} (now {new})"))
        if "status" in diff:
            sentence = STATUS_SENTENCES.get(diff["status"][1], "{name} is now " + str(diff["status"][1]))
            out.append(self.finish("roster", sentence.format(name=name)))
        if "misses_next_game" in diff:
            text = (
                f"{name} will miss the next game" if diff["misses_next_game"][1] else f"{name} is fit to play"
            )
            out.append(self.finish("roster", text))
        if "warband_id" in diff:
            old, new = diff["warband_id"]
            out.append(self.finish("roster", f"{name} moved from {self.look.warband(old)} to {warband}"))
        out.extend(self._fighter_profile(name, diff))
        return out or [self.finish("profile", f"{name} was updated")]

    def _fighter_profile(self, name: str, diff: dict) -> list[Change]:
        out = []
        if "name" in diff:
            out.append(self.finish("profile", f"{diff['name'][0]} is now called {diff['name'][1]}"))
        if "fighter_type" in diff:
            old, new = diff["fighter_type"]
            out.append(self.finish("profile", f"{name}'s type: {old or 'none'} → {new or 'none'}"))
        if "keywords" in diff:
            old, new = set(diff["keywords"][0] or []), set(diff["keywords"][1] or [])
            parts = [f"gained {k}" for k in sorted(new - old)] + [f"lost {k}" for k in sorted(old - new)]
            if parts:
                out.append(self.finish("profile", f"{name} {' and '.join(parts)}"))
        if "champion" in diff:
            elite = self.terms.elite
            text = f"{name} became a {elite}" if diff["champion"][1] else f"{name} is no longer a {elite}"
            out.append(self.finish("profile", text))
        if "can_gain_xp" in diff:
            text = f"{name} can gain XP again" if diff["can_gain_xp"][1] else f"{name} can no longer gain XP"
            out.append(self.finish("profile", text))
        stats = [
            f"{label} {'none' if diff[k][0] is None else diff[k][0]} → {'none' if diff[k][1] is None else diff[k][1]}"
            for k, label in STAT_LABELS.items()
            if k in diff
        ]
        if stats:
            out.append(self.finish("profile", f"{name}: {', '.join(stats)}"))
        return out

    def _warband(self) -> list[Change]:
        d, label, t = self.d, self.entry.label, self.terms
        name = d.get("name", f"A {t.warband}")
        if label == "insert":
            faction = f" ({d['faction']})" if d.get("faction") else ""
            if self.entry.action == "warband.import":
                text, who_in = self.subject(
                    f"{{who}} imported the {t.warband} {name}{faction} from a file",
                    f"The {t.warband} {name}{faction} was imported from a file",
                )
                return [self.finish("roster", text, who_in_text=who_in)]
            text, who_in = self.subject(
                f"{{who}} founded the {t.warband} {name}{faction}",
                f"The {t.warband} {name}{faction} was founded",
            )
            return [self.finish("roster", text, who_in_text=who_in)]
        if label == "delete":
            text, who_in = self.subject(f"{{who}} disbanded {name}", f"{name} was disbanded")
            return [self.finish("roster", text, who_in_text=who_in)]
        diff, out = self._diff(), []
        if "strongbox" in diff:
            old, new = diff["strongbox"]
            out.append(self.finish("strongbox", f"{name}: {t.strongbox} {old} → {new} {t.currency}"))
        if "glory" in diff:
            old, new = diff["glory"]
            out.append(self.finish("strongbox", f"{name}: {t.glory} {old} → {new}"))
        if "crew_xp" in diff:
            old, new = diff["crew_xp"]
            out.append(
                self.finish("xp", f"{name} {_signed(new - old, 'gained', 'lost', 'crew XP')} (now {new})")
            )
        if "name" in diff:
            out.append(self.finish("profile", f"{diff['name'][0]} is now called {diff['name'][1]}"))
        if "faction" in diff:
            out.append(
                self.finish("profile", f"{name}'s faction: {diff['faction'][0]} → {diff['faction'][1]}")
            )
        if "notes" in diff:
            out.append(self.finish("profile", f"{name}'s notes were edited"))
        if "owner_id" in diff:
            out.append(self.finish("profile", f"{name} now belongs to {self.look.user(diff['owner_id'][1])}"))
        return out or [self.finish("profile", f"{name} was updated")]

    def _holder(self, fighter_id, warband_id) -> str:
        if fighter_id is None:
            return f"{self.look.warband(warband_id)}'s {self.terms.arsenal}"
        return self.look.fighter(fighter_id)

    def _item(self) -> list[Change]:
        d, label, t = self.d, self.entry.label, self.terms
        item = d.get("name", "an item")
        holder = self._holder(d.get("fighter_id"), d.get("warband_id"))
        if label == "insert":
            text, who_in = (
                self.subject(f"{{who}} added {item} to {holder}", f"{item} was added to {holder}")
                if d.get("fighter_id") is None
                else self.subject(f"{{who}} gave {item} to {holder}", f"{holder} got {item}")
            )
            return [self.finish("battlekit", text, who_in_text=who_in)]
        if label == "delete" and self.entry.action in ("fighter.remove", "post_game.apply"):
            # Lost with a fighter who left the roster, or to the Trauma Table (RULING T-6, Robbed).
            return [self.finish("battlekit", f"{item} was lost with {holder}")]
        if label == "delete":
            text, who_in = self.subject(
                f"{{who}} removed {item} from {holder}", f"{item} was lost from {holder}"
            )
            return [self.finish("battlekit", text, who_in_text=who_in)]
        diff, out = self._diff(), []
        if "fighter_id" in diff or "warband_id" in diff:
            old_fighter = self.p.get("fighter_id")
            old_warband = self.p.get("warband_id")
            if "warband_id" in diff:
                src = f"{self.look.warband(old_warband)}"
                dst = f"{self.look.warband(d.get('warband_id'))}"
            else:
                src, dst = self._holder(old_fighter, old_warband), holder
                # "the Arsenal" reads better than "Iron Sepulchre's Arsenal" when the item stays in its warband.
                src = f"the {t.arsenal}" if old_fighter is None else src
                dst = f"the {t.arsenal}" if d.get("fighter_id") is None else dst
            out.append(self.finish("battlekit", f"{item} moved from {src} to {dst}"))
        if "name" in diff:
            out.append(self.finish("battlekit", f"{diff['name'][0]} is now called {diff['name'][1]}"))
        if "keywords" in diff:
            kw = ", ".join(d.get("keywords") or []) or "none"
            out.append(self.finish("battlekit", f"{item}'s keywords are now {kw}"))
        if "notes" in diff:
            out.append(self.finish("battlekit", f"{item}'s notes were edited"))
        if "removable" in diff:
            text = (
                f"{item} can be removed again" if d.get("removable") else f"{item} can no longer be removed"
            )
            out.append(self.finish("battlekit", text))
        return out or [self.finish("battlekit", f"{item} was updated")]

    def _injury(self) -> list[Change]:
        d, label = self.d, self.entry.label
        fighter = self.look.fighter(d.get("fighter_id"))
        injury = d.get("name") or d.get("code") or "an Injury"
        if label == "insert":
            roll = f" (D66 {d['d66']})" if d.get("d66") else ""
            return [self.finish("injuries", f"{fighter} suffered {injury}{roll}")]
        if label == "delete":
            return [self.finish("injuries", f"{injury} was removed from {fighter}")]
        diff = self._diff()
        if "name" in diff:
            return [self.finish("injuries", f"{fighter}'s {diff['name'][0]} is now {diff['name'][1]}")]
        return [self.finish("injuries", f"{fighter}'s {injury} was corrected")]

    def _player_game(self, game_id) -> str:
        game = self.look.game(game_id)
        return game.title if game else "a game"

    def _player(self) -> list[Change]:
        d, label = self.d, self.entry.label
        warband = self.look.warband(d.get("warband_id"))
        game = self._player_game(d.get("game_id"))
        if label == "insert":
            result = f" ({RESULTS.get(d.get('result', ''), d.get('result'))})" if d.get("result") else ""
            return [self.finish("games", f"{warband} played {game}{result}")]
        if label == "delete":
            return [self.finish("games", f"{warband} was taken off {game}")]
        diff, out = self._diff(), []
        if "result" in diff:
            old, new = (RESULTS.get(v or "", v) for v in diff["result"])
            out.append(self.finish("games", f"{warband}'s result in {game}: {old} → {new}"))
        if "post_game" in diff:
            new = diff["post_game"][1]
            text = {
                "in_progress": f"{warband} started its post-game of {game}",
                "done": f"{warband} finished its post-game of {game}",
                "pending": f"{warband}'s post-game of {game} was reopened",
            }.get(new, f"{warband}'s post-game of {game}: {new}")
            out.append(self.finish("games", text))
        return out or [self.finish("games", f"{warband}'s entry in {game} was corrected")]

    def _out_of_action(self) -> list[Change]:
        d, label = self.d, self.entry.label
        fighter = self.look.fighter(d.get("fighter_id"))
        player = self.look.players.get(_as_int(d.get("player_id")) or -1) or {}
        game = self._player_game(player.get("game_id"))
        if label == "delete":
            return [self.finish("games", f"{fighter} is no longer marked Out of Action in {game}")]
        return [self.finish("games", f"{fighter} was taken Out of Action in {game}")]

    def _game(self) -> list[Change]:
        d, label = self.d, self.entry.label
        title = f"Game {d.get('number')}"
        if label == "insert":
            scenario = f" ({d['scenario']})" if d.get("scenario") else ""
            text, who_in = self.subject(
                f"{{who}} recorded {title}{scenario}", f"{title}{scenario} was recorded"
            )
            return [self.finish("games", text, who_in_text=who_in)]
        if label == "delete":
            text, who_in = self.subject(f"{{who}} deleted {title}", f"{title} was deleted")
            return [self.finish("games", text, who_in_text=who_in)]
        diff, out = self._diff(), []
        if "status" in diff:
            old, new = diff["status"]
            text = {
                ("in_progress", "recorded"): f"{title} was played to its end",
                ("recorded", "post_game"): f"{title}'s post-games started",
                ("post_game", "done"): f"Every post-game of {title} is done",
                ("done", "post_game"): f"A post-game of {title} was reopened",
                ("post_game", "recorded"): f"{title}'s post-games were all undone",
            }.get((old, new), f"{title}: {GAME_STATUS.get(old, old)} → {GAME_STATUS.get(new, new)}")
            out.append(self.finish("games", text))
        if "number" in diff:
            out.append(self.finish("games", f"Game {diff['number'][0]} is now {title}"))
        if {"played_on", "scenario", "notes"} & diff.keys():
            out.append(self.finish("games", f"{title}'s details were edited"))
        return out or [self.finish("games", f"{title} was updated")]

    def _membership(self) -> list[Change]:
        d, label = self.d, self.entry.label
        member = self.look.user(d.get("user_id")) or "someone"
        role = ROLES.get(d.get("role"), d.get("role"))
        if label == "insert":
            return [self.finish("campaign", f"{member} joined the campaign as {role}", who_in_text=True)]
        if label == "delete":
            return [self.finish("campaign", f"{member} left the campaign")]
        return [self.finish("campaign", f"{member} is now {role}")]

    def _campaign(self) -> list[Change]:
        d, label = self.d, self.entry.label
        if label == "insert":
            text, who_in = self.subject(
                f"{{who}} created the campaign {d.get('name')}", f"The campaign {d.get('name')} was created"
            )
            return [self.finish("campaign", text, who_in_text=who_in)]
        if label == "delete":
            return [self.finish("campaign", f"The campaign {d.get('name')} was deleted")]
        diff, out = self._diff(), []
        # Tokens and codes are secrets: the history says they changed, never what they are.
        if "share_token" in diff:
            old, new = diff["share_token"]
            text = (
                "A read-only link was shared"
                if not old
                else ("The read-only link was revoked" if not new else "The read-only link was replaced")
            )
            out.append(self.finish("campaign", text))
        if "invitation_code" in diff:
            out.append(self.finish("campaign", "The invitation link was renewed"))
        if "name" in diff:
            out.append(self.finish("campaign", f"The campaign is now called {diff['name'][1]}"))
        if "scar_limit" in diff:
            old, new = diff["scar_limit"]
            out.append(self.finish("campaign", f"Battle Scar limit {old} → {new}"))
        if "house_trauma_table" in diff:
            text = (
                "The campaign's own Trauma Table was edited"
                if diff["house_trauma_table"][1]
                else "The campaign went back to the default Trauma Table"
            )
            out.append(self.finish("campaign", text))
        if "preset" in diff:
            old, new = (terms_for(v).game for v in diff["preset"])
            out.append(self.finish("campaign", f"Rules preset {old} → {new}"))
        if "status" in diff:
            text = (
                "The campaign was archived"
                if diff["status"][1] == "archived"
                else "The campaign is active again"
            )
            out.append(self.finish("campaign", text))
        if "description" in diff:
            out.append(self.finish("campaign", "The campaign's description was edited"))
        return out or [self.finish("campaign", "The campaign's settings were changed")]


def _entry_links(entry: HistoryEntry, look: _Lookups) -> None:
    """The game, warband and fighter an entry belongs to (for grouping, links and roll matching)."""
    d, name = entry.data, entry.source
    game_id = _as_int(entry.context.get("game"))
    if name == "fighter":
        entry.fighter_id, entry.warband_id = entry.obj_id, _as_int(d.get("warband_id"))
    elif name in ("injury", "item", "out_of_action"):
        entry.fighter_id = _as_int(d.get("fighter_id"))
        if name == "item":
            entry.warband_id = _as_int(d.get("warband_id"))
            if entry.fighter_id is None and entry.prev:
                entry.fighter_id = _as_int(entry.prev.get("fighter_id"))
        elif entry.fighter_id in look.fighters:
            entry.warband_id = _as_int(look.fighters[entry.fighter_id].get("warband_id"))
    elif name == "warband":
        entry.warband_id = entry.obj_id
    if name == "player":
        entry.warband_id = _as_int(d.get("warband_id"))
    if game_id is None:
        if name == "game":
            game_id = entry.obj_id
        elif name in ("player", "injury"):
            game_id = _as_int(d.get("game_id"))
        elif name == "out_of_action":
            player = look.players.get(_as_int(d.get("player_id")) or -1) or {}
            game_id = _as_int(player.get("game_id"))
            entry.warband_id = _as_int(player.get("warband_id"))
    if name == "out_of_action" and entry.warband_id is None:
        player = look.players.get(_as_int(d.get("player_id")) or -1) or {}
        entry.warband_id = _as_int(player.get("warband_id"))
    entry.game = look.game(game_id)
    if entry.warband_id is not None:
        entry.warband_name = entry.data.get("name") if name == "warband" else look.warband(entry.warband_id)
    if entry.fighter_id is not None:
        entry.fighter_name = entry.data.get("name") if name == "fighter" else look.fighter(entry.fighter_id)


def describe_events(rows: list[tuple], *, campaign, kind: str | None = None) -> list[HistoryEntry]:
    """Turn event rows (as `_fetch_events` returns them) into entries with their sentences."""
    look = _load_lookups(rows, terms_for(campaign.preset))
    entries = []
    for src, pgh_id, at, label, obj_id, context, data, prev in rows:
        source = SOURCE_BY_RANK[src]
        context = context or {}
        entry = HistoryEntry(
            cursor=Cursor(at=at, rank=src, pgh_id=pgh_id),
            source=source.name,
            label=label,
            obj_id=obj_id,
            at=at,
            context=context,
            data=data or {},
            prev=prev,
            who=look.user(context.get("user")),
            action=context.get("action") if isinstance(context.get("action"), str) else None,
            reason=context.get("reason") if isinstance(context.get("reason"), str) else None,
        )
        _entry_links(entry, look)
        changes = _Teller(entry, look).changes()
        entry.changes = [c for c in changes if kind is None or c.kind == kind] or changes
        entries.append(entry)
    return entries


# --------------------------------------------------------------------------------------------------------------
# The roster as of a game, and what changed in it
# --------------------------------------------------------------------------------------------------------------

# A post-game applied or undone; a game recorded: at once (game.record), or started with the tracker and ended
# (game.finish, tracker.end_game), or its record corrected before any post-game started (game.update).
RECORD_ACTIONS = ("game.record", "game.finish", "game.update", "tracker.end_game")
MOMENT_ACTIONS = ("post_game.apply", "post_game.revert", *RECORD_ACTIONS)


@dataclass(frozen=True)
class AsOfMoment:
    """The moment an as-of view reads: right after the post-game, or right after the game was recorded."""

    at: dt.datetime | None
    applied: bool  # the warband's post-game of this game is applied (and not undone)
    reverted: bool  # a post-game was applied, then undone
    played: bool  # the warband took part in the game

    @property
    def explanation(self) -> str:
        if self.at is None:
            return "There is no history of this game yet."
        if self.applied:
            return "As it stood right after its post-game was applied."
        if self.reverted:
            return "Its post-game was undone, so this is the roster right after the game was recorded."
        if not self.played:
            return "It did not play this game: this is the roster when the game was recorded."
        return "Its post-game is not applied yet, so this is the roster right after the game was recorded."


def as_of_moment(*, warband, game) -> AsOfMoment:
    """When the warband's post-game of the game was applied, read from the history context.

    The post-game service writes under `pghistory.context(action="post_game.apply", game=..., warband=...)`;
    the time of the events it wrote is the moment. Without such a context (older data) the moment the game
    player's `post_game` became "done" stands in for it; the same goes for reverts and for recording the game.
    """
    event_tables = [s.table for s in SOURCES]
    union = " UNION ALL ".join(
        f"SELECT pgh_context_id, pgh_created_at FROM {table} WHERE pgh_context_id IN (SELECT id FROM ctx)"
        for table in event_tables
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
    player_events = SOURCE_BY_NAME["player"].table
    game_events = SOURCE_BY_NAME["game"].table
    with connection.cursor() as db:
        db.execute(sql, {"g": str(game.pk), "w": str(warband.pk), "actions": list(MOMENT_ACTIONS)})
        by_action = dict(db.fetchall())
        db.execute(
            f"SELECT pgh_label, post_game, pgh_created_at FROM {player_events} "
            "WHERE game_id = %s AND warband_id = %s ORDER BY pgh_created_at, pgh_id",
            [game.pk, warband.pk],
        )
        player_rows = db.fetchall()
        db.execute(
            f"SELECT min(pgh_created_at) FROM {game_events} WHERE pgh_obj_id = %s AND pgh_label = 'insert'",
            [game.pk],
        )
        game_recorded = db.fetchone()[0]
    applied_at = by_action.get("post_game.apply")
    reverted_at = by_action.get("post_game.revert")
    recorded_at = max([t for action in RECORD_ACTIONS if (t := by_action.get(action))], default=None)
    # Fallbacks from the game player's own events: inserted = recorded, post_game -> done = applied.
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
    played = bool(player_rows) and player_rows[-1][0] != "delete"
    applied = applied_at is not None and (reverted_at is None or reverted_at < applied_at)
    if applied:
        return AsOfMoment(at=applied_at, applied=True, reverted=False, played=played)
    return AsOfMoment(
        at=recorded_at or game_recorded, applied=False, reverted=reverted_at is not None, played=played
    )


def _instance(model_label: str, data: dict):
    """An unsaved model instance holding an event's snapshot, so templates read it like the live row."""
    model = apps.get_model(model_label)
    values = {}
    for model_field in model._meta.concrete_fields:
        if model_field.attname in data:
            values[model_field.attname] = model_field.to_python(data[model_field.attname])
    return model(**values)


@dataclass
class RosterSnapshot:
    """A warband's roster at one moment, rebuilt from the last event of each of its rows at or before it."""

    at: dt.datetime
    warband: Any  # an unsaved rosters.Warband, or None if the warband did not exist yet
    fighters: list  # unsaved rosters.Fighter, each with .injuries_then and .battlekit_then lists
    arsenal: list  # unsaved rosters.Item held by no fighter

    @property
    def active(self) -> list:
        return [f for f in self.fighters if f.status == "active"]

    @property
    def fallen(self) -> list:
        return [f for f in self.fighters if f.status != "active"]

    def state(self) -> dict:
        """Every field of every row, comparable with `roster_state()` of the live roster."""
        return {
            "warband": _fields(self.warband) if self.warband else None,
            "fighters": [
                {
                    **_fields(f),
                    "injuries": [_fields(i) for i in f.injuries_then],
                    "battlekit": [_fields(i) for i in f.battlekit_then],
                }
                for f in self.fighters
            ],
            "arsenal": [_fields(i) for i in self.arsenal],
        }


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def roster_state(warband) -> dict:
    """The live roster in the shape of `RosterSnapshot.state()` (tests compare the two)."""
    warband = type(warband).objects.get(pk=warband.pk)
    fighters = list(warband.fighters.order_by("id").prefetch_related("injuries", "battlekit"))
    return {
        "warband": _fields(warband),
        "fighters": [
            {
                **_fields(f),
                "injuries": [_fields(i) for i in sorted(f.injuries.all(), key=lambda i: i.pk)],
                "battlekit": [_fields(i) for i in sorted(f.battlekit.all(), key=lambda i: i.pk)],
            }
            for f in fighters
        ],
        "arsenal": [_fields(i) for i in warband.items.filter(fighter__isnull=True).order_by("id")],
    }


def roster_snapshot(*, warband_id: int, at: dt.datetime, inclusive: bool = True) -> RosterSnapshot:
    """The roster as the event tables say it was at `at` (or just before it, when not `inclusive`).

    One query: for each fighter, item and injury that ever belonged to the warband (the (warband_id, pgh_obj_id)
    indexes), the last event at or before the moment (the (pgh_obj_id, pgh_created_at, pgh_id) indexes); rows
    that did not exist yet, were deleted, or were in another warband then drop out.
    """
    op = "<=" if inclusive else "<"
    fe, ie, je, we = (SOURCE_BY_NAME[n].table for n in ("fighter", "item", "injury", "warband"))

    def last(table: str, ids: str, extra: str) -> str:
        return f"""
            SELECT last.row FROM {ids} CROSS JOIN LATERAL (
                SELECT to_jsonb(e) AS row, e.pgh_label FROM {table} e
                WHERE e.pgh_obj_id = {ids}.id AND e.pgh_created_at {op} %(t)s
                ORDER BY e.pgh_created_at DESC, e.pgh_id DESC LIMIT 1
            ) last WHERE last.pgh_label <> 'delete' AND {extra}"""

    sql = f"""
        WITH f_ids AS (SELECT DISTINCT pgh_obj_id AS id FROM {fe} WHERE warband_id = %(w)s),
        fighters AS ({last(fe, "f_ids", "(last.row->>'warband_id')::bigint = %(w)s")}),
        i_ids AS (SELECT DISTINCT pgh_obj_id AS id FROM {ie} WHERE warband_id = %(w)s),
        items AS ({last(ie, "i_ids", "(last.row->>'warband_id')::bigint = %(w)s")}),
        j_ids AS (
            SELECT DISTINCT pgh_obj_id AS id FROM {je}
            WHERE fighter_id IN (SELECT (row->>'id')::bigint FROM fighters)
        ),
        injuries AS ({last(je, "j_ids", "(last.row->>'fighter_id')::bigint IN (SELECT (row->>'id')::bigint FROM fighters)")})
        SELECT 'warband', (
            SELECT to_jsonb(e) FROM {we} e WHERE e.pgh_obj_id = %(w)s AND e.pgh_created_at {op} %(t)s
            ORDER BY e.pgh_created_at DESC, e.pgh_id DESC LIMIT 1)
        UNION ALL SELECT 'fighter', row FROM fighters
        UNION ALL SELECT 'item', row FROM items
        UNION ALL SELECT 'injury', row FROM injuries
    """
    with connection.cursor() as db:
        db.execute(sql, {"w": warband_id, "t": at})
        rows = db.fetchall()
    warband, fighters, items, injuries = None, [], [], []
    for kind, data in rows:
        data = _json(data)
        if data is None:
            continue
        if kind == "warband":
            warband = None if data.get("pgh_label") == "delete" else _instance("rosters.Warband", data)
        elif kind == "fighter":
            fighters.append(_instance("rosters.Fighter", data))
        elif kind == "item":
            items.append(_instance("rosters.Item", data))
        else:
            injuries.append(_instance("rosters.Injury", data))
    fighters.sort(key=lambda f: f.pk)
    by_id = {f.pk: f for f in fighters}
    for fighter in fighters:
        fighter.injuries_then, fighter.battlekit_then = [], []
    for injury in sorted(injuries, key=lambda i: i.pk):
        by_id[injury.fighter_id].injuries_then.append(injury)
    arsenal = []
    for item in sorted(items, key=lambda i: i.pk):
        holder = by_id.get(item.fighter_id)
        if holder is not None:
            holder.battlekit_then.append(item)
        else:
            # Held by a fighter who is not on the roster (any more): as far as the roster goes, in the Arsenal.
            if item.fighter_id is not None:
                item.fighter_id = None
            arsenal.append(item)
    return RosterSnapshot(at=at, warband=warband, fighters=fighters, arsenal=arsenal)


@dataclass
class RosterAsOf:
    moment: AsOfMoment
    snapshot: RosterSnapshot | None


def roster_as_of(*, warband, game) -> RosterAsOf:
    """The warband as it stood right after the game's post-game (or its recording): issue 6, the as-of view."""
    moment = as_of_moment(warband=warband, game=game)
    if moment.at is None:
        return RosterAsOf(moment=moment, snapshot=None)
    return RosterAsOf(moment=moment, snapshot=roster_snapshot(warband_id=warband.pk, at=moment.at))


@dataclass(frozen=True)
class ValueChange:
    name: str
    before: Any
    after: Any

    @property
    def delta(self) -> int:
        return (self.after or 0) - (self.before or 0)


@dataclass(frozen=True)
class ItemMove:
    item: str
    source: str  # a fighter's name, "the Arsenal", or "" when the item is new
    destination: str  # a fighter's name, "the Arsenal", or "" when the item was lost


@dataclass
class GameChanges:
    """What changed for one warband in one game, netted over all its writes (apply and undo included)."""

    fighters_added: list[str] = field(default_factory=list)
    fighters_lost: list[ValueChange] = field(default_factory=list)  # before/after are status labels
    fighters_back: list[str] = field(default_factory=list)
    xp: list[ValueChange] = field(default_factory=list)
    scars: list[ValueChange] = field(default_factory=list)
    injuries_added: list[ValueChange] = field(default_factory=list)  # name = fighter, after = injury
    injuries_removed: list[ValueChange] = field(default_factory=list)
    battlekit: list[ItemMove] = field(default_factory=list)
    strongbox: ValueChange | None = None
    glory: ValueChange | None = None
    crew_xp: ValueChange | None = None
    story: list[HistoryEntry] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not any(
            (
                self.fighters_added,
                self.fighters_lost,
                self.fighters_back,
                self.xp,
                self.scars,
                self.injuries_added,
                self.injuries_removed,
                self.battlekit,
                self.strongbox,
                self.glory,
                self.crew_xp,
            )
        )


def _game_events(*, warband_id: int, game_id: int, until: dt.datetime) -> list[tuple]:
    """The warband's roster events written in the game's context (or tied to it by an Injury's game)."""
    fe, ie, je, we = (SOURCE_BY_NAME[n].table for n in ("fighter", "item", "injury", "warband"))
    fighter = apps.get_model("rosters.Fighter")._meta.db_table

    def select(name: str, table: str, scope: str, own: str = "") -> str:
        return f"""
            SELECT '{name}', e.pgh_obj_id, e.pgh_created_at, e.pgh_id, e.pgh_label, to_jsonb(e),
                (SELECT to_jsonb(p) FROM {table} p
                 WHERE p.pgh_obj_id = e.pgh_obj_id AND (p.pgh_created_at, p.pgh_id) < (e.pgh_created_at, e.pgh_id)
                 ORDER BY p.pgh_created_at DESC, p.pgh_id DESC LIMIT 1)
            FROM {table} e
            WHERE {scope} AND e.pgh_created_at <= %(t)s AND (e.pgh_context_id IN (SELECT id FROM gctx){own})"""

    sql = f"""
        WITH gctx AS (SELECT id FROM pghistory_context WHERE metadata->>'game' = %(g)s),
        ft AS (
            SELECT id FROM {fighter} WHERE warband_id = %(w)s
            UNION SELECT pgh_obj_id FROM {fe} WHERE pgh_label = 'delete' AND warband_id = %(w)s
        )
        {select("warband", we, "e.pgh_obj_id = %(w)s")}
        UNION ALL {select("fighter", fe, "e.warband_id = %(w)s")}
        UNION ALL {select("item", ie, "e.warband_id = %(w)s")}
        UNION ALL {select("injury", je, "e.fighter_id IN (SELECT id FROM ft)", " OR e.game_id = %(gi)s")}
        ORDER BY 3, 4
    """
    with connection.cursor() as db:
        db.execute(sql, {"w": warband_id, "g": str(game_id), "gi": game_id, "t": until})
        return db.fetchall()


def game_changes(*, warband, game, moment: AsOfMoment | None = None, campaign=None) -> GameChanges:
    """What the game changed on the warband's roster, up to the as-of moment, with the story behind it."""
    moment = moment or as_of_moment(warband=warband, game=game)
    changes = GameChanges()
    if moment.at is None:
        return changes
    rows = _game_events(warband_id=warband.pk, game_id=game.pk, until=moment.at)
    first: dict[tuple[str, int], dict | None] = {}
    last: dict[tuple[str, int], dict | None] = {}
    for name, obj_id, _at, _pgh_id, label, data, prev in rows:
        data, prev = _json(data), _json(prev)
        key = (name, obj_id)
        if key not in first:
            first[key] = None if label == "insert" else (prev if label == "update" else data)
        last[key] = None if label == "delete" else data
    terms = terms_for(game.campaign.preset if campaign is None else campaign.preset)
    fighter_ids = {k[1] for k in first if k[0] == "fighter"}
    for key in first:
        for row in (first[key], last[key]):
            if row and key[0] in ("item", "injury") and row.get("fighter_id"):
                fighter_ids.add(row["fighter_id"])
    names = {i: r["name"] for i, r in _rows_by_id("rosters.Fighter", "fighter", fighter_ids).items()}
    statuses = dict(apps.get_model("rosters.Fighter").Status.choices)

    def holder(row) -> str:
        if row is None:
            return ""
        fighter_id = row.get("fighter_id")
        return f"the {terms.arsenal}" if fighter_id is None else names.get(fighter_id, "a fighter")

    for (name, _obj_id), before in first.items():
        after = last[(name, _obj_id)]
        if name == "fighter":
            who = (after or before or {}).get("name", "A fighter")
            if before is None and after is not None:
                changes.fighters_added.append(who)
            was_active = before is not None and before.get("status") == "active"
            is_active = after is not None and after.get("status") == "active"
            if was_active and not is_active:
                status = statuses.get(after.get("status"), "removed") if after else "removed"
                changes.fighters_lost.append(ValueChange(who, statuses["active"], status))
            if before is not None and not was_active and is_active:
                changes.fighters_back.append(who)
            for column, bucket in (("xp", changes.xp), ("battle_scars", changes.scars)):
                old, new = (before or {}).get(column, 0), (after or {}).get(column, 0)
                if before is not None and after is not None and old != new:
                    bucket.append(ValueChange(who, old, new))
        elif name == "injury":
            row = after or before or {}
            fighter = names.get(row.get("fighter_id"), "a fighter")
            if before is None and after is not None:
                changes.injuries_added.append(ValueChange(fighter, None, row.get("name")))
            elif before is not None and after is None:
                changes.injuries_removed.append(ValueChange(fighter, row.get("name"), None))
        elif name == "item":
            if holder(before) != holder(after) or (before is None) != (after is None):
                item = (after or before or {}).get("name", "an item")
                changes.battlekit.append(ItemMove(item, holder(before), holder(after)))
        elif name == "warband" and before is not None and after is not None:
            for column in ("strongbox", "glory", "crew_xp"):
                if before.get(column) != after.get(column):
                    setattr(changes, column, ValueChange(column, before.get(column), after.get(column)))
    story_filter = HistoryFilter(
        campaign_id=warband.campaign_id, warband_id=warband.pk, game_id=game.pk, until=moment.at
    )
    changes.story = history_page(campaign=warband.campaign, filters=story_filter, limit=200).entries
    return changes
