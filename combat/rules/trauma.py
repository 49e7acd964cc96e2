"""The Trauma Step: Troop Survival Rolls, ELITE Trauma rolls on the D66 Trauma Table, Battle Scars, Unfit For Duty.

Implements 003_37ee4a105d59703a.txt (Trench Crusade campaign rules), headings "Trauma Step", "Troops", "Elite
Models", "Models Killed In Action", "Battle Scars", "Unfit For Duty" and "Recording Injuries & Battle Scars", with
the Trauma Table of TRAUMA_TABLE.md shipped as data (`data/trauma_tables/*.json`), read as RULINGS T-1 to T-9 say:

"Troops are any models in your Warband that do not have the ELITE Keyword. You must make a Survival Roll [...] by
rolling a D6. On a roll of 1-2, they are dead or very badly wounded, and you must remove them from your Warband
Roster. On a roll of 3 or more, they survived the battle and can fight on as normal."
"After rolling for any Troops, you must make a D66 roll for any ELITE models [...]. Look up the D66 roll on the
Trauma Table to see what Injury the model has suffered (if any)."
"When a model is killed all its Battlekit is lost in the ruinous tumult of the battlefield."
"Unless stated otherwise, each time an ELITE model is taken Out of Action, they receive a Battle Scar."
"When a model receives their third Battle Scar [...] Remove the model from your Warband Roster. You can add their
Battlekit and Glory Items to the Arsenal on your Warband Roster, unless it has a rule that says it cannot be
removed from the model."
"Unless stated otherwise a model can only suffer each type of Injury once. If a model receives the same Injury a
second time, make the D66 roll for the model again until you roll a result on the Trauma Table that can be used."

The results with special consequences are given them by `code` (dead, captured, lost_an_eye, head_wound,
muscle_damage, minor_wound, robbed, full_recovery, bitter_lessons), so a campaign's house table keeps them.

Besides the names of ENGINE.md: `TraumaTable.names()`, `TraumaTable.from_document(...)`, `TraumaTable.to_rows()`,
`explain_trauma(outcome)` (one plain sentence for the post-game wizard), `explain_trauma_entry(entry, roll=...)`
(the sentence for a result whose outcome waits, such as Bitter Lessons before its D3), and `resolve_entry` /
`is_rerolled`, which the odds share with `trauma_step` so the rule lives in one place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import KW_ONLY, dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

from .dice import Dice, d3, d66, is_d66
from .stat_tests import check_count

__all__ = [
    "D66_VALUES",
    "Casualty",
    "Consequence",
    "TraumaEntry",
    "TraumaOutcome",
    "TraumaTable",
    "explain_trauma",
    "explain_trauma_entry",
    "is_rerolled",
    "resolve_entry",
    "settle_capture",
    "trauma_step",
]

D66_VALUES = tuple(tens * 10 + units for tens in range(1, 7) for units in range(1, 7))
DEFAULT_TABLE = "trench-crusade-1.0"
TABLE_FORMAT = 1
ENTRY_FIELDS = ("low", "high", "code", "name", "effect", "scar", "injury")
# Keys the odds use beside the result codes, so no table may use them as codes.
RESERVED_CODES = frozenset({"removed", "survived"})
CODE_PATTERN = re.compile(r"[a-z][a-z0-9_]*")

# RULING T-2: Troop Survival Roll, one D6: 1-2 removed, 3+ fights on.
SURVIVAL_DIE = 6
SURVIVES_ON = 3


@dataclass(frozen=True, slots=True)
class TraumaEntry:
    """A row of a Trauma Table: the D66 range `low`..`high`, the stable `code`, the result's `name`, a summary of
    its `effect`, whether it gives a Battle Scar (`scar`) and whether it is an Injury the model keeps (`injury`,
    so a repeat is rerolled)."""

    low: int
    high: int
    code: str
    name: str
    effect: str
    scar: bool
    injury: bool

    def __contains__(self, roll: int) -> bool:
        return self.low <= roll <= self.high

    @property
    def rolls(self) -> str:
        """The D66 range as the table prints it: "15" or "41-63"."""
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


def _entry_from_row(row: Mapping[str, Any], index: int) -> TraumaEntry:
    if not isinstance(row, Mapping):
        raise ValueError(f"row {index} must be a mapping of {', '.join(ENTRY_FIELDS)}, got {row!r}")
    missing = [name for name in ENTRY_FIELDS if name not in row]
    if missing:
        raise ValueError(f"row {index} has no {', '.join(missing)}: {dict(row)!r}")
    unknown = sorted(set(row) - set(ENTRY_FIELDS))
    if unknown:
        raise ValueError(f"row {index} has unknown fields {', '.join(unknown)}")
    low, high, code = row["low"], row["high"], row["code"]
    for name, value in (("low", low), ("high", high)):
        if not is_d66(value):
            raise ValueError(
                f"row {index} ({code!r}): {name} must be a D66 result (11-66, digits 1-6), got {value!r}"
            )
    if low > high:
        raise ValueError(f"row {index} ({code!r}): low {low} is above high {high}")
    if not isinstance(code, str) or not CODE_PATTERN.fullmatch(code):
        raise ValueError(f"row {index}: code must be lower_case_with_underscores, got {code!r}")
    if code in RESERVED_CODES:
        raise ValueError(f"row {index}: code {code!r} is reserved for the odds")
    for name in ("name", "effect"):
        if not isinstance(row[name], str):
            raise ValueError(f"row {index} ({code!r}): {name} must be text, got {row[name]!r}")
    if not row["name"].strip():
        raise ValueError(f"row {index} ({code!r}): name must not be empty")
    for name in ("scar", "injury"):
        if type(row[name]) is not bool:
            raise ValueError(f"row {index} ({code!r}): {name} must be true or false, got {row[name]!r}")
    return TraumaEntry(low, high, code, row["name"], row["effect"], row["scar"], row["injury"])


class TraumaTable:
    """A Trauma Table, checked on load: every D66 result 11-66 in exactly one row (no gap, no overlap).

    `TraumaTable.default()` is Trench Crusade v1.0 (with the 1.0.2 changes); `TraumaTable.named(name)` another
    shipped version (`TraumaTable.names()`, or `named()` with no name, lists them); `TraumaTable.from_rows(rows)`
    a campaign's house table. Tables are immutable and hashable (the odds cache on them).
    """

    __slots__ = ("name", "version", "title", "entries", "codes", "all_injuries", "_by_roll", "_hash")

    def __init__(self, entries: Iterable[TraumaEntry], *, name: str, version: str, title: str = "") -> None:
        entries = tuple(sorted(entries, key=lambda entry: entry.low))
        by_roll: dict[int, TraumaEntry] = {}
        for entry in entries:
            for roll in D66_VALUES:
                if entry.low <= roll <= entry.high:
                    if roll in by_roll:
                        other = by_roll[roll]
                        raise ValueError(
                            f"D66 {roll} is in two rows: {other.code!r} ({other.rolls}) and "
                            f"{entry.code!r} ({entry.rolls})"
                        )
                    by_roll[roll] = entry
        gaps = [roll for roll in D66_VALUES if roll not in by_roll]
        if gaps:
            raise ValueError(f"no row covers D66 {', '.join(map(str, gaps))}: the table has a gap")
        flags: dict[str, TraumaEntry] = {}
        for entry in entries:
            first = flags.setdefault(entry.code, entry)
            if (first.scar, first.injury) != (entry.scar, entry.injury):
                raise ValueError(
                    f"code {entry.code!r} has rows {first.rolls} and {entry.rolls} that disagree on scar/injury"
                )
        self.name = name
        self.version = version
        self.title = title or name
        self.entries = entries
        self.codes = tuple(flags)  # each code once, in table order
        # A table with a result that is not an Injury always has a usable roll (RULING T-5 cannot loop forever).
        self.all_injuries = all(entry.injury for entry in entries)
        self._by_roll = by_roll
        self._hash = hash((name, version, entries))

    # -- loading ------------------------------------------------------------------------------------------------

    @classmethod
    def default(cls) -> TraumaTable:
        """Trench Crusade campaign rules v1.0, with the 1.0.2 changes (TRAUMA_TABLE.md)."""
        return cls.named(DEFAULT_TABLE)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The names of the shipped tables."""
        return tuple(sorted(_shipped_documents()))

    @classmethod
    def named(cls, name: str | None = None) -> Any:
        """The shipped table called `name` (an unknown name raises `ValueError`); with no name, the names of the
        shipped tables (as `names()`)."""
        if name is None:
            return cls.names()
        return _shipped_table(name)

    @classmethod
    def from_rows(
        cls, rows: Iterable[Mapping[str, Any]], *, name: str = "house", version: str = "1"
    ) -> TraumaTable:
        """A campaign's house table from rows with the `TraumaEntry` fields, as in the data files."""
        if isinstance(rows, (str, bytes, Mapping)):
            raise ValueError(f"rows must be a list of row mappings, got {type(rows).__name__}")
        return cls(
            (_entry_from_row(row, index) for index, row in enumerate(rows)), name=name, version=version
        )

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> TraumaTable:
        """A table from a whole data document: `{"format": 1, "name", "version", "title", "rows": [...]}`."""
        if not isinstance(document, Mapping):
            raise ValueError(f"a Trauma Table document must be a mapping, got {type(document).__name__}")
        if document.get("format") != TABLE_FORMAT:
            raise ValueError(
                f"unknown Trauma Table format {document.get('format')!r}, expected {TABLE_FORMAT}"
            )
        for key in ("name", "version"):
            if not isinstance(document.get(key), str) or not document[key]:
                raise ValueError(f"a Trauma Table document needs a {key}, got {document.get(key)!r}")
        rows = document.get("rows")
        if not isinstance(rows, list):
            raise ValueError(f"a Trauma Table document needs a list of rows, got {rows!r}")
        entries = (_entry_from_row(row, index) for index, row in enumerate(rows))
        return cls(
            entries, name=document["name"], version=document["version"], title=document.get("title", "")
        )

    def to_rows(self) -> list[dict[str, Any]]:
        """The rows as plain data, for an organiser to copy and edit into a house table."""
        return [{name: getattr(entry, name) for name in ENTRY_FIELDS} for entry in self.entries]

    # -- reading ------------------------------------------------------------------------------------------------

    def lookup(self, d66: int) -> TraumaEntry:
        """The row of a D66 result; `ValueError` for a number a D66 roll cannot give."""
        try:
            return self._by_roll[d66]
        except (KeyError, TypeError):
            raise ValueError(f"not a D66 result (two digits, each 1-6): {d66!r}") from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TraumaTable):
            return NotImplemented
        return (self.name, self.version, self.entries) == (other.name, other.version, other.entries)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"TraumaTable(name={self.name!r}, version={self.version!r}, rows={len(self.entries)})"


