"""Trench Crusade's Injury Rolls on the board: a model's kit read for the roll, the one-tap markers and Down, and
each in one plain sentence.

Implements TC_IN_GAME.md (docs/rules.md), read as RULINGS I-1 to I-8 say; the roll itself is `injury.py`'s.

- "Armour of the target: Standard Armour -1, Reinforced Armour -2, Machine Armour -3 INJURY MODIFIER; a Trench
  Shield -1 more" and "Tough: the first time in a game that a TOUGH model would be taken Out of Action": the roster
  knows a fighter's keywords (TOUGH), its Battlekit by name and keyword, and its profile's Armour (the Injury Roll
  modifier, campaigns/profiles.py). `kit_from` reads them; the players may change armour and shield for one roll.
- "Markers": "A model carries at most 6 Blood Markers and at most 6 Blessing Markers; markers that would go past 6
  are not placed", and markers are also spent on Success Rolls ("The tracker records such spending as taking the
  markers off"): `adjust_marker`. "Down": a state a model is in or stands up from: `set_down`.
- The sentences: `injury_record` keeps a resolved roll as plain values (stored with the action, RULING I-8),
  `injury_words` tells it from them ("Brother Cole: Injury Roll 3D6 keep 2 highest (5, 4, 1) -1 armour = 8:
  Down, 2 Blood Markers"), and `injury_rule` says the rule that decided it in one sentence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .injury import ARMOUR, MAX_MARKERS, NEGATIVE_CAP, SHIELD, InjuryOutcome, TcModel

__all__ = [
    "ARMOUR_NAMES",
    "MARKERS",
    "InjuryKit",
    "MarkerChange",
    "adjust_marker",
    "explain_marker",
    "injury_record",
    "injury_rule",
    "injury_words",
    "kit_from",
    "set_down",
]

ARMOUR_NAMES = {"standard": "Standard Armour", "reinforced": "Reinforced Armour", "machine": "Machine Armour"}
# The profile's Armour is the Injury Roll modifier itself: -1, -2, -3 are the three armours' (TC_IN_GAME.md).
_ARMOUR_BY_MODIFIER = {modifier: key for key, modifier in ARMOUR.items()}
MARKERS = {"blood": ("Blood Marker", "Blood Markers"), "blessings": ("Blessing Marker", "Blessing Markers")}
RESULT_WORDS = {
    "no_effect": "No Effect",
    "minor_hit": "Minor Hit",
    "down": "Down",
    "out_of_action": "Out of Action",
}


@dataclass(frozen=True, slots=True)
class InjuryKit:
    """What the roster knows for a model's Injury Rolls: TOUGH, its armour (one of `ARMOUR`'s keys or None) and a
    Trench Shield."""

    tough: bool
    armour: str | None
    shield: bool


def _has(text: str, word: str) -> bool:
    return word in " ".join(text.lower().replace("_", " ").split())


def kit_from(
    *, keywords: Iterable[str], profile_armour: int, battlekit: Iterable[tuple[str, Iterable[str]]]
) -> InjuryKit:
    """TOUGH from the keywords; the armour Battlekit names (by its name or keywords: "Reinforced Armour"), else the
    profile's Armour when it is one of the three armours' modifiers; a shield Battlekit ("Trench Shield")."""
    tough = any(str(keyword).strip().upper() == "TOUGH" for keyword in keywords)
    words = [name for name, _ in battlekit] + [str(k) for _, kws in battlekit for k in kws]
    worn = [key for key in ARMOUR if any(_has(word, f"{key} armour") for word in words)]
    # The heaviest armour named counts: a model wears one armour (TC_IN_GAME.md lists them as one modifier).
    armour = min(worn, key=ARMOUR.__getitem__) if worn else _ARMOUR_BY_MODIFIER.get(profile_armour)
    shield = any(_has(word, "shield") for word in words)
    return InjuryKit(tough=tough, armour=armour, shield=shield)


@dataclass(frozen=True, slots=True)
class MarkerChange:
    """A one-tap change: `what` "blood", "blessings" or "down"; `before` and `after` the model."""

    what: str
    change: int
    before: TcModel
    after: TcModel


def _check_in_play(model: TcModel) -> None:
    if model.out_of_action:
        raise ValueError("the model is Out of Action: it takes no more part in the game (RULING I-7)")


def adjust_marker(model: TcModel, *, marker: str, change: int) -> MarkerChange:
    """+1 or -1 Blood (`marker="blood"`) or Blessing (`"blessings"`) Marker. Refused past 6 ("markers that would go
    past 6 are not placed") and below 0 (none to take off)."""
    if marker not in MARKERS:
        raise ValueError(f"marker must be one of {', '.join(MARKERS)}, got {marker!r}")
    if change not in (1, -1):
        raise ValueError(f"a tap adds or takes off one marker, got {change!r}")
    _check_in_play(model)
    now = getattr(model, marker)
    one, many = MARKERS[marker]
    if now + change > MAX_MARKERS:
        raise ValueError(
            f"the model already carries {MAX_MARKERS} {many}: markers past {MAX_MARKERS} are not placed"
        )
    if now + change < 0:
        raise ValueError(f"the model carries no {one} to take off")
    return MarkerChange(marker, change, model, replace(model, **{marker: now + change}))


def set_down(model: TcModel, *, down: bool) -> MarkerChange:
    """The model marked Down (`down=True`) or stood up (`False`); refused when it already is so."""
    if type(down) is not bool:
        raise ValueError(f"down must be True or False, got {down!r}")
    _check_in_play(model)
    if model.down == down:
        raise ValueError(
            "the model is already Down" if down else "the model is not Down: it has nothing to stand up from"
        )
    return MarkerChange("down", 1 if down else -1, model, replace(model, down=down))


def explain_marker(outcome: MarkerChange, *, name: str) -> str:
    """The tap in one sentence: "+1 Blood Marker on Brother Cole (3 now)." or "Brother Cole stands up."."""
    if outcome.what == "down":
        return f"{name} is Down." if outcome.after.down else f"{name} stands up: no longer Down."
    one, many = MARKERS[outcome.what]
    now = getattr(outcome.after, outcome.what)
    sign = "+1" if outcome.change > 0 else "-1"
    return f"{sign} {one} on {name} ({now} {one if now == 1 else many} now)."


def injury_record(outcome: InjuryOutcome) -> dict:
    """A resolved roll as plain values (JSON), what the board stores with the action and the history tells from
    (RULING I-8: the dice, the dice kept, the modifiers and the markers spent)."""
    roll, pool = outcome.roll, outcome.pool
    return {
        "bloodbath": roll.bloodbath,
        "dice": pool.dice,
        "keep": pool.keep,
        "highest": pool.highest,
        "faces": list(outcome.faces),
        "kept": list(outcome.kept),
        "modifiers": list(roll.modifiers),
        "armour": roll.armour,
        "shield": roll.shield and roll.armour != "machine",
        "capped": pool.capped,
        "modifier": pool.modifier,
        "total": outcome.total,
        "result": outcome.result,
        "tough_saved": outcome.tough_saved,
        "blood_placed": outcome.blood_placed,
        "blood_spent": pool.blood_cost,
        "blessings_spent": pool.blessings_cost,
        "injury_dice": roll.injury_dice,
        "critical": roll.critical,
        "melee": roll.melee,
    }


def _signed(value: int) -> str:
    return f"{value:+d}"


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def injury_words(record: dict, *, name: str) -> str:
    """The roll from its record: "Brother Cole: Injury Roll 3D6 keep 2 highest (5, 4, 1) -1 armour = 8: Down,
    2 Blood Markers"."""
    what = "Bloodbath Roll" if record.get("bloodbath") else "Injury Roll"
    pool = f"{record['dice']}D6"
    if record.get("highest") is not None:
        pool += f" keep {record['keep']} {'highest' if record['highest'] else 'lowest'}"
    parts = [_signed(value) for value in record.get("modifiers") or ()]
    if record.get("armour") in ARMOUR:
        parts.append(f"{_signed(ARMOUR[record['armour']])} armour")
    if record.get("shield"):
        parts.append(f"{_signed(SHIELD)} shield")
    if record.get("capped"):
        parts.append(f"(negatives capped at {NEGATIVE_CAP})")
    faces = ", ".join(str(face) for face in record["faces"])
    text = (
        f"{name}: {what} {pool} ({faces})" + "".join(f" {part}" for part in parts) + f" = {record['total']}"
    )
    result = record["result"]
    said = RESULT_WORDS[result]
    if record.get("tough_saved"):
        said = "Out of Action, saved by Tough: Down"
    if result in ("minor_hit", "down"):
        said += f", {_plural(record['blood_placed'], 'Blood Marker', 'Blood Markers')}"
    spent = []
    if record.get("blood_spent"):
        spent.append(_plural(record["blood_spent"], "Blood Marker", "Blood Markers"))
    if record.get("blessings_spent"):
        spent.append(_plural(record["blessings_spent"], "Blessing Marker", "Blessing Markers"))
    if spent:
        said += f" ({' and '.join(spent)} spent)"
    return f"{text}: {said}"


def injury_rule(outcome: InjuryOutcome) -> str:
    """The rule that decided the roll, in one sentence naming the ruling where one did."""
    if outcome.tough_saved:
        return (
            "9 or more would take it Out of Action, but a TOUGH model's first Out of Action in a game is Down "
            "instead, in full (RULING I-4)."
        )
    if outcome.result == "out_of_action":
        return (
            "9 or more on the Injury Table: Out of Action, out of play for the rest of the game (RULING I-7)."
        )
    if outcome.result == "down":
        if outcome.before is not None and outcome.before.down:
            return "7-8 on the Injury Table: a model already Down gets 2 Blood Markers instead of 1 (RULING I-4)."
        return "7-8 on the Injury Table: Down places 1 Blood Marker and marks the model Down."
    if outcome.result == "minor_hit":
        if outcome.blood_placed == 0:
            return "2-6 on the Injury Table: a Minor Hit, but markers past 6 are not placed (RULING I-3)."
        return "2-6 on the Injury Table: a Minor Hit places 1 Blood Marker."
    if outcome.pool is not None and outcome.pool.capped:
        return "1 or less on the Injury Table: No Effect; the negative modifiers count for at most -3 (RULING I-2)."
    return "1 or less on the Injury Table: No Effect."
