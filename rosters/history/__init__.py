"""The campaign's history, read from django-pghistory's event tables (ARCHITECTURE.md, History).

Every tracked model (`campaigns/tracking.py`) has a generated `*Event` model whose rows are full snapshots written by
database triggers, each tied to a `pghistory.Context` row holding the `action`, `reason`, `game`, `warband`,
`fighter`, `roll`, `step` and `user` a service or the request set (BRIEF, history context contract). This package
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
history; the feed must stay fast with 100,000 events (issue 6, Speed). The queries here read the same generated
event models, scoped to one campaign and limited per table before the union, and compute the diff only for the
rows of the page. The indexes they rely on are in `rosters/migrations/*history_indexes*`.

The modules, in the order a page is made:

- `sources` — the event tables read, the kinds of change, the cursors;
- `entries` — the filter, and the entries, sentences, groups and pages the feed returns;
- `feed` — the keyset query over the event tables, `history_page()`, `iter_history()`;
- `lookups` — the names the sentences need, in one query per page;
- `sentences` — each event told as sentences (`describe_events()`);
- `as_of` — `roster_as_of()`, `roster_snapshot()`, `game_changes()`.

Callers import from `rosters.history` only; the names below are its public face.
"""

from rosters.history.as_of import (
    MOMENT_ACTIONS,
    RECORD_ACTIONS,
    AsOfMoment,
    GameChanges,
    ItemMove,
    RosterAsOf,
    RosterSnapshot,
    ValueChange,
    as_of_moment,
    game_changes,
    roster_as_of,
    roster_snapshot,
    roster_state,
)
from rosters.history.entries import (
    Change,
    GameRef,
    HistoryEntry,
    HistoryFilter,
    HistoryGroup,
    HistoryPage,
    group_by_game,
)
from rosters.history.feed import PAGE_SIZE, history_page, iter_history
from rosters.history.lookups import display_name
from rosters.history.sentences import (
    GAME_STATUS,
    RESULTS,
    ROLES,
    ROLL_PURPOSES,
    STAT_LABELS,
    STATUS_SENTENCES,
    describe_events,
)
from rosters.history.sources import (
    FIGHTER_FIELDS,
    KINDS,
    ROW_KIND,
    SOURCE_BY_NAME,
    SOURCE_BY_RANK,
    SOURCE_KIND,
    SOURCES,
    UPDATE_FIELDS,
    WARBAND_FIELDS,
    BadCursor,
    Cursor,
    kind_choices,
)

__all__ = [
    "FIGHTER_FIELDS",
    "GAME_STATUS",
    "KINDS",
    "MOMENT_ACTIONS",
    "PAGE_SIZE",
    "RECORD_ACTIONS",
    "RESULTS",
    "ROLES",
    "ROLL_PURPOSES",
    "ROW_KIND",
    "SOURCES",
    "SOURCE_BY_NAME",
    "SOURCE_BY_RANK",
    "SOURCE_KIND",
    "STATUS_SENTENCES",
    "STAT_LABELS",
    "UPDATE_FIELDS",
    "WARBAND_FIELDS",
    "AsOfMoment",
    "BadCursor",
    "Change",
    "Cursor",
    "GameChanges",
    "GameRef",
    "HistoryEntry",
    "HistoryFilter",
    "HistoryGroup",
    "HistoryPage",
    "ItemMove",
    "RosterAsOf",
    "RosterSnapshot",
    "ValueChange",
    "as_of_moment",
    "describe_events",
    "display_name",
    "game_changes",
    "group_by_game",
    "history_page",
    "iter_history",
    "kind_choices",
    "roster_as_of",
    "roster_snapshot",
    "roster_state",
]