@cache
def _shipped_documents() -> dict[str, Any]:
    documents = {}
    folder = resources.files(__package__).joinpath("data", "trauma_tables")
    for path in folder.iterdir():
        if path.name.endswith(".json"):
            document = json.loads(path.read_text(encoding="utf-8"))
            documents[document["name"]] = document
    return documents


@cache
def _shipped_table(name: str) -> TraumaTable:
    documents = _shipped_documents()
    if name not in documents:
        raise ValueError(
            f"no shipped Trauma Table is named {name!r}; there are: {', '.join(sorted(documents))}"
        )
    return TraumaTable.from_document(documents[name])


# -- the fighters -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Casualty:
    """A model taken Out of Action, as the Trauma Step needs it.

    `injuries` holds the codes of the Trauma results it already has; `full_recovery_instead` the codes this
    fighter treats as Full Recovery (a Sniper Priest: `{"lost_an_eye"}`). `scar_limit` is the Battle Scar that
    makes it Unfit For Duty (3; War-Luck makes it 4). `name` is optional, for sentences.
    """

    id: str
    _: KW_ONLY
    elite: bool
    scars: int = 0
    injuries: frozenset[str] = frozenset()
    scar_limit: int = 3
    can_gain_xp: bool = True
    full_recovery_instead: frozenset[str] = frozenset()
    name: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise ValueError(f"a casualty needs an id, got {self.id!r}")
        if type(self.elite) is not bool:
            raise ValueError(f"elite must be True or False, got {self.elite!r}")
        check_count(self.scars, name="scars")
        if type(self.scar_limit) is not int or self.scar_limit < 1:
            raise ValueError(f"scar_limit must be 1 or more, got {self.scar_limit!r}")
        if self.scars >= self.scar_limit:
            raise ValueError(
                f"{self.id!r} has {self.scars} Battle Scars, at its limit {self.scar_limit}: it is Unfit For Duty"
            )
        for name in ("injuries", "full_recovery_instead"):
            value = getattr(self, name)
            if isinstance(value, str):
                raise ValueError(f"{name} must be a set of codes, got the text {value!r}")
            codes = frozenset(value)
            for code in codes:
                if not isinstance(code, str):
                    raise ValueError(f"{name} must hold result codes, got {code!r}")
            object.__setattr__(self, name, codes)


