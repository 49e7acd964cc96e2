"""The roster as of a game, rebuilt from the event tables, and what the game changed in it."""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import connection

from campaigns.terms import terms_for
from rosters.history.entries import HistoryEntry, HistoryFilter
from rosters.history.feed import history_page
from rosters.history.lookups import _json, _rows_by_id
from rosters.history.sources import SOURCE_BY_NAME, SOURCES

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
        at=recorded_at or game_recorded,
        applied=False,
        reverted=reverted_at is not None,
        played=played,
        in_progress=game.status == "in_progress",
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
    # A game still being played: its story so far is the tracker's, written after the moment it started.
    until = None if moment.in_progress else moment.at
    story_filter = HistoryFilter(
        campaign_id=warband.campaign_id, warband_id=warband.pk, game_id=game.pk, until=until
    )
    changes.story = history_page(campaign=warband.campaign, filters=story_filter, limit=200).entries
    return changes
