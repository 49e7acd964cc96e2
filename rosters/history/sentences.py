"""Sentences: each event of a page told by its registered source, with who, why, the game and the roll."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from functools import cache, cached_property
from pathlib import Path

from django.apps import apps
from django.conf import settings

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
    return list(tell_later(rows, campaign=campaign, kind=kind))


@cache
def telling_version() -> str:
    """A digest of the code that tells the sentences (every app of the project: each registers its own sources),
    part of `Told.key`: a release that words a sentence anew never meets lines kept from the one before."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(settings.BASE_DIR).resolve()
    for app in sorted(apps.get_app_configs(), key=lambda app: app.path):
        path = Path(app.path).resolve()
        if not path.is_relative_to(root):
            continue
        for source in sorted(path.rglob("*.py")):
            if "tests" not in source.parts and "migrations" not in source.parts:
                digest.update(source.read_bytes())
    return digest.hexdigest()


class Told(Sequence):
    """A page's entries, read (its events and every name they use: the queries run here) but told only when
    something reads them: a page whose lines are kept (templates/rosters/history_parts.html#history-groups) is
    never told at all.

    `key` is a digest of everything the sentences are made of: the events as read (their rows, the rows before
    them and their contexts), the names and the sources' own state as read for them (`Lookups`), the campaign's
    words, the kind of change filtered and the code that tells them. Lines are a function of these alone (telling
    reads nothing else), so the same key gives the same lines; a renamed fighter, an undo, a voided roll each
    changes what was read, and so the key."""

    def __init__(self, rows: list[tuple], *, campaign, kind: str | None = None):
        events = [EventRow(*row) for row in rows]
        self.rows = net_rows(events)  # a `net` context told as what it changed in the end
        self.kind = kind
        self.look = load_lookups(self.rows, terms_for(campaign.preset))
        self._read = (campaign.preset, events)

    @cached_property
    def key(self) -> str:
        preset, events = self._read
        read = (telling_version(), preset, self.kind, events, self.look)
        return hashlib.blake2b(repr(read).encode(), digest_size=16).hexdigest()

    def cursor(self, index: int) -> Cursor:
        """The cursor of the entry at `index`, without telling it (as `_entry` makes it)."""
        row = self.rows[index]
        return Cursor(at=row.at, rank=sort_rank(registry.by_rank(row.src), row.label), pgh_id=row.pgh_id)

    @cached_property
    def entries(self) -> list[HistoryEntry]:
        return _tell(self.rows, self.look, self.kind)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        return self.entries[index]

    def __iter__(self):
        return iter(self.entries)

    def __eq__(self, other) -> bool:
        return list(self.entries) == (list(other) if isinstance(other, Sequence) else other)

    __hash__ = None


def tell_later(rows: list[tuple], *, campaign, kind: str | None = None) -> Told:
    """The page's entries read now (every query), told when first read (`Told`)."""
    return Told(rows, campaign=campaign, kind=kind)


def _tell(rows: list[EventRow], look: Lookups, kind: str | None) -> list[HistoryEntry]:
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