@dataclass(frozen=True, slots=True)
class TraumaOutcome:
    """What the Trauma Step did to one casualty (see ENGINE.md for the fields).

    Extras: `elite`; `scar_gained`; `rerolled`, the rows rolled and rerolled before the final one (RULING T-5);
    `treated_as_full_recovery` (the fighter's own rule, e.g. a Sniper Priest's Lost an Eye); `heavy_battlekit_lost`
    (Muscle Damage, also when the same result makes it Unfit For Duty: its HEAVY Battlekit is lost, the rest goes
    to the Arsenal); `ransom_paid` once a capture is settled; `scar_limit`, `name`, and `rulings` (the RULINGS.md
    ids that decided it).
    """

    id: str
    rolls: tuple[int, ...]
    entry: TraumaEntry | None
    survived: bool
    removed: bool
    reason: str | None
    scars: int
    injuries: frozenset[str]
    battlekit: str
    xp_gained: int
    misses_next_game: bool
    can_gain_xp: bool
    pending: str | None
    elite: bool = False
    scar_gained: bool = False
    rerolled: tuple[TraumaEntry, ...] = ()
    treated_as_full_recovery: bool = False
    heavy_battlekit_lost: bool = False
    ransom_paid: bool | None = None
    scar_limit: int = 3
    name: str | None = None
    rulings: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Consequence:
    """What a usable Trauma Table row does to a casualty, apart from the D3 of Bitter Lessons."""

    removed: bool
    reason: str | None
    scar_gained: bool
    scars: int
    injuries: frozenset[str]
    battlekit: str
    misses_next_game: bool
    can_gain_xp: bool
    pending: str | None
    heavy_battlekit_lost: bool
    treated_as_full_recovery: bool
    rulings: tuple[str, ...]


