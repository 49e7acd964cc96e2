"""Plain sentences for the Trauma Step: what a result did to a fighter, in the words of the Trauma Table.

`explain_trauma(outcome)` is one sentence for the post-game wizard (scar count, Battlekit lost or to the Arsenal,
removed, misses the next game, naming the ruling where one decided it); `explain_trauma_entry(entry, roll=...)` the
sentence for a result whose outcome waits, such as Bitter Lessons before its D3. The words follow TRAUMA_TABLE.md
and RULINGS T-2 to T-9; the consequences themselves are decided in `trauma.py`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .dice import is_d66
from .trauma import TraumaOutcome
from .trauma_table import TraumaEntry

__all__ = ["explain_trauma", "explain_trauma_entry"]


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
        return _survival_sentence(who, outcome)
    head = _d66_head(
        who, outcome.rolls[-1], outcome.entry, zip(outcome.rolls, outcome.rerolled, strict=False)
    )
    removal = _removal_sentence(head, outcome)
    if removal is not None:
        return removal
    parts = [_scar_text(outcome)] if outcome.scar_gained else []
    parts += _result_parts(outcome)
    if outcome.reason == "unfit_for_duty":
        parts.append(_unfit_part(outcome))
    # A house result with a blank effect and no Scar has nothing to add (RULING T-3), as in explain_trauma_entry.
    return f"{head} — {'; '.join(parts)}." if parts else f"{head}."


def _survival_sentence(who: str, outcome: TraumaOutcome) -> str:
    """RULING T-2: a Troop's Survival Roll."""
    roll = outcome.rolls[0]
    if outcome.survived:
        return f"{who}: Survival Roll {roll} (3+) — survived and fights on as normal (RULING T-2)."
    return f"{who}: Survival Roll {roll} (1-2) — dead, removed from the roster with all its Battlekit (RULING T-2)."


def _removal_sentence(head: str, outcome: TraumaOutcome) -> str | None:
    """The sentences of the results that say everything themselves: the fighter's own Full Recovery, Captured,
    Dead and a second Lost an Eye; None for the others."""
    if outcome.treated_as_full_recovery:
        return f"{head} — this fighter treats it as Full Recovery: no Injury and no Scar."
    if outcome.entry.code == "captured":
        return _captured_sentence(head, outcome)
    if outcome.reason == "dead":
        return f"{head} — removed from the roster with all its Battlekit (RULING T-6)."
    if outcome.reason == "blinded":
        return (
            f"{head} a second time — blinded and removed from the roster with all its Battlekit, no reroll "
            "(RULING T-5)."
        )
    return None


def _captured_sentence(head: str, outcome: TraumaOutcome) -> str:
    """TRAUMA_TABLE.md, Captured: waiting for the players' answer, ransom paid (RULING T-8) or not (T-6)."""
    if outcome.pending == "ransom":
        return (
            f"{head} — the players may agree a ransom: unpaid, it is executed and removed with all its "
            "Battlekit; paid, it counts as Full Recovery."
        )
    if outcome.ransom_paid:
        return f"{head}, ransom paid — counts as Full Recovery: no Injury and no Scar (RULING T-8)."
    return (
        f"{head}, no ransom paid — executed and removed from the roster with all its Battlekit (RULING T-6)."
    )


# What a result does, in the words of TRAUMA_TABLE.md, for the codes that have their own consequence.
_RESULT_WORDS = {
    "full_recovery": "no Injury and no Scar",
    "robbed": "all its Battlekit is lost, except Battlekit that cannot be lost; no Injury and no Scar",
    "head_wound": "it can no longer gain XP",
    "muscle_damage": "it cannot carry HEAVY Battlekit, and any it has is lost",
}


def _result_parts(outcome: TraumaOutcome) -> list[str]:
    code = outcome.entry.code
    if code in _RESULT_WORDS:
        return [_RESULT_WORDS[code]]
    if code == "bitter_lessons":
        if outcome.can_gain_xp:
            return [f"gains {outcome.xp_gained} XP; no Injury and no Scar"]
        return ["no XP, as it can no longer gain XP (RULING T-9); no Injury and no Scar"]
    if code == "minor_wound":
        return [] if outcome.removed else ["it misses the next game"]
    return [outcome.entry.effect] if outcome.entry.effect else []


def _unfit_part(outcome: TraumaOutcome) -> str:
    """003 "Unfit For Duty", RULING T-4: where its Battlekit goes."""
    if outcome.battlekit == "lost":
        kit = "its Battlekit is lost"
    elif outcome.heavy_battlekit_lost:
        kit = "the rest of its Battlekit and its Glory Items go to the Arsenal"
    else:
        kit = "its Battlekit and Glory Items go to the Arsenal"
    return f"so it is Unfit For Duty: removed from the roster, {kit} (RULING T-4)"
