"""The feed's query: one keyset page of a campaign's events, limited per table before the union."""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.apps import apps
from django.db import connection

from rosters.history import registry
from rosters.history.entries import HistoryEntry, HistoryFilter, HistoryPage
from rosters.history.lookups import json_value
from rosters.history.registry import Source
from rosters.history.sentences import tell_later
from rosters.history.sources import EPOCH, Cursor, sort_rank_sql

PAGE_SIZE = 50

# --------------------------------------------------------------------------------------------------------------
# The feed's query
# --------------------------------------------------------------------------------------------------------------


def _scope_ctes(f: HistoryFilter) -> str:
    """Ids that scope the event tables to one campaign (or one warband), deleted rows included: its warbands, their
    fighters, its games, and the contexts written for the filtered game."""
    warband = apps.get_model("rosters.Warband")._meta.db_table
    fighter = apps.get_model("rosters.Fighter")._meta.db_table
    game = apps.get_model("campaigns.Game")._meta.db_table
    players = apps.get_model("campaigns.GamePlayer")._meta.db_table
    wbe, fte, gme, ple = (registry.by_name(n).table for n in ("warband", "fighter", "game", "player"))
    if f.warband_id is not None:
        wb = "SELECT %(w)s::bigint AS id"
    else:
        wb = (
            f"SELECT id FROM {warband} WHERE campaign_id = %(c)s "
            f"UNION SELECT pgh_obj_id FROM {wbe} WHERE pgh_label = 'delete' AND campaign_id = %(c)s"
        )
    if f.warband_id is not None:
        # A warband's games: the tracker's battle report of each is part of its story.
        gm = (
            f"SELECT game_id AS id FROM {players} WHERE warband_id = %(w)s "
            f"UNION SELECT game_id FROM {ple} WHERE warband_id = %(w)s"
        )
    else:
        gm = (
            f"SELECT id FROM {game} WHERE campaign_id = %(c)s "
            f"UNION SELECT pgh_obj_id FROM {gme} WHERE pgh_label = 'delete' AND campaign_id = %(c)s"
        )
    return f"""
        wb AS ({wb}),
        ft AS (
            SELECT id FROM {fighter} WHERE warband_id IN (SELECT id FROM wb)
            UNION SELECT pgh_obj_id FROM {fte} WHERE pgh_label = 'delete' AND warband_id IN (SELECT id FROM wb)
        ),
        gm AS ({gm}),
        gctx AS (SELECT id FROM pghistory_context WHERE metadata->>'game' = %(g)s)"""


def _distinct(columns: Iterable[str]) -> str:
    return " OR ".join(f"e.{column} IS DISTINCT FROM p.{column}" for column in columns)


def _kind_condition(source: Source, kind: str | None) -> str | None:
    """'' keeps every event of the table, a predicate keeps some, None leaves the table out."""
    if kind is None:
        return ""
    if source.kind is not None:
        return "" if source.kind == kind else None
    fields = [column for column, k in source.fields.items() if k == kind]
    row_kind = source.row_kind == kind
    if not fields and not row_kind:
        return None
    parts = []
    if row_kind:
        parts.append("e.pgh_label <> 'update'")
    if fields:
        parts.append(f"(e.pgh_label = 'update' AND ({_distinct(fields)}))")
    return "(" + " OR ".join(parts) + ")"


def _game_condition(source: Source) -> str:
    """Written for the game (its context names it), or a row of the game itself."""
    return f"(e.pgh_context_id IN (SELECT id FROM gctx){source.game_scope()})"


def _cursor_condition(source: Source, cursor: Cursor, older: bool) -> str:
    """Events strictly older (or newer) than the cursor in (time, sort rank, pgh_id) order. The first condition
    alone is served by the (pgh_created_at, pgh_id) index; the second settles the events of the cursor's moment."""
    rank = sort_rank_sql(source)
    if older:
        return (
            f"e.pgh_created_at <= %(cur_at)s AND (e.pgh_created_at < %(cur_at)s"
            f" OR ({rank}, e.pgh_id) < (%(cur_rank)s, %(cur_id)s))"
        )
    return (
        f"e.pgh_created_at >= %(cur_at)s AND (e.pgh_created_at > %(cur_at)s"
        f" OR ({rank}, e.pgh_id) > (%(cur_rank)s, %(cur_id)s))"
    )


_PREV_JOIN = """
    LEFT JOIN LATERAL (
        SELECT * FROM {table} p0
        WHERE p0.pgh_obj_id = e.pgh_obj_id AND (p0.pgh_created_at, p0.pgh_id) < (e.pgh_created_at, e.pgh_id)
        ORDER BY p0.pgh_created_at DESC, p0.pgh_id DESC LIMIT 1
    ) p ON TRUE"""


def _source_select(source: Source, f: HistoryFilter, cursor: Cursor | None, older: bool) -> str | None:
    scope = source.scope(f)
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
    # Each table's own page in the same order as the union's, or a page boundary inside one moment could skip a row.
    rank = sort_rank_sql(source)
    return f"""(
    SELECT {source.rank} AS src, {rank} AS sort_rank, e.pgh_id, e.pgh_created_at, e.pgh_label, e.pgh_obj_id,
        e.pgh_context_id
    FROM {source.table} e{joins}
    WHERE {where}
    ORDER BY e.pgh_created_at {direction}, sort_rank {direction}, e.pgh_id {direction}
    LIMIT %(n)s)"""