def is_rerolled(casualty: Casualty, entry: TraumaEntry) -> bool:
    """Whether this row must be rolled again for this casualty: an Injury it already has (003 "Recording Injuries &
    Battle Scars", RULING T-5), except a second Lost an Eye, which blinds it."""
    return (
        entry.injury
        and entry.code in casualty.injuries
        and entry.code != "lost_an_eye"
        and entry.code not in casualty.full_recovery_instead
    )


def resolve_entry(casualty: Casualty, entry: TraumaEntry) -> Consequence:
    """The consequences of a usable row (one that `is_rerolled` refuses is an error)."""
    if is_rerolled(casualty, entry):
        raise ValueError(f"{casualty.id!r} already has {entry.code!r}: roll again (RULING T-5)")
    code = entry.code
    scars, injuries, can_gain_xp = casualty.scars, casualty.injuries, casualty.can_gain_xp
    if code in casualty.full_recovery_instead:
        # TRAUMA_TABLE.md, Lost an Eye: "a Sniper Priest treats this result as Full Recovery".
        return Consequence(
            False, None, False, scars, injuries, "kept", False, can_gain_xp, None, False, True, ()
        )
    if code == "dead":
        # 003 "Models Killed In Action": all its Battlekit is lost (RULING T-6).
        return Consequence(
            True, "dead", False, scars, injuries, "lost", False, can_gain_xp, None, False, False, ("T-6",)
        )
    if code == "captured":
        # TRAUMA_TABLE.md, Captured: the players may agree a ransom; `settle_capture` finishes it.
        return Consequence(
            False, None, False, scars, injuries, "kept", False, can_gain_xp, "ransom", False, False, ()
        )

    # 003 "Battle Scars", RULING T-4 / T-8: one Scar for the final result, unless it says "no Scar".
    scar_gained = entry.scar
    if scar_gained:
        scars += 1
    if code == "lost_an_eye" and code in injuries:
        # RULING T-5: "a second Lost an Eye removes the model (no reroll)"; its own removal wins over Unfit For Duty
        # (ENGINE.md), and nothing goes to the Arsenal (RULING T-6).
        return Consequence(
            True,
            "blinded",
            scar_gained,
            scars,
            injuries,
            "lost",
            False,
            can_gain_xp,
            None,
            False,
            False,
            ("T-5", "T-6"),
        )
    if entry.injury:
        injuries = injuries | {code}  # 003 "Recording Injuries & Battle Scars"
    battlekit = "kept"
    heavy_lost = (
        code == "muscle_damage"
    )  # TRAUMA_TABLE.md: "cannot carry HEAVY Battlekit; any it has is lost"
    if heavy_lost:
        battlekit = "heavy_lost"
    elif code == "robbed":
        battlekit = (
            "lost"  # TRAUMA_TABLE.md: "all its Battlekit is lost, except Battlekit that cannot be lost"
        )
    misses_next_game = code == "minor_wound"  # TRAUMA_TABLE.md: "misses the next game"
    if code == "head_wound":
        can_gain_xp = False  # TRAUMA_TABLE.md: "can no longer gain XP"
    if scar_gained and scars >= casualty.scar_limit:
        # 003 "Unfit For Duty", RULING T-4: removed, its Battlekit to the Arsenal (what Robbed took stays lost).
        return Consequence(
            True,
            "unfit_for_duty",
            True,
            scars,
            injuries,
            "lost" if battlekit == "lost" else "arsenal",
            False,
            can_gain_xp,
            None,
            heavy_lost,
            False,
            ("T-4",),
        )
    return Consequence(
        False,
        None,
        scar_gained,
        scars,
        injuries,
        battlekit,
        misses_next_game,
        can_gain_xp,
        None,
        heavy_lost,
        False,
        (),
    )


