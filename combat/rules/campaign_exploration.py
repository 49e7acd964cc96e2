"""Looting and Exploration (CAMPAIGN_PHASE.md, "Looting and Exploration"; RULINGS E-1 to E-4).

"Exploration Dice (D6) by battles fought, this one included: 1-2 battles: 3 dice; 3-5: 4; 6-9: 5; 10 or more: 6."
(`exploration_dice`, `MOST_EXPLORATION_DICE`, E-1)
"The winner of the battle may reroll any one of its Exploration Dice." (`exploration_reroll_open`,
`check_reroll_die`, E-2)
"The Exploration Score is the sum of the dice, then modified by the warband's exploration skills and items."
(`exploration_score`, E-3)
"A Location is found only if the score matches a Location's number exactly, on a table the battle count allows:
1-2 battles: Common; 3-5: Common or Rare; 6-9: Rare; 10 or more: Rare or Legendary. Each warband can find a given
Location only once per campaign" (`exploration_tables`, `find_locations`, E-4)
"Whether or not a Location is found, the warband loots 10 ducats per point of Exploration Score" (`loot`, E-3)

The Locations are campaign data (`LocationTable.from_rows`). `score_odds` and `location_odds` give the exact
chances a page shows before the Exploration Dice are rolled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .campaign_checks import TableSpec, raise_problems, table_problems
from .stat_tests import check_count

__all__ = [
    "EXPLORATION_DIE",
    "LOOT_PER_POINT",
    "MOST_EXPLORATION_DICE",
    "TABLES",
    "Location",
    "LocationTable",
    "check_reroll_die",
    "exploration_dice",
    "exploration_reroll_open",
    "exploration_score",
    "exploration_tables",
    "find_locations",
    "location_odds",
    "loot",
    "score_odds",
]

EXPLORATION_DIE = 6
LOOT_PER_POINT = 10  # RULING E-3: "Loot is 10 ducats per point."
TABLES = ("common", "rare", "legendary")
# CAMPAIGN_PHASE.md: (fewest battles fought, Exploration Dice, tables allowed), RULING E-1.
_BY_BATTLES = (
    (10, 6, ("rare", "legendary")),
    (6, 5, ("rare",)),
    (3, 4, ("common", "rare")),
    (1, 3, ("common",)),
)
# The most Exploration Dice a warband ever rolls (10 battles or more, RULING E-1): the dice a form may take.
MOST_EXPLORATION_DICE = max(dice for _fewest, dice, _tables in _BY_BATTLES)


def _row_for(battles_fought: object) -> tuple[int, int, tuple[str, ...]]:
    # RULING E-1: "'Battles fought' for Exploration counts the battle just played", so it is 1 or more.
    if type(battles_fought) is not int or battles_fought < 1:
        raise ValueError(
            f"battles_fought must be 1 or more (the battle just played counts), got {battles_fought!r}"
        )
    return next(row for row in _BY_BATTLES if battles_fought >= row[0])


def exploration_dice(*, battles_fought: int) -> int:
    """How many Exploration Dice (D6) the warband rolls, by battles fought, this one included (RULING E-1)."""
    return _row_for(battles_fought)[1]


def exploration_tables(*, battles_fought: int) -> tuple[str, ...]:
    """The Location tables a score may match, of `"common"`, `"rare"`, `"legendary"` (RULING E-1)."""
    return _row_for(battles_fought)[2]


def _check_bool(value: object, *, name: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def exploration_reroll_open(*, won: bool, rolled: bool, rerolled: bool, declined: bool) -> bool:
    """Whether the warband may still reroll one of its Exploration Dice: "The winner of the battle may reroll any
    one of its Exploration Dice" (a draw or a loss has no reroll); RULING E-2, "once; the new face stands", so
    not after the reroll nor once it was declined, and not before the dice are rolled."""
    for value, name in ((won, "won"), (rolled, "rolled"), (rerolled, "rerolled"), (declined, "declined")):
        _check_bool(value, name=name)
    return won and rolled and not rerolled and not declined


def check_reroll_die(die: object, *, dice: int) -> int:
    """The Exploration Die the winner rerolls, 1 for the first of the `dice` rolled (RULING E-2: "any one of its
    Exploration Dice"); any other number raises `ValueError` naming it."""
    check_count(dice, name="dice")
    if type(die) is not int or not 1 <= die <= dice:
        raise ValueError(f"pick one of the {dice} Exploration Dice to reroll (1 to {dice}), got {die!r}")
    return die


def exploration_score(faces: Sequence[int], *, modifier: int = 0) -> int:
    """The Exploration Score: the sum of the D6 `faces` plus the `modifier` of the warband's exploration skills and
    items. RULING E-3: "it is never below 0". A face outside 1..6 raises `ValueError`. The winner's reroll
    (RULING E-2) is made before: pass the faces that stand."""
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Iterable):
        raise ValueError(f"faces must be a sequence of D6 faces, got {faces!r}")
    faces = tuple(faces)
    for face in faces:
        if type(face) is not int or not 1 <= face <= EXPLORATION_DIE:
            raise ValueError(f"an Exploration Die is a D6, 1 to 6, got {face!r}")
    if type(modifier) is not int:
        raise ValueError(f"modifier must be a whole number, got {modifier!r}")
    return max(0, sum(faces) + modifier)


