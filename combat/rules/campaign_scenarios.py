"""The scenario table of each campaign stage and the scenario roll (CAMPAIGN_PHASE.md, "The campaign around the
battles"; RULING W-1).

"Stages: Early (battles 1-3), Mid (4-8), Endgame (9-11), then the Final Battle (12). Each stage has a D6 scenario
table (campaign data); a warband should not play the same scenario twice in a row (reroll). When the two players
are at different stages, the lower stage's table is used."

The names on a table are campaign data (a group keeps its own); the die, the stage a game uses and the reroll are
rules, and live here:

- a table row is a `roll` (a face of the table's die, 1 to 6 for the D6) and a scenario `name`; a face is on one
  row, and every face of the die has a row (a roll must find a scenario). One scenario may sit on several faces
  (it then comes up more often);
- `scenario_stage(battles=...)`: each warband's battle about to be played (RULING C-1: its battles played so far
  plus one), the lowest of them decides the stage ("the lower stage's table is used");
- `roll_scenario(table, dice, avoid=...)`: `avoid` holds the scenario each warband of the game played in its own
  previous game ("a warband should not play the same scenario twice in a row"). A face that finds one of them is
  rolled again, until a scenario none of them played last comes up. When every scenario of the table is one to
  avoid (a table of one scenario, or two warbands that last played the table's only two), no roll can keep the
  rule: the first roll stands, and the result says so.

Scenarios are the same scenario when their names match without regard to case or outer spaces.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .campaign_limits import campaign_stage
from .dice import Dice

__all__ = [
    "SCENARIO_DIE",
    "SCENARIO_FIELDS",
    "SCENARIO_RULE",
    "STAGE_NAMES",
    "ScenarioResult",
    "ScenarioTable",
    "explain_scenario",
    "roll_scenario",
    "scenario_odds",
    "scenario_stage",
    "scenario_table_problems",
]

# CAMPAIGN_PHASE.md: "Each stage has a D6 scenario table".
SCENARIO_DIE = 6
SCENARIO_FIELDS = ("roll", "name")
STAGE_NAMES = {"early": "Early", "mid": "Mid", "endgame": "Endgame", "final": "Final Battle"}
# The rule in one sentence, as the game's page shows it before the roll.
SCENARIO_RULE = (
    "A warband does not play the same scenario twice in a row: a roll that finds the scenario a warband of this game "
    "played in its previous game is rolled again."
)
# A reroll loop that has not found a usable face after this many dice is not a fair die.
MOST_ROLLS = 200


def same_scenario(name: str) -> str:
    """The key two names of one scenario share: no case, no outer spaces."""
    return name.strip().casefold()


def _label(index: int, row: Mapping[str, Any]) -> str:
    name = row.get("name")
    return f"Row {index + 1}" + (f" ({name.strip()})" if isinstance(name, str) and name.strip() else "")


def _row_problems(index: int, row: Any, sides: int) -> list[str]:
    if not isinstance(row, Mapping):
        return [f"Row {index + 1} is not a row of roll and name."]
    missing = [name for name in SCENARIO_FIELDS if name not in row]
    unknown = sorted(str(name) for name in set(row) - set(SCENARIO_FIELDS))
    found = []
    if missing:
        found.append(f"{_label(index, row)} has no {', '.join(missing)}.")
    if unknown:
        found.append(f"{_label(index, row)} has unknown fields {', '.join(unknown)}.")
    if found:
        return found
    roll, name = row["roll"], row["name"]
    if type(roll) is not int:
        found.append(f"{_label(index, row)}: the roll must be a whole number, got {roll!r}.")
    elif not 1 <= roll <= sides:
        found.append(f"{_label(index, row)}: roll {roll} is not a face of the D{sides} (1 to {sides}).")
    if not isinstance(name, str) or not name.strip():
        found.append(f"{_label(index, row)}: it needs the scenario's name.")
    return found


def scenario_table_problems(rows: Any, *, sides: int = SCENARIO_DIE) -> tuple[str, ...]:
    """Every reason `rows` are not a scenario table for a D`sides`, in plain words (empty when they are one):
    a row that is not roll and name, a roll that is not a face of the die, a face on two rows, a face on none."""
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        return ("A scenario table is a list of rows.",)
    rows = list(rows)
    if not rows:
        return ()  # no table yet (or the group cleared it): nothing to roll on, and nothing wrong
    problems: list[str] = []
    seen: dict[int, int] = {}
    for index, row in enumerate(rows):
        found = _row_problems(index, row, sides)
        problems += found
        roll = row.get("roll") if isinstance(row, Mapping) else None
        if type(roll) is not int or not 1 <= roll <= sides:
            continue
        if roll in seen:
            problems.append(
                f"Rows {seen[roll] + 1} and {index + 1} both have roll {roll}: a face of the die finds one scenario."
            )
        seen.setdefault(roll, index)
    missing = [face for face in range(1, sides + 1) if face not in seen]
    if missing and not any("is not a row" in problem for problem in problems):
        faces = ", ".join(str(face) for face in missing)
        problems.append(
            f"No row for roll {faces}: every face of the D{sides} needs a scenario (a gap would find nothing)."
        )
    return tuple(problems)


@dataclass(frozen=True, slots=True)
class ScenarioTable:
    """One stage's scenario table: the scenario each face of the die finds."""

    stage: str
    sides: int
    scenarios: tuple[str, ...]  # the scenario of face 1, face 2, ...

    @classmethod
    def from_rows(cls, rows: Any, *, stage: str, sides: int = SCENARIO_DIE) -> ScenarioTable:
        """The table of a campaign's rows; rows `scenario_table_problems` refuses raise `ValueError` naming them."""
        if stage not in STAGE_NAMES:
            raise ValueError(f"a stage is one of {', '.join(STAGE_NAMES)}, got {stage!r}")
        problems = scenario_table_problems(rows, sides=sides)
        if not list(rows):
            problems = ("A scenario table with no rows finds no scenario.",)
        if problems:
            raise ValueError(" ".join(problems))
        by_roll = {row["roll"]: row["name"].strip() for row in rows}
        return cls(stage=stage, sides=sides, scenarios=tuple(by_roll[face] for face in range(1, sides + 1)))

    def lookup(self, face: int) -> str:
        if type(face) is not int or not 1 <= face <= self.sides:
            raise ValueError(f"a D{self.sides} shows 1 to {self.sides}, got {face!r}")
        return self.scenarios[face - 1]

    @property
    def names(self) -> tuple[str, ...]:
        """Each scenario once, in the order of the faces that first find it."""
        seen: dict[str, str] = {}
        for name in self.scenarios:
            seen.setdefault(same_scenario(name), name)
        return tuple(seen.values())

    def usable(self, avoid: Iterable[str]) -> frozenset[int]:
        """The faces whose scenario none of the game's warbands played in its previous game."""
        keys = {same_scenario(name) for name in avoid}
        return frozenset(
            face for face in range(1, self.sides + 1) if same_scenario(self.scenarios[face - 1]) not in keys
        )