def _check_casualties(casualties: Iterable[Casualty]) -> tuple[Casualty, ...]:
    casualties = tuple(casualties)
    seen: set[str] = set()
    for casualty in casualties:
        if not isinstance(casualty, Casualty):
            raise ValueError(f"casualties must be Casualty values, got {casualty!r}")
        if casualty.id in seen:
            raise ValueError(f"casualty {casualty.id!r} is listed twice")
        seen.add(casualty.id)
    return casualties


def _survival_roll(casualty: Casualty, dice: Dice) -> TraumaOutcome:
    face = dice.roll(SURVIVAL_DIE)
    survived = face >= SURVIVES_ON  # RULING T-2
    return TraumaOutcome(
        casualty.id,
        (face,),
        None,
        survived,
        not survived,
        None if survived else "dead",
        casualty.scars,
        casualty.injuries,
        "kept" if survived else "lost",  # RULING T-6: a Troop's death loses all its Battlekit
        0,
        False,
        casualty.can_gain_xp,
        None,
        False,
        False,
        (),
        False,
        False,
        None,
        casualty.scar_limit,
        casualty.name,
        ("T-2",) if survived else ("T-2", "T-6"),
    )


def _trauma_roll(casualty: Casualty, dice: Dice, table: TraumaTable) -> TraumaOutcome:
    rolls = []
    rerolled = []
    while True:
        roll = d66(dice)  # RULING T-3
        rolls.append(roll)
        entry = table.lookup(roll)
        if not is_rerolled(casualty, entry):
            break
        rerolled.append(entry)  # RULING T-5: every roll is kept
    result = resolve_entry(casualty, entry)
    xp = 0
    rulings = result.rulings + (("T-5",) if rerolled and "T-5" not in result.rulings else ())
    if entry.code == "bitter_lessons" and not result.treated_as_full_recovery:
        if result.can_gain_xp:
            xp = d3(dice)  # TRAUMA_TABLE.md: "gains D3 extra XP"
        else:
            rulings += ("T-9",)  # no D3 is rolled for a fighter that cannot gain XP
    return TraumaOutcome(
        casualty.id,
        tuple(rolls),
        entry,
        not result.removed and result.pending is None,
        result.removed,
        result.reason,
        result.scars,
        result.injuries,
        result.battlekit,
        xp,
        result.misses_next_game,
        result.can_gain_xp,
        result.pending,
        True,
        result.scar_gained,
        tuple(rerolled),
        result.treated_as_full_recovery,
        result.heavy_battlekit_lost,
        None,
        casualty.scar_limit,
        casualty.name,
        rulings,
    )


