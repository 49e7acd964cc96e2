"""The roster as of a moment, rebuilt from the last event of each of its rows, and the as-of view's answer."""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import connection

from rosters.history import registry
from rosters.history.lookups import json_value
from rosters.history.moment import AsOfMoment, as_of_moment


def _instance(model_label: str, data: dict):
    """An unsaved model instance holding an event's snapshot, so templates read it like the live row."""
    model = apps.get_model(model_label)
    values = {}
    for model_field in model._meta.concrete_fields:
        if model_field.attname in data:
            values[model_field.attname] = model_field.to_python(data[model_field.attname])
    return model(**values)


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@dataclass
class RosterSnapshot:
    """A warband's roster at one moment, rebuilt from the last event of each of its rows at or before it."""

    at: dt.datetime
    warband: Any  # an unsaved rosters.Warband, or None if the warband did not exist yet
    fighters: (
        list  # unsaved rosters.Fighter, each with .injuries_then, .battlekit_then and .skills_then lists
    )
    arsenal: list  # unsaved rosters.Item held by no fighter
    locations: list = field(default_factory=list)  # unsaved rosters.FoundLocation (RULING E-4)

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
                    "skills": [_fields(k) for k in f.skills_then],
                }
                for f in self.fighters
            ],
            "arsenal": [_fields(i) for i in self.arsenal],
            "locations": [_fields(location) for location in self.locations],
        }


def roster_state(warband) -> dict:
    """The live roster in the shape of `RosterSnapshot.state()` (tests compare the two)."""
    warband = type(warband).objects.get(pk=warband.pk)
    fighters = list(warband.fighters.order_by("id").prefetch_related("injuries", "battlekit", "skills"))
    return {
        "warband": _fields(warband),
        "fighters": [
            {
                **_fields(f),
                "injuries": [_fields(i) for i in sorted(f.injuries.all(), key=lambda i: i.pk)],
                "battlekit": [_fields(i) for i in sorted(f.battlekit.all(), key=lambda i: i.pk)],
                "skills": [_fields(k) for k in sorted(f.skills.all(), key=lambda k: k.pk)],
            }
            for f in fighters
        ],
        "arsenal": [_fields(i) for i in warband.items.filter(fighter__isnull=True).order_by("id")],
        "locations": [_fields(location) for location in warband.locations.order_by("id")],
    }


def _members(name: str, table: str, column: str, start: str) -> str:
    """`name`: the ids of the rows whose events have `column` = a value of `start` (a query of `owner`s), read
    by skipping through the (column, pgh_obj_id) index one row id at a time (a loose index scan, recursive), so
    the cost is one index probe per row ever held, never one per event: a fighter whose XP changed ten thousand
    times after the moment costs what one that never changed does (the as-of page)."""
    return f"""
        {name}_pairs AS (
            SELECT first.* FROM ({start}) owners CROSS JOIN LATERAL (
                SELECT e.{column} AS owner, e.pgh_obj_id AS id FROM {table} e
                WHERE e.{column} = owners.owner ORDER BY e.pgh_obj_id LIMIT 1
            ) first
            UNION ALL
            SELECT next.* FROM {name}_pairs p CROSS JOIN LATERAL (
                SELECT e.{column} AS owner, e.pgh_obj_id AS id FROM {table} e
                WHERE e.{column} = p.owner AND e.pgh_obj_id > p.id ORDER BY e.pgh_obj_id LIMIT 1
            ) next
        ),
        {name} AS (SELECT DISTINCT id FROM {name}_pairs)"""


