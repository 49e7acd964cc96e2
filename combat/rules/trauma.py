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

The table itself (`TraumaTable`, `TraumaEntry`, loading and checking) is in `trauma_table.py` and
`trauma_table_checks.py`, the plain sentences (`explain_trauma`, `explain_trauma_entry`) in `trauma_explain.py`.
Besides the names of docs/engine.md, `resolve_entry` / `is_rerolled` are shared with the odds so the rule lives in one
place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import Any

from .casualties import trauma_order
from .dice import Dice, d3, d66
from .stat_tests import check_count
from .trauma_table import D66_VALUES, TraumaEntry, TraumaTable

__all__ = [
    "D66_VALUES",
    "SURVIVAL_DIE",
    "SURVIVES_ON",
    "Casualty",
    "Consequence",
    "TraumaEntry",
    "TraumaOutcome",
    "TraumaTable",
    "is_rerolled",
    "resolve_entry",
    "settle_capture",
    "trauma_step",
]

# RULING T-2: Troop Survival Roll, one D6: 1-2 removed, 3+ fights on.
SURVIVAL_DIE = 6
SURVIVES_ON = 3


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
    """What the Trauma Step did to one casualty (see docs/engine.md for the fields).

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
    special = _unscarred_result(casualty, entry)
    return special if special is not None else _scarring_result(casualty, entry)


def _as_it_was(casualty: Casualty, **changes: Any) -> Consequence:
    """A consequence that leaves the casualty's record as it was, but for `changes`."""
    fields: dict[str, Any] = {
        "removed": False,
        "reason": None,
        "scar_gained": False,
        "scars": casualty.scars,
        "injuries": casualty.injuries,
        "battlekit": "kept",
        "misses_next_game": False,
        "can_gain_xp": casualty.can_gain_xp,
        "pending": None,
        "heavy_battlekit_lost": False,
        "treated_as_full_recovery": False,
        "rulings": (),
    }
    return Consequence(**(fields | changes))


def _unscarred_result(casualty: Casualty, entry: TraumaEntry) -> Consequence | None:
    """The results that end before any Battle Scar is counted, or None for the others."""
    if entry.code in casualty.full_recovery_instead:
        # TRAUMA_TABLE.md, Lost an Eye: "a Sniper Priest treats this result as Full Recovery".
        return _as_it_was(casualty, treated_as_full_recovery=True)
    if entry.code == "dead":
        # 003 "Models Killed In Action": all its Battlekit is lost (RULING T-6).
        return _as_it_was(casualty, removed=True, reason="dead", battlekit="lost", rulings=("T-6",))
    if entry.code == "captured":
        # TRAUMA_TABLE.md, Captured: the players may agree a ransom; `settle_capture` finishes it.
        return _as_it_was(casualty, pending="ransom")
    return None


def _scarring_result(casualty: Casualty, entry: TraumaEntry) -> Consequence:
    """A result that may give a Battle Scar, an Injury and its own consequence, and may make the model Unfit."""
    code = entry.code
    # 003 "Battle Scars", RULING T-4 / T-8: one Scar for the final result, unless it says "no Scar".
    scars = casualty.scars + 1 if entry.scar else casualty.scars
    if code == "lost_an_eye" and code in casualty.injuries:
        # RULING T-5: "a second Lost an Eye removes the model (no reroll)"; its own removal wins over Unfit For Duty
        # (docs/engine.md), and nothing goes to the Arsenal (RULING T-6).
        return _as_it_was(
            casualty,
            removed=True,
            reason="blinded",
            scar_gained=entry.scar,
            scars=scars,
            battlekit="lost",
            rulings=("T-5", "T-6"),
        )
    result = _as_it_was(
        casualty,
        scar_gained=entry.scar,
        scars=scars,
        # 003 "Recording Injuries & Battle Scars"
        injuries=casualty.injuries | {code} if entry.injury else casualty.injuries,
        battlekit=_battlekit_kept(code),
        misses_next_game=code == "minor_wound",  # TRAUMA_TABLE.md: "misses the next game"
        can_gain_xp=casualty.can_gain_xp and code != "head_wound",  # TRAUMA_TABLE.md: "can no longer gain XP"
        # TRAUMA_TABLE.md, Muscle Damage: "cannot carry HEAVY Battlekit; any it has is lost"
        heavy_battlekit_lost=code == "muscle_damage",
    )
    if entry.scar and scars >= casualty.scar_limit:
        # 003 "Unfit For Duty", RULING T-4: removed, its Battlekit to the Arsenal (what Robbed took stays lost).
        return replace(
            result,
            removed=True,
            reason="unfit_for_duty",
            battlekit="lost" if result.battlekit == "lost" else "arsenal",
            misses_next_game=False,
            rulings=("T-4",),
        )
    return result


def _battlekit_kept(code: str) -> str:
    if code == "muscle_damage":
        return "heavy_lost"  # TRAUMA_TABLE.md: "cannot carry HEAVY Battlekit; any it has is lost"
    if code == "robbed":
        return "lost"  # TRAUMA_TABLE.md: "all its Battlekit is lost, except Battlekit that cannot be lost"
    return "kept"


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
    # Troops first, then ELITE models: the one order of the Trauma Step (casualties.trauma_order, RULING T-1).
    return tuple(
        _trauma_roll(casualty, dice, table) if casualty.elite else _survival_roll(casualty, dice)
        for casualty in trauma_order(casualties)
    )


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