def trauma_step(
    casualties: Iterable[Casualty], dice: Dice, *, table: TraumaTable | None = None
) -> tuple[TraumaOutcome, ...]:
    """The Trauma Step for a warband's casualties: every Troop's Survival Roll first, then every ELITE model's
    Trauma roll, each in the order given (RULING T-1); the outcomes come in that order too."""
    casualties = _check_casualties(casualties)
    table = table if table is not None else TraumaTable.default()
    # Refuse a hopeless casualty before any die is rolled, so no roll is logged for nothing.
    for casualty in casualties:
        if (
            casualty.elite
            and table.all_injuries
            and all(is_rerolled(casualty, entry) for entry in table.entries)
        ):
            raise ValueError(
                f"{casualty.id!r} already has every result of the Trauma Table: no roll can be used"
            )
    troops = [_survival_roll(casualty, dice) for casualty in casualties if not casualty.elite]
    elites = [_trauma_roll(casualty, dice, table) for casualty in casualties if casualty.elite]
    return (*troops, *elites)


def settle_capture(outcome: TraumaOutcome, *, ransom_paid: bool) -> TraumaOutcome:
    """Finish a Captured result once the players have answered (TRAUMA_TABLE.md, Captured).

    Unpaid: executed, removed with all its Battlekit (RULING T-6). Paid: the consequences of Full Recovery, no
    Scar (RULING T-8); `entry` stays Captured. Moving the ducats between Strongboxes is the caller's job.
    """
    if outcome.pending != "ransom":
        raise ValueError(f"{outcome.id!r} is not waiting for a ransom (pending={outcome.pending!r})")
    if type(ransom_paid) is not bool:
        raise ValueError(f"ransom_paid must be True or False, got {ransom_paid!r}")
    if ransom_paid:
        return replace(
            outcome, survived=True, pending=None, ransom_paid=True, rulings=(*outcome.rulings, "T-8")
        )
    return replace(
        outcome,
        survived=False,
        removed=True,
        reason="executed",
        battlekit="lost",
        pending=None,
        ransom_paid=False,
        rulings=(*outcome.rulings, "T-6"),
    )


# -- plain sentences --------------------------------------------------------------------------------------------


def _scar_text(outcome: TraumaOutcome) -> str:
    return f"Battle Scar {outcome.scars} of {outcome.scar_limit}"


def _d66_head(who: str, roll: int, entry: TraumaEntry, rerolled: Iterable[tuple[int, TraumaEntry]]) -> str:
    """The start of a D66 sentence: `Hero: D66 65 after rerolling 14 (Hand Wound), an Injury it already has
    (RULING T-5), Bitter Lessons`."""
    head = f"{who}: D66 {roll}"
    again = ", ".join(f"{earlier} ({earlier_entry.name})" for earlier, earlier_entry in rerolled)
    if again:
        head += f" after rerolling {again}, an Injury it already has (RULING T-5)"
    return f"{head}, {entry.name}"


