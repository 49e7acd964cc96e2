"""What the feed returns: the filter it reads with, and the entries, sentences, groups and pages it gives."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rosters.history.sources import KINDS, Cursor

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
    status: str = ""  # campaigns.Game.Status: "in_progress" while it is played on the tracker

    @property
    def in_progress(self) -> bool:
        return self.status == "in_progress"

    @property
    def title(self) -> str:
        return f"Game {self.number}" if self.number is not None else "A deleted game"


@dataclass(frozen=True)
class Change:
    """One sentence of the history: a kind of change, with who and why."""

    kind: str
    text: str  # the change alone: "Brother Marcus gained 2 XP (now 7)"
    sentence: str  # with reason, game and roll: "... — post-game of Game 3, rolled by Bob on the server"
    undone: str = ""  # an action on the tracker that was undone since: "undone by Bob"

    @property
    def told(self) -> str:
        """The sentence with its undo, where there is one (the CSV's words)."""
        return f"{self.sentence} [{self.undone}]" if self.undone else self.sentence


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

    folded = False  # one event's own lines (a `HistoryFold` holds several events')


# The actions whose many lines read as one thing done ("a history revert folds its lines under one
# entry"): a revert takes back every change of a post-game, and the feed shows it as one line that opens.
FOLDED_ACTIONS = {"post_game.revert": "undone"}


@dataclass
class HistoryFold:
    """The entries of one transaction of a folded action, shown as one line that opens on its sentences."""

    action: str
    entries: list[HistoryEntry]
    folded = True

    @property
    def first(self) -> HistoryEntry:
        return self.entries[0]

    @property
    def at(self) -> dt.datetime:
        return self.first.at

    @property
    def changes(self) -> list[Change]:
        return [change for entry in self.entries for change in entry.changes]

    @property
    def title(self) -> str:
        """ "Post-game of Game 3 undone by Pat: 4 changes taken back"."""
        game = self.first.game
        what = f"Post-game of {game.title}" if game is not None else "A post-game"
        who = f" by {self.first.who}" if self.first.who else ""
        count = len(self.changes)
        return (
            f"{what} {FOLDED_ACTIONS[self.action]}{who}: {count} change{'' if count == 1 else 's'} taken back"
        )


def _fold_key(entry: HistoryEntry) -> tuple | None:
    """The events of one folded action share its context (who, why, the game, the rolls: the same service call)
    and its moment; none of another call shares both."""
    if entry.action not in FOLDED_ACTIONS:
        return None
    game = entry.game.id if entry.game else None
    return (entry.action, entry.at, game, json.dumps(entry.context, sort_keys=True, default=str))


def fold(entries: Iterable[HistoryEntry]) -> list[HistoryEntry | HistoryFold]:
    """The entries in order, the events of each folded action's call (two or more) as one fold where the first of
    them stands; every other entry as it is."""
    entries = list(entries)
    runs: dict[tuple, list[HistoryEntry]] = {}
    for entry in entries:
        key = _fold_key(entry)
        if key is not None:
            runs.setdefault(key, []).append(entry)
    items: list[HistoryEntry | HistoryFold] = []
    for entry in entries:
        run = runs.get(_fold_key(entry)) if _fold_key(entry) is not None else None
        if run is None or len(run) == 1:
            items.append(entry)
        elif run[0] is entry:
            items.append(HistoryFold(action=entry.action or "", entries=run))
    return items


@dataclass
class HistoryGroup:
    """Consecutive entries of one game (or between games), for the feed's headings."""

    game: GameRef | None
    entries: list[HistoryEntry]

    @property
    def items(self) -> list[HistoryEntry | HistoryFold]:
        """The entries as the feed lists them: a revert's lines folded under one (`fold`)."""
        return fold(self.entries)


@dataclass
class HistoryPage:
    entries: list[HistoryEntry]
    older: str | None  # cursor of the next (older) page, None on the last page
    newest: str | None  # cursor of the newest entry shown, for polling
    overflow: bool = False  # polling found more new entries than one page holds
    read: Any = None  # what the feed told its entries from (sentences.Told), when it read them

    @property
    def groups(self) -> list[HistoryGroup]:
        return group_by_game(self.entries)

    @cached_property
    def digest(self) -> str:
        """A digest of everything the feed's groups show of this page: each game heading's game, each line's
        fold, moment, kind, sentence and undo. The groups' HTML is cached under it
        (templates/rosters/history_parts.html#history-groups): a sentence never changes once told, unless a name
        it uses or its undo does, and then so does the digest. It is computed from the page already read, so it
        costs no query, and it shows a reader nothing the feed did not just read for them.

        A page read by the feed knows a digest of what its lines are told from (`read`, `sentences.Told.key`):
        the same lines, known before telling them, so a page whose lines are kept is never told."""
        if self.read is not None:
            return self.read.key
        digest = hashlib.blake2b(digest_size=16)
        for group in self.groups:
            game = group.game
            shown = (
                None if game is None else (game.id, game.number, game.played_on, game.scenario, game.status)
            )
            digest.update(repr(("group", shown)).encode())
            for item in group.items:
                changes = [(c.kind, c.sentence, c.undone) for c in item.changes]
                title = item.title if item.folded else ""
                digest.update(repr((item.folded, title, item.at.isoformat(), changes)).encode())
        return digest.hexdigest()


def group_by_game(entries: Iterable[HistoryEntry]) -> list[HistoryGroup]:
    groups: list[HistoryGroup] = []
    for entry in entries:
        game_id = entry.game.id if entry.game else None
        if groups and (groups[-1].game.id if groups[-1].game else None) == game_id:
            groups[-1].entries.append(entry)
        else:
            groups.append(HistoryGroup(game=entry.game, entries=[entry]))
    return groups
