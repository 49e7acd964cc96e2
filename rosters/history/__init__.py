"""The campaign's history, read from django-pghistory's event tables (docs/architecture.md, History).

Every tracked model (`campaigns/tracking.py`) has a generated `*Event` model whose rows are full snapshots written by
database triggers, each tied to a `pghistory.Context` row holding the `action`, `reason`, `game`, `warband`,
`fighter`, `roll`, `step` and `user` a service or the request set (BRIEF, history context contract). This package
turns those rows into what a player reads:

- `feed.history_page()` — the feed: sentences such as "Brother Marcus suffered Hand Wound (D66 14) — post-game
  of Game 3, rolled by Bob on the server", newest first, filtered by warband, fighter, game and kind of change,
  paginated by keyset over `(pgh_created_at, source rank, pgh_id)`. A change is the difference between an update
  event and the previous event of the same object.
- `snapshot.roster_as_of()` — a warband exactly as it stood right after a game's post-game (or right after the
  game was recorded, if its post-game is not applied), rebuilt from the last event of each object at that moment.
- `game_changes.game_changes()` — what changed for a warband in a game: fighters added or lost, XP, Injuries,
  Scars, Battlekit moves, the Strongbox.

It knows only the tables that register with it (`registry`): each app describes its own events in a `Source` and
registers it from its `AppConfig.ready()`; rosters registers the roster's and the campaign's. A source outside
this package uses only public names: the registry's `Source`, `EventRow`, `LookupPart`, `Ids`, the `Teller`, and
the readers of a raw row in `lookups` (`as_int`, `as_ints`, `json_value`); no module imports another's private
name (tests/test_architecture.py).

Why not `pghistory.models.Events` for the feed: its common table expression unions every event table with a
`row_to_json` and a previous-row lookup per event before any filter or limit applies, so its cost grows with the
whole history; the feed must stay fast with 100,000 events (Speed). The queries here read the same
generated event models, scoped to one campaign and limited per table before the union, and compute the diff only
for the rows of the page: one query finds the page's events, a second reads their rows, contexts and previous rows
from only the tables the page holds (a single query naming every table cost more to plan than to run). The
indexes they rely on are in `rosters/migrations/*history_indexes*`. The feed's groups are kept as HTML under a
digest of what they show (`entries.HistoryPage.digest`): lines read again unchanged are not drawn again.

The fighter and warband timelines are the same feed with a fixed filter, for the same reason. Measured on the
bench's 100,000 events (bench/bench_history.py): `Events.objects.references(fighter)` across the fighter's four
tables, newest 51 with their data and diffs, took 141 ms and `references(warband)` 3 s, where the timeline's own
query takes 21 ms and 14 ms; with only the event ids it took 11 ms, but a timeline also holds what `references`
cannot say (a piece of Battlekit moved away from the fighter, the board's actions whose context names it, the
order inside one moment, the kinds of change), so it would read the rows a second time to tell them.

The modules, in the order a page is made:

- `registry` — the sources: which event tables are read, how their events are scoped, named and told;
- `sources` — the order of one transaction's events, the kinds of change, the cursors;
- `entries` — the filter, and the entries, sentences, groups and pages the feed returns;
- `feed` — the keyset query over the registered event tables and the page's rows, `history_page()`,
  `iter_history()`;
- `lookups` — the names the sentences need, in one query per page;
- `sentences`, `teller` — each event told as sentences (`describe_events()`) by its source;
- `roster_events`, `kit_events`, `campaign_events`, `location_events`, `report_events` — the sources rosters
  registers (`roster_rows`: what the roster's share);
- `moment`, `snapshot`, `game_changes` — the as-of view;
- `selectors`, `forms` — what the history pages read and the feed's filter form.

Callers import the module they need (`from rosters.history.feed import history_page`).
"""