def scenario_stage(*, battles: Sequence[int]) -> str:
    """The stage whose table a game uses: "When the two players are at different stages, the lower stage's table
    is used" (each warband's battle about to be played, RULING C-1; stages by RULING W-1). A battle outside 1..12
    or no warband at all raises `ValueError`."""
    battles = list(battles)
    if not battles:
        raise ValueError("a game needs at least one warband to find its stage")
    stages = [campaign_stage(battle) for battle in battles]  # each checked: there is no battle 13 (C-1)
    return stages[battles.index(min(battles))]


@dataclass(frozen=True, slots=True)
class ScenarioResult:
    """The faces rolled, in order (rerolls included), and the scenario the last one found.

    `rerolled` holds the scenario each face before the last found (each one a warband played last time); `kept_rule`
    is False only when the table left no scenario to roll that keeps the rule, so the first roll stood."""

    faces: tuple[int, ...]
    scenario: str
    rerolled: tuple[str, ...]
    kept_rule: bool


def roll_scenario(table: ScenarioTable, dice: Dice, *, avoid: Iterable[str] = ()) -> ScenarioResult:
    """Roll the table's die until it finds a scenario not in `avoid` ("a warband should not play the same scenario
    twice in a row (reroll)"). With no such scenario on the table, the first roll stands (`kept_rule` False).
    Dice that run out raise the dice's own error (`DiceExhausted` for typed dice): the caller asks for the next."""
    avoid = tuple(avoid)
    usable = table.usable(avoid)
    faces: list[int] = []
    while len(faces) < MOST_ROLLS:
        face = dice.roll(table.sides)
        faces.append(face)
        if not usable or face in usable:
            return ScenarioResult(
                faces=tuple(faces),
                scenario=table.lookup(face),
                rerolled=tuple(table.lookup(earlier) for earlier in faces[:-1]),
                kept_rule=bool(usable),
            )
    raise ValueError(f"{MOST_ROLLS} rolls found no usable scenario: the dice are not fair")


def scenario_odds(table: ScenarioTable, *, avoid: Iterable[str] = ()) -> dict[str, Fraction]:
    """The exact chance of each scenario of the table, the reroll applied: a face rolled again counts for nothing,
    so each usable scenario's chance is its faces over the usable faces (0 for a scenario to avoid)."""
    usable = table.usable(tuple(avoid)) or frozenset(range(1, table.sides + 1))
    odds = {name: Fraction(0) for name in table.names}
    names = {same_scenario(name): name for name in table.names}
    for face in usable:
        odds[names[same_scenario(table.lookup(face))]] += Fraction(1, len(usable))
    return odds


def explain_scenario(result: ScenarioResult, *, sides: int = SCENARIO_DIE) -> str:
    """The roll in one sentence, the rule named when it made a reroll."""
    last = result.faces[-1]
    if result.rerolled:
        before = "; ".join(
            f"{face} found {name}" for face, name in zip(result.faces, result.rerolled, strict=False)
        )
        return (
            f"D{sides} {last}: {result.scenario}. Rolled again before ({before}): a warband does not play the "
            "same scenario twice in a row."
        )
    if not result.kept_rule:
        return (
            f"D{sides} {last}: {result.scenario}. Every scenario on this table was played last time by a warband "
            "of this game, so the roll stands."
        )
    return f"D{sides} {last}: {result.scenario}."
