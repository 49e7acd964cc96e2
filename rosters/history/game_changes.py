"""What one game changed for a warband, netted over all its writes (apply and undo included), with its story."""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (ids, times, cursors) is passed as a query parameter.
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import connection

from campaigns.terms import Terms, terms_for
from rosters.history import registry
from rosters.history.entries import HistoryEntry, HistoryFilter
from rosters.history.feed import history_page
from rosters.history.lookups import json_value, rows_by_id
from rosters.history.moment import AsOfMoment, as_of_moment


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
    destination: str  # a fighter's name, "the Arsenal", or "" when the item left the roster
    sold: bool = False  # it left the roster because it was sold (the Hire & Trade step), not lost


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
    skills_added: list[ValueChange] = field(default_factory=list)  # name = fighter, after = skill
    skills_removed: list[ValueChange] = field(default_factory=list)
    battlekit: list[ItemMove] = field(default_factory=list)
    strongbox: ValueChange | None = None
    glory: ValueChange | None = None
    crew_xp: ValueChange | None = None
    locations_found: list[str] = field(default_factory=list)  # RULING E-4: found by the game's Exploration
    locations_lost: list[str] = field(default_factory=list)  # struck off again (a revert, a correction)
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
                self.skills_added,
                self.skills_removed,
                self.battlekit,
                self.strongbox,
                self.glory,
                self.crew_xp,
                self.locations_found,
                self.locations_lost,
            )
        )


def _game_events(*, warband_id: int, game_id: int, until: dt.datetime) -> list[tuple]:
    """The warband's roster events written in the game's context (or tied to it by an Injury's game)."""
    fe, ie, je, we = (registry.by_name(n).table for n in ("fighter", "item", "injury", "warband"))
    le = registry.by_name("found_location").table
    ke = registry.by_name("skill").table
    fighter = apps.get_model("rosters.Fighter")._meta.db_table

    def select(name: str, table: str, scope: str, own: str = "") -> str:
        return f"""
            SELECT '{name}', e.pgh_obj_id, e.pgh_created_at, e.pgh_id, e.pgh_label, to_jsonb(e),
                (SELECT to_jsonb(p) FROM {table} p
                 WHERE p.pgh_obj_id = e.pgh_obj_id AND (p.pgh_created_at, p.pgh_id) < (e.pgh_created_at, e.pgh_id)
                 ORDER BY p.pgh_created_at DESC, p.pgh_id DESC LIMIT 1),
                (SELECT c.metadata->'sold' FROM pghistory_context c WHERE c.id = e.pgh_context_id)
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
        UNION ALL {select("location", le, "e.warband_id = %(w)s", " OR e.game_id = %(gi)s")}
        UNION ALL {select("skill", ke, "e.fighter_id IN (SELECT id FROM ft)", " OR e.game_id = %(gi)s")}
        ORDER BY 3, 4
    """
    with connection.cursor() as db:
        db.execute(sql, {"w": warband_id, "g": str(game_id), "gi": game_id, "t": until})
        return db.fetchall()


Key = tuple[str, int]


def _first_and_last(rows: list[tuple]) -> tuple[dict[Key, dict | None], dict[Key, dict | None], set[int]]:
    """Each row's state before the game's first write to it (None: it did not exist) and after its last, and the
    items whose last write deleted them in a write that sold them (its context's `sold`)."""
    first: dict[Key, dict | None] = {}
    last: dict[Key, dict | None] = {}
    sold: set[int] = set()
    for name, obj_id, _at, _pgh_id, label, data, prev, sold_ids in rows:
        data, prev, sold_ids = json_value(data), json_value(prev), json_value(sold_ids)
        key = (name, obj_id)
        if key not in first:
            first[key] = None if label == "insert" else (prev if label == "update" else data)
        last[key] = None if label == "delete" else data
        if name == "item":
            sold.discard(obj_id)
            if label == "delete" and isinstance(sold_ids, list) and obj_id in sold_ids:
                sold.add(obj_id)
    return first, last, sold


