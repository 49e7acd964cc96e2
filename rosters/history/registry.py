"""The history's registry: each app says which of its event tables the history reads and how they read.

The feed, the timelines and the as-of view (the rest of this package) know no app's tables by themselves. An
app describes its own events in a `Source` and registers it from its `AppConfig.ready()`:

- `rosters` registers the roster's tables and the campaign's (`rosters/history/roster_events.py`,
  `kit_events.py`, `campaign_events.py`): `campaigns` sits below `rosters` and may not import it, so `rosters`
  tells its tables;
- an app above `rosters` registers its own, from its own module, and nothing here names them.

A source may read an event table (`event_label`: the feed pages through it), add names to the page's one lookup
query (`lookup_parts`), load what its sentences need in one query of its own (`load`), tell its events
(`tell`), and add to what other sources' events say (`explain`, `follow_up`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from django.apps import apps

if TYPE_CHECKING:
    import datetime as dt

    from rosters.history.entries import Change, HistoryEntry, HistoryFilter
    from rosters.history.lookups import Lookups

Ids = dict[str, set]  # kind of name ("users", "fighters", "rolls", ...) -> the ids a page's sentences name


class EventRow(NamedTuple):
    """One event as the feed's query returns it: the source's rank, the event, its context, its previous row."""

    src: int
    pgh_id: int
    at: dt.datetime
    label: str  # insert / update / delete
    obj_id: int
    context: dict | None
    data: dict | None
    prev: dict | None


@dataclass(frozen=True)
class LookupPart:
    """A kind of name a source keeps in its own tables, read in the page's one lookup query.

    `sql` is one `SELECT '<kind>', id, jsonb` branch of the query's UNION ALL; `fighters`, when set, is a
    `SELECT` of more fighter ids the page names (e.g. who made a roll); `params` gives the query parameters from
    the page's ids; `read` stores the rows found (id -> data) on the page's lookups.
    """

    kind: str
    sql: str
    params: Callable[[Ids], dict]
    read: Callable[[dict[int, dict], Lookups], None]
    fighters: str = ""


class Source:
    """How one app's events read as history. Subclass it, override what applies, register an instance."""

    name: str = ""
    event_label: str | None = (
        None  # the pghistory event model the feed reads; None: a source of sentences only
    )
    rank: int = 0  # the order of its events inside one transaction (see `sources.sort_rank`)
    kind: str | None = None  # every event of the table is this kind of change
    fields: Mapping[str, str] = {}  # else: the kind of each changed column of an update ...
    row_kind: str | None = None  # ... and of an insert or delete
    holder_level: int | None = None  # 0, 1, 2 for the rows that hold the others (campaign, warband, fighter)

    @property
    def model(self):
        return apps.get_model(self.event_label)

    @property
    def table(self) -> str:
        return self.model._meta.db_table

    # -- the feed's query ---------------------------------------------------------------------------------------

    def scope(self, f: HistoryFilter) -> str | None:
        """The WHERE clause over the event row `e` that keeps this table's events in the filter's scope (the CTEs
        `wb`, `ft`, `gm` and the parameters of `feed._fetch_events` are there to use); None leaves it out."""
        return None

    def game_scope(self) -> str:
        """More of the table's events that belong to the filtered game (`%(gi)s`), beyond its context's."""
        return ""

    # -- the names and what else the sentences need --------------------------------------------------------------

    def collect(self, row: EventRow, ids: Ids) -> None:
        """Add the ids one of this source's own events names."""

    def load(self, rows: list[EventRow], ids: Ids) -> Any:
        """Read what this source's sentences need for the page (one query at most, none when the page needs
        nothing), adding the ids it names; the result is `Lookups.state[name]`. Called for every page."""
        return None

    def lookup_parts(self) -> Iterable[LookupPart]:
        return ()

    # -- the sentences ------------------------------------------------------------------------------------------

    def links(self, entry: HistoryEntry, look: Lookups) -> int | None:
        """Set the entry's fighter and warband; return the game its row belongs to (used when its context names
        none)."""
        return None

    def tell(self, entry: HistoryEntry, look: Lookups) -> list[Change]:
        raise NotImplementedError(self.name)

    def explain(self, entry: HistoryEntry, look: Lookups, what: str) -> str | None:
        """Why another source's event changed `what` (e.g. "strongbox"), when this source knows."""
        return None

    def follow_up(self, entry: HistoryEntry, look: Lookups, teller) -> list[Change]:
        """Sentences that follow another source's event (e.g. each fighter's result after a finished post-game)."""
        return []

    def undone(self, entry: HistoryEntry, look: Lookups) -> str:
        """When this source knows that an event (any source's) was taken back since, in words ("undone by Pat"):
        the feed strikes its sentences. Empty when it stands."""
        return ""


@dataclass
class _Registry:
    by_name: dict[str, Source] = field(default_factory=dict)
    # Read for every event of every page: kept sorted and indexed, made again only when a source registers.
    _tables: list[Source] = field(default_factory=list)
    _all: list[Source] = field(default_factory=list)
    _by_rank: dict[int, Source] = field(default_factory=dict)

    def register(self, source: Source) -> Source:
        known = self.by_name.get(source.name)
        if known is not None and type(known) is not type(source):
            raise ValueError(f"A history source named {source.name!r} is already registered.")
        ranks = {s.rank: s.name for s in self._tables if s.name != source.name}
        if source.event_label is not None and source.rank in ranks:
            raise ValueError(
                f"History source {source.name!r} takes rank {source.rank} of {ranks[source.rank]!r}."
            )
        self.by_name[source.name] = source
        self._index()
        return source

    def unregister(self, name: str) -> Source | None:
        source = self.by_name.pop(name, None)
        self._index()
        return source

    def _index(self) -> None:
        values = self.by_name.values()
        self._tables = sorted((s for s in values if s.event_label is not None), key=lambda s: s.rank)
        self._all = self._tables + [s for s in values if s.event_label is None]
        self._by_rank = {s.rank: s for s in self._tables}


_REGISTRY = _Registry()


def register(source: Source) -> Source:
    """Add a source to the history (from an `AppConfig.ready()`); registering the same kind again replaces it."""
    return _REGISTRY.register(source)


def unregister(name: str) -> Source | None:
    """Take a source out of the history (tests that register one of their own put things back with it)."""
    return _REGISTRY.unregister(name)


def sources() -> list[Source]:
    """Every registered source, those with event tables first in rank order."""
    return _REGISTRY._all


def table_sources() -> list[Source]:
    """The sources whose event tables the feed reads, in rank order."""
    return _REGISTRY._tables


def by_name(name: str) -> Source:
    return _REGISTRY.by_name[name]


def by_rank(rank: int) -> Source:
    return _REGISTRY._by_rank[rank]


def rank_count() -> int:
    """How many table ranks there are (the highest registered rank, plus one)."""
    return _REGISTRY._tables[-1].rank + 1 if _REGISTRY._tables else 0


def has(name: str) -> bool:
    return name in _REGISTRY.by_name
