"""What the feed returns: the filter it reads with, and the entries, sentences, groups and pages it gives."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

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