def loot(score: int) -> int:
    """The ducats looted into the Strongbox, found or not: RULING E-3, "10 ducats per point"."""
    return LOOT_PER_POINT * check_count(score, name="score")


@dataclass(frozen=True, slots=True)
class Location:
    """A Location: the Exploration `score` that finds it, its stable `code`, its `name`, the `table` it is on."""

    score: int
    code: str
    name: str
    table: str


def _score_problem(score: Any) -> tuple[str, str] | None:
    if type(score) is not int or score < 0:
        return (
            f": score {score!r} is not an Exploration Score (a whole number, 0 or more).",
            f": score must be a whole number 0 or more, got {score!r}",
        )
    return None


LOCATION_TABLE = TableSpec(title="Location table", key="score", thing="Location", key_problem=_score_problem)


class LocationTable:
    """One of a campaign's Location tables (Common, Rare, Legendary): one Location per score. Immutable."""

    __slots__ = ("name", "locations", "_by_score", "_hash")

    def __init__(self, locations: Iterable[Location], *, name: str = "") -> None:
        locations = tuple(locations)
        if not all(isinstance(location, Location) for location in locations):
            raise ValueError(f"a LocationTable is made of Location values, got {locations!r}")
        self.locations = tuple(sorted(locations, key=lambda location: location.score))
        rows = [{"score": loc.score, "code": loc.code, "name": loc.name} for loc in self.locations]
        raise_problems(table_problems(LOCATION_TABLE, rows))
        self.name = name
        self._by_score = {location.score: location for location in self.locations}
        self._hash = hash((name, self.locations))

    @classmethod
    def problems(cls, rows: Any) -> tuple[str, ...]:
        """Every reason `rows` are not a Location table, in plain words (empty when they are one): a repeated
        score or code, a score that is not a whole number 0 or more, a missing field, a bad code, no name."""
        return tuple(problem.words for problem in table_problems(LOCATION_TABLE, rows))

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]], *, name: str = "") -> LocationTable:
        """A table from rows with `score`, `code`, `name`; bad rows raise `CampaignTableError` (a `ValueError`)
        with every problem in `.problems`."""
        rows = (
            list(rows) if isinstance(rows, Iterable) and not isinstance(rows, (str, bytes, Mapping)) else rows
        )
        raise_problems(table_problems(LOCATION_TABLE, rows))
        return cls((Location(row["score"], row["code"], row["name"], name) for row in rows), name=name)

    def at(self, score: int) -> Location | None:
        """The Location an Exploration Score finds exactly on this table, or None."""
        return self._by_score.get(score)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LocationTable):
            return NotImplemented
        return (self.name, self.locations) == (other.name, other.locations)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"LocationTable(name={self.name!r}, locations={len(self.locations)})"


