"""The post-game consequences for the fighters taken Out of Action that the Trauma Step's outcome leaves to the
roster: the order the casualties roll in, and what becomes of each piece of their Battlekit.

- 003_37ee4a105d59703a.txt, "Troops" / "Elite Models" and RULING T-1: "All Troops roll before any ELITE model";
  docs/engine.md: "Troops first, then ELITE models, each in the order given" (`trauma_order`, the order `trauma_step`
  rolls and answers in).
- TRAUMA_TABLE.md 15, Lost an Eye: "a Sniper Priest treats this result as Full Recovery"
  (`full_recovery_instead`, the fighter's own rule the `Casualty` carries).
- Battlekit (`battlekit_fate`, reading the `battlekit` answer of `TraumaOutcome`):
  003 "Models Killed In Action": "all its Battlekit is lost"; RULING T-6: a model removed for any reason but Unfit
  For Duty "loses all its Battlekit; nothing goes to the Arsenal";
  TRAUMA_TABLE.md 36, Robbed: "all its Battlekit is lost, except Battlekit that cannot be lost";
  TRAUMA_TABLE.md 34, Muscle Damage: "cannot carry HEAVY Battlekit; any it has is lost";
  003 "Unfit For Duty" and RULING T-4: "its Battlekit and Glory Items go to the warband's Arsenal unless a rule
  says they cannot be removed" (such kit leaves with the model); with Muscle Damage as the last Scar the HEAVY
  Battlekit is lost first (docs/rules.md, "Readings the rulings leave open").
- The roll a casualty's Trauma Step asks for next (`casualty_roll`): RULING T-2, a Troop's Survival Roll is one D6;
  RULING T-3, an ELITE model's Trauma roll is a D66 (two D6), rolled again for a result it has (T-5);
  TRAUMA_TABLE.md 65, Bitter Lessons: "gains D3 extra XP".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TypeVar

__all__ = [
    "ARSENAL",
    "BATTLEKIT_ANSWERS",
    "BITTER_LESSONS_ROLL",
    "CasualtyRoll",
    "HEAVY",
    "KEPT",
    "KIT_FATES",
    "LOST",
    "SURVIVAL_ROLL",
    "TRAUMA_ROLL",
    "KitPiece",
    "battlekit_fate",
    "casualty_roll",
    "full_recovery_instead",
    "trauma_order",
]

# What becomes of one piece of Battlekit.
KEPT = "kept"  # stays with the model (on the roster, or leaving with it when it cannot be removed)
LOST = "lost"  # struck off the roster
ARSENAL = "arsenal"  # to the warband's Arsenal (RULING T-4)
KIT_FATES = (KEPT, LOST, ARSENAL)
# The `battlekit` answers of a TraumaOutcome (docs/engine.md).
BATTLEKIT_ANSWERS = ("kept", "lost", "heavy_lost", "arsenal")
# TRAUMA_TABLE.md 34, Muscle Damage: the keyword of the Battlekit it cannot carry.
HEAVY = "HEAVY"
# TRAUMA_TABLE.md 15: the fighter whose own rule turns Lost an Eye into Full Recovery, by type or keyword.
SNIPER_PRIEST = "sniper priest"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class KitPiece:
    """One piece of a fighter's Battlekit as the rules see it: its keywords, and whether a rule says it cannot be
    removed from the model (`removable=False`)."""

    name: str
    keywords: tuple[str, ...] = ()
    removable: bool = True

    @property
    def heavy(self) -> bool:
        """It has the HEAVY keyword (compared without case, as the roster stores keywords upper-case)."""
        return any(keyword.strip().upper() == HEAVY for keyword in self.keywords)


def battlekit_fate(
    battlekit: str,
    items: Sequence[KitPiece],
    *,
    removed: bool = False,
    heavy_battlekit_lost: bool = False,
) -> tuple[str, ...]:
    """What becomes of each piece of `items` (KEPT, LOST or ARSENAL, in the same order), for the `battlekit`
    answer of a casualty's TraumaOutcome, whether it was `removed`, and its `heavy_battlekit_lost`.

    - "kept": every piece stays.
    - "lost" when removed (Dead, Blinded, Executed, a Troop's death; RULING T-6): every piece is lost.
    - "lost" when it stays (Robbed, TRAUMA_TABLE.md 36): every piece is lost "except Battlekit that cannot be lost".
    - "heavy_lost" (Muscle Damage, TRAUMA_TABLE.md 34): its HEAVY pieces are lost, the rest kept.
    - "arsenal" (Unfit For Duty, RULING T-4): to the Arsenal "unless it has a rule that says it cannot be removed
      from the model" (kept: it leaves with the model); with `heavy_battlekit_lost` the HEAVY pieces are lost.
    """
    if battlekit not in BATTLEKIT_ANSWERS:
        raise ValueError(f"battlekit must be one of {', '.join(BATTLEKIT_ANSWERS)}, got {battlekit!r}")
    for item in items:
        if not isinstance(item, KitPiece):
            raise ValueError(f"each piece of Battlekit must be a KitPiece, got {item!r}")
    return tuple(_fate(battlekit, item, removed=removed, heavy_lost=heavy_battlekit_lost) for item in items)


def _fate(battlekit: str, item: KitPiece, *, removed: bool, heavy_lost: bool) -> str:
    if battlekit == "kept":
        return KEPT
    if battlekit == "lost":
        # RULING T-6 (removed): all of it; Robbed (it stays): all but what cannot be lost.
        return LOST if removed or item.removable else KEPT
    if item.heavy and (battlekit == "heavy_lost" or heavy_lost):
        return LOST  # Muscle Damage: "cannot carry HEAVY Battlekit; any it has is lost"
    if battlekit == "arsenal" and item.removable:
        return ARSENAL  # RULING T-4
    return KEPT


def trauma_order(
    casualties: Iterable[T], *, elite: Callable[[T], bool] = attrgetter("elite")
) -> tuple[T, ...]:
    """The casualties in the order they roll (RULING T-1; docs/engine.md "Troops first, then ELITE models, each in the
    order given"): every Troop, then every ELITE model, each group in the order given. `elite` tells which is
    which (by default the `elite` attribute, as on `Casualty`); `trauma_step` answers in this same order."""
    casualties = tuple(casualties)
    return (*(c for c in casualties if not elite(c)), *(c for c in casualties if elite(c)))


def full_recovery_instead(*, fighter_type: str | None = None, keywords: Iterable[str] = ()) -> frozenset[str]:
    """The Trauma Table results this fighter treats as Full Recovery (`Casualty.full_recovery_instead`):
    TRAUMA_TABLE.md 15, Lost an Eye, "a Sniper Priest treats this result as Full Recovery" (its type or a keyword
    names it a Sniper Priest, compared without case)."""
    words = (fighter_type, *keywords) if fighter_type else tuple(keywords)
    if any(SNIPER_PRIEST in word.lower() for word in words):
        return frozenset({"lost_an_eye"})
    return frozenset()


# The rolls of a casualty's Trauma Step, by the names the post-game stores them under.
SURVIVAL_ROLL = "survival"  # RULING T-2: a Troop's one D6
TRAUMA_ROLL = "trauma"  # RULING T-3: an ELITE model's D66, two D6 read as tens and units
BITTER_LESSONS_ROLL = "bitter_lessons"  # TRAUMA_TABLE.md 65: "gains D3 extra XP"


@dataclass(frozen=True, slots=True)
class CasualtyRoll:
    """A roll of the Trauma Step: what it is (`SURVIVAL_ROLL`, `TRAUMA_ROLL`, `BITTER_LESSONS_ROLL`), the sides of
    each die, and how many dice."""

    kind: str
    sides: int
    dice: int


def casualty_roll(*, elite: bool, sides_asked: int) -> CasualtyRoll:
    """The roll a casualty needs when `trauma_step` ran out of faces asking for a die of `sides_asked` sides
    (`DiceExhausted.sides`): a D3 is Bitter Lessons' (TRAUMA_TABLE.md 65); a D6 is a Troop's Survival Roll (RULING
    T-2) or an ELITE model's Trauma roll, a D66 of two D6 (RULINGS T-3, T-5). Other sides raise `ValueError`."""
    if type(elite) is not bool:
        raise ValueError(f"elite must be True or False, got {elite!r}")
    if sides_asked == 3:
        return CasualtyRoll(BITTER_LESSONS_ROLL, 3, 1)
    if sides_asked != 6:
        raise ValueError(f"the Trauma Step rolls D6 and D3 only, got a D{sides_asked!r}")
    return CasualtyRoll(TRAUMA_ROLL, 6, 2) if elite else CasualtyRoll(SURVIVAL_ROLL, 6, 1)
