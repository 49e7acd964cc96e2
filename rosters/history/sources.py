"""The event tables the history reads, the kinds of change the feed offers, and the feed's cursors."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.apps import apps

from campaigns.terms import Terms

# --------------------------------------------------------------------------------------------------------------
# Sources: the event tables the history reads, and their order inside one transaction.
#
# Every event a trigger writes in one transaction gets the same `pgh_created_at` (PostgreSQL's NOW()), so events
# of one service call are ordered by a fixed rank of their table: read newest first, a post-game shows "finished
# its post-game" above the Scars, Injuries and Battlekit moves it made, and the end of a game on the tracker
# ("End of Game 4: ...") above the Out of Action marks and crew XP it wrote.
#
# The tracker's board (combat's TrackerGame) is read by its label, like the dice log: `combat` sits above
# `rosters` in the layers (ARCHITECTURE.md), so nothing here imports it. Each action on the board, its undo and
# the end of the game bump the board's `version`, so each leaves exactly one TrackerGame event: the feed tells
# that event, one sentence per action (`rosters/history/tracker.py`).
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    name: str
    label: str  # the generated pghistory event model
    rank: int

    @property
    def model(self):
        return apps.get_model(self.label)

    @property
    def table(self) -> str:
        return self.model._meta.db_table


SOURCES: tuple[_Source, ...] = (
    _Source("item", "rosters.ItemEvent", 0),
    _Source("injury", "rosters.InjuryEvent", 1),
    _Source("out_of_action", "campaigns.OutOfActionEvent", 2),
    _Source("fighter", "rosters.FighterEvent", 3),
    _Source("warband", "rosters.WarbandEvent", 4),
    _Source("membership", "campaigns.MembershipEvent", 5),
    _Source("player", "campaigns.GamePlayerEvent", 6),
    _Source("game", "campaigns.GameEvent", 7),
    _Source("campaign", "campaigns.CampaignEvent", 8),
    _Source("tracker", "combat.TrackerGameEvent", 9),
)
SOURCE_BY_RANK = {source.rank: source for source in SOURCES}
SOURCE_BY_NAME = {source.name: source for source in SOURCES}

# The table ranks order one transaction's events by what they tell, but a row's birth and death are not about
# it: a fighter is added before its Battlekit is given to it, its XP changes or it is taken Out of Action, and is
# removed after its Battlekit is lost with it. So inside one transaction the insert of a campaign, warband or
# fighter sorts before every other event (the one that holds the others first), and its delete after them all
# (the one that holds the others last); every other event sorts by its table's rank, in between. Without this a
# fighter imported or added with its kit read newest first as given Battlekit before it existed.
_HOLDERS = ("campaign", "warband", "fighter")  # a campaign holds warbands, a warband holds fighters
_MIDDLE = len(_HOLDERS)
_INSERT_RANK = {name: n for n, name in enumerate(_HOLDERS)}
_DELETE_RANK = {name: _MIDDLE + len(SOURCES) + n for n, name in enumerate(reversed(_HOLDERS))}
SORT_RANKS = frozenset(range(_MIDDLE + len(SOURCES) + len(_HOLDERS)))


def sort_rank(source: _Source, label: str) -> int:
    """Where an event of `source` with pghistory label `label` sorts among the events of its transaction."""
    if label == "insert" and source.name in _INSERT_RANK:
        return _INSERT_RANK[source.name]
    if label == "delete" and source.name in _DELETE_RANK:
        return _DELETE_RANK[source.name]
    return _MIDDLE + source.rank


def sort_rank_sql(source: _Source, alias: str = "e") -> str:
    """`sort_rank` as an SQL expression over the event row `alias`."""
    middle = _MIDDLE + source.rank
    if source.name not in _INSERT_RANK:
        return str(middle)
    return (
        f"CASE {alias}.pgh_label WHEN 'insert' THEN {_INSERT_RANK[source.name]} "
        f"WHEN 'delete' THEN {_DELETE_RANK[source.name]} ELSE {middle} END"
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


# Which kind each changed column of an update belongs to; columns not listed are bookkeeping (ids, created_at).
FIGHTER_FIELDS = {
    "status": "roster",
    "misses_next_game": "roster",
    "warband_id": "roster",
    "xp": "xp",
    "battle_scars": "scars",
    "name": "profile",
    "fighter_type": "profile",
    "keywords": "profile",
    "champion": "profile",
    "strength": "profile",
    "perception": "profile",
    "endurance": "profile",
    "charisma": "profile",
    "intelligence": "profile",
    "agility": "profile",
    "luck": "profile",
    "health": "profile",
    "harm_limit": "profile",
    "movement": "profile",
    "unit_size": "profile",
    "can_gain_xp": "profile",
}
WARBAND_FIELDS = {
    "strongbox": "strongbox",
    "glory": "strongbox",
    "crew_xp": "xp",
    "name": "profile",
    "faction": "profile",
    "notes": "profile",
    "owner_id": "profile",
}
# Tables whose every event is one kind.
SOURCE_KIND = {
    "item": "battlekit",
    "injury": "injuries",
    "out_of_action": "games",
    "player": "games",
    "game": "games",
    "membership": "campaign",
    "campaign": "campaign",
    "tracker": "ingame",
}
# Kind of an insert or delete of a fighter or warband.
ROW_KIND = {"fighter": "roster", "warband": "roster"}
UPDATE_FIELDS = {"fighter": FIGHTER_FIELDS, "warband": WARBAND_FIELDS}


# --------------------------------------------------------------------------------------------------------------
# Cursors
# --------------------------------------------------------------------------------------------------------------

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
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
        micros = (self.at - _EPOCH) // dt.timedelta(microseconds=1)
        return f"{micros}-{self.rank}-{self.pgh_id}"

    @classmethod
    def decode(cls, text: str) -> Cursor:
        match = _CURSOR.match(text or "")
        if not match or int(match.group(2)) not in SORT_RANKS:
            raise BadCursor("That page link is not valid; start again from the newest changes.")
        at = _EPOCH + dt.timedelta(microseconds=int(match.group(1)))
        return cls(at=at, rank=int(match.group(2)), pgh_id=int(match.group(3)))