def explain_trauma_entry(
    entry: TraumaEntry,
    *,
    roll: int,
    name: str | None = None,
    rerolled: Iterable[tuple[int, TraumaEntry]] = (),
) -> str:
    """One plain sentence for a Trauma Table result read before its outcome is settled, in the words of the table:
    "Hero: D66 65, Bitter Lessons — gains D3 extra XP; no Injury and no Scar." (the D3 still to roll).

    `roll` is the D66 that gave `entry`; `rerolled` the `(roll, entry)` pairs rolled again before it (RULING T-5).
    Once the outcome is known, `explain_trauma(outcome)` says what it did. A roll outside `entry` raises
    `ValueError` naming it.
    """
    if not is_d66(roll) or roll not in entry:
        raise ValueError(f"roll {roll!r} is not a D66 result of {entry.name} ({entry.rolls})")
    rerolled = tuple(rerolled)
    for earlier, earlier_entry in rerolled:
        if not is_d66(earlier) or earlier not in earlier_entry:
            raise ValueError(
                f"rerolled {earlier!r} is not a D66 result of {earlier_entry.name} ({earlier_entry.rolls})"
            )
    head = _d66_head(name or "This fighter", roll, entry, rerolled)
    return f"{head} — {entry.effect}." if entry.effect else f"{head}."


def explain_trauma(outcome: TraumaOutcome, *, name: str | None = None) -> str:
    """One plain sentence: what the Trauma Step did to the fighter and what follows (scar count, Battlekit lost or
    to the Arsenal, removed, misses the next game), naming the ruling where one decided it."""
    who = name or outcome.name or outcome.id
    if outcome.entry is None:
        roll = outcome.rolls[0]
        if outcome.survived:
            return f"{who}: Survival Roll {roll} (3+) — survived and fights on as normal (RULING T-2)."
        return f"{who}: Survival Roll {roll} (1-2) — dead, removed from the roster with all its Battlekit (RULING T-2)."

    entry = outcome.entry
    head = _d66_head(who, outcome.rolls[-1], entry, zip(outcome.rolls, outcome.rerolled, strict=False))

    if outcome.treated_as_full_recovery:
        return f"{head} — this fighter treats it as Full Recovery: no Injury and no Scar."
    if entry.code == "captured":
        if outcome.pending == "ransom":
            return (
                f"{head} — the players may agree a ransom: unpaid, it is executed and removed with all its "
                "Battlekit; paid, it counts as Full Recovery."
            )
        if outcome.ransom_paid:
            return f"{head}, ransom paid — counts as Full Recovery: no Injury and no Scar (RULING T-8)."
        return f"{head}, no ransom paid — executed and removed from the roster with all its Battlekit (RULING T-6)."
    if outcome.reason == "dead":
        return f"{head} — removed from the roster with all its Battlekit (RULING T-6)."
    if outcome.reason == "blinded":
        return (
            f"{head} a second time — blinded and removed from the roster with all its Battlekit, no reroll "
            "(RULING T-5)."
        )

    parts = []
    if outcome.scar_gained:
        parts.append(_scar_text(outcome))
    code = entry.code
    if code == "full_recovery":
        parts.append("no Injury and no Scar")
    elif code == "robbed":
        parts.append("all its Battlekit is lost, except Battlekit that cannot be lost; no Injury and no Scar")
    elif code == "bitter_lessons":
        if outcome.can_gain_xp:
            parts.append(f"gains {outcome.xp_gained} XP; no Injury and no Scar")
        else:
            parts.append("no XP, as it can no longer gain XP (RULING T-9); no Injury and no Scar")
    elif code == "head_wound":
        parts.append("it can no longer gain XP")
    elif code == "muscle_damage":
        parts.append("it cannot carry HEAVY Battlekit, and any it has is lost")
    elif code == "minor_wound":
        if not outcome.removed:
            parts.append("it misses the next game")
    elif entry.effect:
        parts.append(entry.effect)
    if outcome.reason == "unfit_for_duty":
        if outcome.battlekit == "lost":
            kit = "its Battlekit is lost"
        elif outcome.heavy_battlekit_lost:
            kit = "the rest of its Battlekit and its Glory Items go to the Arsenal"
        else:
            kit = "its Battlekit and Glory Items go to the Arsenal"
        parts.append(f"so it is Unfit For Duty: removed from the roster, {kit} (RULING T-4)")
    return f"{head} — {'; '.join(parts)}."