def _snapshot_sql(op: str) -> str:
    """For each fighter, item, injury, skill and Location that ever belonged to the warband (a loose scan of the
    (warband_id or fighter_id, pgh_obj_id) indexes, `_members`), the last event at or before the moment (the
    (pgh_obj_id, pgh_created_at, pgh_id) indexes); rows that did not exist yet, were deleted, or were in another
    warband then drop out. Neither other warbands' events nor the warband's own after the moment are read."""
    fe, ie, je, we = (registry.by_name(n).table for n in ("fighter", "item", "injury", "warband"))
    le = registry.by_name("found_location").table
    ke = registry.by_name("skill").table

    def last(table: str, ids: str, extra: str) -> str:
        return f"""
            SELECT last.row FROM {ids} CROSS JOIN LATERAL (
                SELECT to_jsonb(e) AS row, e.pgh_label FROM {table} e
                WHERE e.pgh_obj_id = {ids}.id AND e.pgh_created_at {op} %(t)s
                ORDER BY e.pgh_created_at DESC, e.pgh_id DESC LIMIT 1
            ) last WHERE last.pgh_label <> 'delete' AND {extra}"""

    held = "(last.row->>'fighter_id')::bigint IN (SELECT (row->>'id')::bigint FROM fighters)"
    warband = "SELECT %(w)s::bigint AS owner"
    on_roster = "SELECT DISTINCT (row->>'id')::bigint AS owner FROM fighters"
    return f"""
        WITH RECURSIVE {_members("f_ids", fe, "warband_id", warband)},
        fighters AS ({last(fe, "f_ids", "(last.row->>'warband_id')::bigint = %(w)s")}),
        {_members("i_ids", ie, "warband_id", warband)},
        items AS ({last(ie, "i_ids", "(last.row->>'warband_id')::bigint = %(w)s")}),
        {_members("j_ids", je, "fighter_id", on_roster)},
        injuries AS ({last(je, "j_ids", held)}),
        {_members("l_ids", le, "warband_id", warband)},
        locations AS ({last(le, "l_ids", "(last.row->>'warband_id')::bigint = %(w)s")}),
        {_members("k_ids", ke, "fighter_id", on_roster)},
        skills AS ({last(ke, "k_ids", held)})
        SELECT 'warband', (
            SELECT to_jsonb(e) FROM {we} e WHERE e.pgh_obj_id = %(w)s AND e.pgh_created_at {op} %(t)s
            ORDER BY e.pgh_created_at DESC, e.pgh_id DESC LIMIT 1)
        UNION ALL SELECT 'fighter', row FROM fighters
        UNION ALL SELECT 'item', row FROM items
        UNION ALL SELECT 'injury', row FROM injuries
        UNION ALL SELECT 'location', row FROM locations
        UNION ALL SELECT 'skill', row FROM skills
    """


_MODELS = {
    "warband": "rosters.Warband",
    "fighter": "rosters.Fighter",
    "item": "rosters.Item",
    "injury": "rosters.Injury",
    "location": "rosters.FoundLocation",
    "skill": "rosters.Skill",
}


def _assemble(at: dt.datetime, rows: list[tuple]) -> RosterSnapshot:
    warband, found = None, {"fighter": [], "item": [], "injury": [], "location": [], "skill": []}
    for kind, data in rows:
        data = json_value(data)
        if data is None:
            continue
        if kind == "warband":
            warband = None if data.get("pgh_label") == "delete" else _instance(_MODELS[kind], data)
        else:
            found[kind].append(_instance(_MODELS[kind], data))
    fighters = sorted(found["fighter"], key=lambda f: f.pk)
    by_id = {f.pk: f for f in fighters}
    for fighter in fighters:
        fighter.injuries_then, fighter.battlekit_then, fighter.skills_then = [], [], []
    for injury in sorted(found["injury"], key=lambda i: i.pk):
        by_id[injury.fighter_id].injuries_then.append(injury)
    for skill in sorted(found["skill"], key=lambda k: k.pk):
        by_id[skill.fighter_id].skills_then.append(skill)
    arsenal = []
    for item in sorted(found["item"], key=lambda i: i.pk):
        holder = by_id.get(item.fighter_id)
        if holder is not None:
            holder.battlekit_then.append(item)
        else:
            # Held by a fighter who is not on the roster (any more): as far as the roster goes, in the Arsenal.
            item.fighter_id = None
            arsenal.append(item)
    locations = sorted(found["location"], key=lambda location: location.pk)
    return RosterSnapshot(at=at, warband=warband, fighters=fighters, arsenal=arsenal, locations=locations)


def roster_snapshot(*, warband_id: int, at: dt.datetime, inclusive: bool = True) -> RosterSnapshot:
    """The roster as the event tables say it was at `at` (or just before it, when not `inclusive`), in one query."""
    with connection.cursor() as db:
        db.execute(_snapshot_sql("<=" if inclusive else "<"), {"w": warband_id, "t": at})
        return _assemble(at, db.fetchall())


@dataclass
class RosterAsOf:
    moment: AsOfMoment
    snapshot: RosterSnapshot | None


def roster_as_of(*, warband, game) -> RosterAsOf:
    """The warband as it stood right after the game's post-game (or its recording): the as-of view."""
    moment = as_of_moment(warband=warband, game=game)
    if moment.at is None:
        return RosterAsOf(moment=moment, snapshot=None)
    return RosterAsOf(moment=moment, snapshot=roster_snapshot(warband_id=warband.pk, at=moment.at))