def _details_sql(sources: list[Source]) -> str:
    """Each page event's own row, its context and, for an update, the row before it, read only from the tables
    the page holds, each over its own page ids.

    One set-based branch per table: the events by primary key, the previous row of each update by a LATERAL join
    on the (pgh_obj_id, pgh_created_at, pgh_id) order. It is a query of its own, after the page's: written as a
    part of the page's query, it had a branch for every table the filter could reach, and PostgreSQL spent more
    time planning those branches than running the whole query. A CASE of correlated subqueries per row instead made
    PostgreSQL plan two SubPlans per table, each run for every row of the page."""
    return " UNION ALL ".join(
        f"""
        SELECT {s.rank} AS src, x.pgh_id, to_jsonb(x) AS data, before.prev, ctx.metadata
        FROM {s.table} x
        LEFT JOIN LATERAL (
            SELECT to_jsonb(p0) AS prev FROM {s.table} p0
            WHERE x.pgh_label = 'update' AND p0.pgh_obj_id = x.pgh_obj_id
              AND (p0.pgh_created_at, p0.pgh_id) < (x.pgh_created_at, x.pgh_id)
            ORDER BY p0.pgh_created_at DESC, p0.pgh_id DESC LIMIT 1
        ) before ON TRUE
        LEFT JOIN pghistory_context ctx ON ctx.id = x.pgh_context_id
        WHERE x.pgh_id = ANY(%(ids_{s.rank})s)"""
        for s in sources
    )


def _page_rows(f: HistoryFilter, cursor: Cursor | None, older: bool, limit: int) -> list[tuple]:
    """The page's events, (src, pgh_id, pgh_created_at, pgh_label, pgh_obj_id), in the feed's order."""
    selects = [
        sql for s in registry.table_sources() if (sql := _source_select(s, f, cursor, older)) is not None
    ]
    if not selects:
        return []
    direction = "DESC" if older else "ASC"
    sql = f"""
        WITH {_scope_ctes(f)}
        SELECT src, pgh_id, pgh_created_at, pgh_label, pgh_obj_id FROM ({" UNION ALL ".join(selects)}) u
        ORDER BY pgh_created_at {direction}, sort_rank {direction}, pgh_id {direction}
        LIMIT %(n)s
    """
    params: dict[str, Any] = {
        "c": f.campaign_id,
        "w": f.warband_id,
        "f": f.fighter_id,
        "fs": str(f.fighter_id) if f.fighter_id is not None else None,
        "g": str(f.game_id) if f.game_id is not None else None,
        "gi": f.game_id,
        "until": f.until,
        "n": limit,
    }
    if cursor is not None:
        params.update(cur_at=cursor.at, cur_rank=cursor.rank, cur_id=cursor.pgh_id)
    with connection.cursor() as db:
        db.execute(sql, params)
        return db.fetchall()


def _fetch_events(f: HistoryFilter, cursor: Cursor | None, older: bool, limit: int) -> list[tuple]:
    """The page's events, each with its context, its row and the row before it, newest first: two queries, the
    page's events and then their details (`_details_sql`), whatever the page's size."""
    page = _page_rows(f, cursor, older, limit)
    if not page:
        return []
    ids: dict[int, list[int]] = {}
    for src, pgh_id, *_ in page:
        ids.setdefault(src, []).append(pgh_id)
    sources = [registry.by_rank(src) for src in sorted(ids)]
    with connection.cursor() as db:
        db.execute(_details_sql(sources), {f"ids_{src}": pgh_ids for src, pgh_ids in ids.items()})
        details = {(row[0], row[1]): row[2:] for row in db.fetchall()}
    rows = []
    for src, pgh_id, at, label, obj_id in page:
        data, prev, metadata = details.get((src, pgh_id), (None, None, None))
        rows.append(
            (src, pgh_id, at, label, obj_id, json_value(metadata), json_value(data), json_value(prev))
        )
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
    Runs a fixed number of queries whatever the number of events: two for the events (the page, then their rows:
    `_fetch_events`), one for the names the sentences need (`lookups.load_lookups`), one per source that loads
    more of its own.
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
        entries = tell_later(rows, campaign=campaign, kind=filters.kind)
        newest = entries.cursor(0).encode() if entries else after.encode()
        return HistoryPage(entries=entries, older=None, newest=newest, overflow=overflow, read=entries)
    rows = _fetch_events(filters, before, older=True, limit=limit + 1)
    has_more = len(rows) > limit
    entries = tell_later(rows[:limit], campaign=campaign, kind=filters.kind)
    newest = entries.cursor(0).encode() if entries else None
    if before is None and newest is None:
        # An empty history: poll from "now" so the first change arrives. Rank 0 and id 0 sort before any event.
        newest = Cursor(at=EPOCH, rank=0, pgh_id=0).encode()
    return HistoryPage(
        entries=entries,
        older=entries.cursor(-1).encode() if has_more and entries else None,
        newest=newest,
        read=entries,
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