def _fighter_names(first: dict, last: dict) -> dict[int, str]:
    fighter_ids = {k[1] for k in first if k[0] == "fighter"}
    for key in first:
        for row in (first[key], last[key]):
            if row and key[0] in ("item", "injury", "skill") and row.get("fighter_id"):
                fighter_ids.add(row["fighter_id"])
    return {i: r["name"] for i, r in rows_by_id("rosters.Fighter", "fighter", fighter_ids).items()}


def _fighter(changes: GameChanges, before: dict | None, after: dict | None, statuses: dict) -> None:
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
    if before is None or after is None:
        return
    for column, bucket in (("xp", changes.xp), ("battle_scars", changes.scars)):
        old, new = before.get(column, 0), after.get(column, 0)
        if old != new:
            bucket.append(ValueChange(who, old, new))


def _injury(changes: GameChanges, before: dict | None, after: dict | None, names: dict) -> None:
    row = after or before or {}
    fighter = names.get(row.get("fighter_id"), "a fighter")
    if before is None and after is not None:
        changes.injuries_added.append(ValueChange(fighter, None, row.get("name")))
    elif before is not None and after is None:
        changes.injuries_removed.append(ValueChange(fighter, row.get("name"), None))


def _skill(changes: GameChanges, before: dict | None, after: dict | None, names: dict) -> None:
    row = after or before or {}
    fighter = names.get(row.get("fighter_id"), "a fighter")
    if before is None and after is not None:
        changes.skills_added.append(ValueChange(fighter, None, row.get("name")))
    elif before is not None and after is None:
        changes.skills_removed.append(ValueChange(fighter, row.get("name"), None))


def _item(
    changes: GameChanges, before: dict | None, after: dict | None, names: dict, terms: Terms, *, sold: bool
) -> None:
    def holder(row) -> str:
        if row is None:
            return ""
        fighter_id = row.get("fighter_id")
        return f"the {terms.arsenal}" if fighter_id is None else names.get(fighter_id, "a fighter")

    if holder(before) != holder(after) or (before is None) != (after is None):
        item = (after or before or {}).get("name", "an item")
        changes.battlekit.append(ItemMove(item, holder(before), holder(after), sold=sold and after is None))


def _warband(changes: GameChanges, before: dict | None, after: dict | None) -> None:
    if before is None or after is None:
        return
    for column in ("strongbox", "glory", "crew_xp"):
        if before.get(column) != after.get(column):
            setattr(changes, column, ValueChange(column, before.get(column), after.get(column)))


def _location(changes: GameChanges, before: dict | None, after: dict | None) -> None:
    name = (after or before or {}).get("name", "a Location")
    if before is None and after is not None:
        changes.locations_found.append(name)
    elif before is not None and after is None:
        changes.locations_lost.append(name)


def _story(*, warband, game, moment: AsOfMoment) -> list[HistoryEntry]:
    # A game still being played: its story so far is the tracker's, written after the moment it started.
    until = None if moment.in_progress else moment.at
    story_filter = HistoryFilter(
        campaign_id=warband.campaign_id, warband_id=warband.pk, game_id=game.pk, until=until
    )
    return history_page(campaign=warband.campaign, filters=story_filter, limit=200).entries


def game_changes(*, warband, game, moment: AsOfMoment | None = None, campaign=None) -> GameChanges:
    """What the game changed on the warband's roster, up to the as-of moment, with the story behind it."""
    moment = moment or as_of_moment(warband=warband, game=game)
    changes = GameChanges()
    if moment.at is None:
        return changes
    first, last, sold = _first_and_last(_game_events(warband_id=warband.pk, game_id=game.pk, until=moment.at))
    terms = terms_for(game.campaign.preset if campaign is None else campaign.preset)
    names = _fighter_names(first, last)
    statuses = dict(apps.get_model("rosters.Fighter").Status.choices)
    for (name, obj_id), before in first.items():
        after = last[(name, obj_id)]
        if name == "fighter":
            _fighter(changes, before, after, statuses)
        elif name == "injury":
            _injury(changes, before, after, names)
        elif name == "skill":
            _skill(changes, before, after, names)
        elif name == "item":
            _item(changes, before, after, names, terms, sold=obj_id in sold)
        elif name == "warband":
            _warband(changes, before, after)
        elif name == "location":
            _location(changes, before, after)
    changes.story = _story(warband=warband, game=game, moment=moment)
    return changes
