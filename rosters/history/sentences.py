"""Sentences: each event of a page told by its registered source, with who, why, the game and the roll."""

from __future__ import annotations

from dataclasses import replace

from campaigns.terms import terms_for
from rosters.history import registry
from rosters.history.entries import Change, HistoryEntry
from rosters.history.lookups import Lookups, as_int, load_lookups
from rosters.history.net import net_rows
from rosters.history.registry import EventRow
from rosters.history.sources import Cursor, sort_rank


def _entry(row: EventRow, look: Lookups) -> HistoryEntry:
    source = registry.by_rank(row.src)
    context = row.context or {}
    return HistoryEntry(
        cursor=Cursor(at=row.at, rank=sort_rank(source, row.label), pgh_id=row.pgh_id),
        source=source.name,
        label=row.label,
        obj_id=row.obj_id,
        at=row.at,
        context=context,
        data=row.data or {},
        prev=row.prev,
        who=look.user(context.get("user")),
        action=context.get("action") if isinstance(context.get("action"), str) else None,
        reason=context.get("reason") if isinstance(context.get("reason"), str) else None,
    )


def _link(entry: HistoryEntry, look: Lookups) -> None:
    """The game, warband and fighter an entry belongs to (for grouping, links and roll matching): the game its
    context names, else the one its row belongs to."""
    source = registry.by_name(entry.source)
    row_game = source.links(entry, look)
    game_id = as_int(entry.context.get("game"))
    entry.game = look.game(row_game if game_id is None else game_id)
    if entry.warband_id is not None:
        entry.warband_name = (
            entry.data.get("name") if source.name == "warband" else look.warband(entry.warband_id)
        )
    if entry.fighter_id is not None:
        entry.fighter_name = (
            entry.data.get("name") if source.name == "fighter" else look.fighter(entry.fighter_id)
        )


def _struck(changes: list[Change], entry: HistoryEntry, look: Lookups) -> list[Change]:
    """The changes, each marked undone when a source knows the event was taken back since (a reverted
    post-game's Apply): the history keeps what was done then, struck, instead of telling it beside what stands."""
    undone = next((words for source in registry.sources() if (words := source.undone(entry, look))), "")
    if not undone:
        return changes
    return [change if change.undone else replace(change, undone=undone) for change in changes]


def describe_events(rows: list[tuple], *, campaign, kind: str | None = None) -> list[HistoryEntry]:
    """Turn event rows (as `feed._fetch_events` returns them) into entries with their sentences."""
    rows = net_rows([EventRow(*row) for row in rows])  # a `net` context told as what it changed in the end
    look = load_lookups(rows, terms_for(campaign.preset))
    entries = []
    for row in rows:
        entry = _entry(row, look)
        _link(entry, look)
        changes = registry.by_name(entry.source).tell(entry, look)
        entry.changes = _struck(
            [c for c in changes if kind is None or c.kind == kind] or changes, entry, look
        )
        entries.append(entry)
    return entries
