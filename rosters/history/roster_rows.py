"""What the roster's sources share (roster_events.py, kit_events.py, and the campaign's and Locations' sources):
the warband scope of a feed query, an event's two rows, and the warband an entry's fighter is in."""

from __future__ import annotations

from rosters.history.entries import HistoryEntry, HistoryFilter
from rosters.history.lookups import Lookups, as_int
from rosters.history.registry import EventRow


def in_warbands(f: HistoryFilter) -> str:
    return "e.warband_id = %(w)s" if f.warband_id is not None else "e.warband_id IN (SELECT id FROM wb)"


def event_rows(row: EventRow) -> tuple[dict, dict]:
    return row.data or {}, row.prev or {}


def fighter_warband(entry: HistoryEntry, look: Lookups) -> None:
    if entry.fighter_id in look.fighters:
        entry.warband_id = as_int(look.fighters[entry.fighter_id].get("warband_id"))