def _check_tables(tables: object, allowed: object, found: object) -> tuple[str, ...]:
    if not isinstance(tables, Mapping) or not all(isinstance(t, LocationTable) for t in tables.values()):
        raise ValueError(f"tables must map table names to LocationTables, got {tables!r}")
    if isinstance(allowed, str) or not isinstance(allowed, Sequence):
        raise ValueError(f"allowed must be a sequence of table names, got {allowed!r}")
    for table in allowed:
        if table not in tables:
            raise ValueError(
                f"no Location table is named {table!r}; there are: {', '.join(map(str, tables))}"
            )
    if isinstance(found, str) or not isinstance(found, (set, frozenset)):
        raise ValueError(f"found must be a set of Location codes, got {found!r}")
    return tuple(allowed)


def find_locations(
    score: int,
    *,
    tables: Mapping[str, LocationTable],
    allowed: Sequence[str],
    found: frozenset[str] = frozenset(),
) -> tuple[Location, ...]:
    """The Locations an Exploration Score finds: each Location on an allowed table whose score matches exactly and
    whose code is not in `found`, in the order of `allowed`.

    RULING E-4: "With two tables allowed (Common or Rare, Rare or Legendary), a score that matches a Location on
    either finds it; matching one on each, the player chooses which. A Location this warband has already found is
    not found again (nothing found; the loot is still taken)." `table` of each is its key in `tables`.
    """
    check_count(score, name="score")
    allowed = _check_tables(tables, allowed, found)
    matches = []
    for key in allowed:
        location = tables[key].at(score)
        if location is not None and location.code not in found:
            matches.append(replace(location, table=key))
    return tuple(matches)


@lru_cache(maxsize=256)
def _sums(dice: int) -> tuple[tuple[int, int], ...]:
    """How many of the 6**dice ways each sum of `dice` D6 can be made."""
    ways = {0: 1}
    for _ in range(dice):
        following: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(1, EXPLORATION_DIE + 1):
                following[total + face] = following.get(total + face, 0) + count
        ways = following
    return tuple(sorted(ways.items()))


def score_odds(*, dice: int, modifier: int = 0) -> dict[int, Fraction]:
    """The exact chance of each Exploration Score for `dice` D6 and a `modifier`, never below 0 (RULING E-3);
    without the winner's reroll (RULING E-2), which depends on the die the player picks."""
    check_count(dice, name="dice")
    if type(modifier) is not int:
        raise ValueError(f"modifier must be a whole number, got {modifier!r}")
    return dict(_score_odds(dice, modifier))


@lru_cache(maxsize=1024)
def _score_odds(dice: int, modifier: int) -> tuple[tuple[int, Fraction], ...]:
    whole = EXPLORATION_DIE**dice
    odds: dict[int, Fraction] = {}
    for total, ways in _sums(dice):
        score = max(0, total + modifier)  # RULING E-3: never below 0
        odds[score] = odds.get(score, Fraction(0)) + Fraction(ways, whole)
    return tuple(odds.items())


def location_odds(
    *,
    dice: int,
    tables: Mapping[str, LocationTable],
    allowed: Sequence[str],
    modifier: int = 0,
    found: frozenset[str] = frozenset(),
) -> dict[Location, Fraction]:
    """The exact chance of finding each Location of the allowed tables with `dice` Exploration Dice and a
    `modifier` (RULINGS E-3, E-4): the chance of the score that matches it exactly. Where a score matches one
    Location on each of two tables, the player chooses (E-4), so each is given the whole chance of that score.
    A Location in `found` has no chance and is left out; in the order of `allowed`, then by score."""
    allowed = _check_tables(tables, allowed, found)
    odds = score_odds(dice=dice, modifier=modifier)
    return {
        replace(location, table=key): odds[location.score]
        for key in allowed
        for location in tables[key].locations
        if location.code not in found and location.score in odds
    }
