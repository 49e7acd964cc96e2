"""The order of one transaction's events, the kinds of change the feed offers, and the feed's cursors."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from campaigns.terms import Terms
from rosters.history import registry
from rosters.history.registry import Source

# --------------------------------------------------------------------------------------------------------------
# The order of one transaction's events.
#
# Every event a trigger writes in one transaction gets the same `pgh_created_at` (PostgreSQL's NOW()), so events
# of one service call are ordered by a fixed rank of their table (`Source.rank`, registry.py): read newest first,
# a post-game shows "finished its post-game" above the Scars, Injuries and Battlekit moves it made, and the end of
# a game on the tracker ("End of Game 4: ...") above the Out of Action marks and crew XP it wrote.
#
# The table ranks order one transaction's events by what they tell, but a row's birth and death are not about
# it: a fighter is added before its Battlekit is given to it, its XP changes or it is taken Out of Action, and is
# removed after its Battlekit is lost with it. So inside one transaction the insert of a campaign, warband or
# fighter (a source with a `holder_level`) sorts before every other event (the one that holds the others first),
# and its delete after them all (the one that holds the others last); every other event sorts by its table's
# rank, in between. Without this a fighter imported or added with its kit read newest first as given Battlekit
# before it existed.
# --------------------------------------------------------------------------------------------------------------

HOLDER_LEVELS = 3  # a campaign holds warbands, a warband holds fighters


def _ranks() -> int:
    return registry.rank_count()


def sort_ranks() -> frozenset[int]:
    return frozenset(range(HOLDER_LEVELS + _ranks() + HOLDER_LEVELS))


def _delete_rank(source: Source) -> int:
    return HOLDER_LEVELS + _ranks() + (HOLDER_LEVELS - 1 - source.holder_level)


def sort_rank(source: Source, label: str) -> int:
    """Where an event of `source` with pghistory label `label` sorts among the events of its transaction."""
    if source.holder_level is not None and label == "insert":
        return source.holder_level
    if source.holder_level is not None and label == "delete":
        return _delete_rank(source)
    return HOLDER_LEVELS + source.rank


def sort_rank_sql(source: Source, alias: str = "e") -> str:
    """`sort_rank` as an SQL expression over the event row `alias`."""
    middle = HOLDER_LEVELS + source.rank
    if source.holder_level is None:
        return str(middle)
    return (
        f"CASE {alias}.pgh_label WHEN 'insert' THEN {source.holder_level} "
        f"WHEN 'delete' THEN {_delete_rank(source)} ELSE {middle} END"
    )


# Kinds of change, as the feed's filter offers them. The labels use the preset's words where they differ.
KINDS: tuple[str, ...] = (
    "roster",
    "xp",
    "injuries",
    "scars",
    "battlekit",
    "strongbox",
    "profile",
    "games",
    "ingame",
    "campaign",
)


def kind_choices(terms: Terms) -> list[tuple[str, str]]:
    labels = {
        "roster": "Fighters joined or lost",
        "xp": "XP",
        "injuries": "Injuries",
        "scars": "Battle Scars",
        "battlekit": terms.battlekit,
        "strongbox": f"{terms.strongbox} and {terms.glory}",
        "profile": "Names, stats and notes",
        "games": "Games and post-games",
        "ingame": "In game",
        "campaign": "Campaign and members",
    }
    return [(kind, labels[kind]) for kind in KINDS]


# --------------------------------------------------------------------------------------------------------------
# Cursors
# --------------------------------------------------------------------------------------------------------------

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_CURSOR = re.compile(r"^(\d{1,18})-(\d{1,2})-(\d{1,18})$")


class BadCursor(ValueError):
    """A page link that was not made by this module (edited by hand, or truncated)."""


@dataclass(frozen=True, order=True)
class Cursor:
    """A position in the history: events are ordered by (at, rank, pgh_id), all descending in the feed; `rank` is
    the event's `sort_rank` inside its transaction."""

    at: dt.datetime
    rank: int
    pgh_id: int

    def encode(self) -> str:
        micros = (self.at - EPOCH) // dt.timedelta(microseconds=1)
        return f"{micros}-{self.rank}-{self.pgh_id}"

    @classmethod
    def decode(cls, text: str) -> Cursor:
        match = _CURSOR.match(text or "")
        if not match or int(match.group(2)) not in sort_ranks():
            raise BadCursor("That page link is not valid; start again from the newest changes.")
        at = EPOCH + dt.timedelta(microseconds=int(match.group(1)))
        return cls(at=at, rank=int(match.group(2)), pgh_id=int(match.group(3)))
