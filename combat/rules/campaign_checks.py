"""What makes a set of rows a skill chart or a Location table, checked in one place for the engine and an editor.

CAMPAIGN_PHASE.md: "Tables of names (skills, locations, warband lists) are campaign data that a group keeps and
edits, never code; the numbers below are rules and belong in the engine." So the rows come in as data, and this
module says, as `trauma_table_checks.py` does for the Trauma Table, every reason they cannot be used:

- a skill chart row has a `roll` (a 2D6 result, 2 to 12), a `code` and a `name`; a roll holds one skill and a code
  names one skill, so neither may repeat (RULING X-3 steps along the chart by roll and recognises a known skill by
  its code);
- a Location table row has a `score` (an Exploration Score, a whole number 0 or more: RULING E-3 never lets it go
  below 0), a `code` and a `name`; a score finds one Location of a table (RULING E-4: "matches ... exactly") and a
  code names one Location, which a warband finds once per campaign, so neither may repeat.

Every problem is found, not only the first, and told twice: in plain words for whoever edits the table
("Row 3 (Quick Reflexes): roll 13 is not a 2D6 result (2 to 12)."), and tersely for a developer with the list
index ("row 2 ('quick_reflexes'): roll must be 2 to 12, got 13"), which `CampaignTableError` carries as its message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["CampaignTableError", "TableSpec", "raise_problems", "table_problems"]

CODE_PATTERN = re.compile(r"[a-z][a-z0-9_]*")


class CampaignTableError(ValueError):
    """Rows that are not a skill chart or Location table: `problems` says every reason in plain words; the
    message, tersely."""

    def __init__(self, problems: Sequence[str], detail: str) -> None:
        self.problems = tuple(problems)
        super().__init__(detail)


class Problem(NamedTuple):
    words: str  # for whoever edits the table
    detail: str  # for a developer: list indexes and codes


@dataclass(frozen=True, slots=True)
class TableSpec:
    """How one kind of campaign table is checked: what it is called, the field its rows are numbered by (`key`),
    how that number is checked (`key_problem` gives (words, detail) or None), and what a row holds (`thing`)."""

    title: str  # "skill chart"
    key: str  # "roll"
    thing: str  # "skill"
    key_problem: Callable[[Any], tuple[str, str] | None]

    @property
    def fields(self) -> tuple[str, str, str]:
        return (self.key, "code", "name")


def table_problems(spec: TableSpec, rows: Any) -> list[Problem]:
    """Every problem of each row, then of the table they make (repeated numbers, repeated codes)."""
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        return [
            Problem(
                f"A {spec.title} is a list of rows.",
                f"rows must be a list of row mappings, got {type(rows).__name__}",
            )
        ]
    rows = list(rows)
    if not rows:
        return [Problem(f"The {spec.title} has no rows.", f"the {spec.title} has no rows")]
    problems: list[Problem] = []
    for index, row in enumerate(rows):
        problems += [_labelled(row, index, words, detail) for words, detail in _row_problems(spec, row)]
    sound = [row for row in rows if isinstance(row, Mapping) and set(spec.fields) <= set(row)]
    return problems + _repeats(spec, sound, spec.key) + _repeats(spec, sound, "code")


def raise_problems(problems: Sequence[Problem]) -> None:
    if problems:
        raise CampaignTableError(
            [problem.words for problem in problems], "; ".join(problem.detail for problem in problems)
        )


def _labelled(row: Any, index: int, words: str, detail: str) -> Problem:
    """`Row 3 (Quick Reflexes)` for the editor, `row 2 ('quick_reflexes')` for a developer, before the problem."""
    label = f"Row {index + 1}"
    at = f"row {index}"
    if isinstance(row, Mapping):
        name, code = row.get("name"), row.get("code")
        if isinstance(name, str) and name.strip():
            label += f" ({name.strip()})"
        if isinstance(code, str) and code:
            at += f" ({code!r})"
    return Problem(f"{label}{words}", f"{at}{detail}")


def _row_problems(spec: TableSpec, row: Any) -> list[tuple[str, str]]:
    fields = ", ".join(spec.fields)
    if not isinstance(row, Mapping):
        return [(f" is not a row of {fields}.", f" must be a mapping of {fields}, got {row!r}")]
    missing = [name for name in spec.fields if name not in row]
    unknown = sorted(str(name) for name in set(row) - set(spec.fields))
    found = []
    if missing:
        found.append((f" has no {', '.join(missing)}.", f" has no {', '.join(missing)}: {dict(row)!r}"))
    if unknown:
        found.append(
            (f" has unknown fields {', '.join(unknown)}.", f" has unknown fields {', '.join(unknown)}")
        )
    if missing:
        return found
    key = spec.key_problem(row[spec.key])
    if key is not None:
        found.append(key)
    return found + _code_and_name_problems(row)


def _code_problem(code: Any) -> tuple[str, str] | None:
    if not isinstance(code, str) or not CODE_PATTERN.fullmatch(code):
        text = (
            f": code must be lower-case letters, digits and underscores, starting with a letter, got {code!r}"
        )
        return (f"{text}.", text)
    return None


def _code_and_name_problems(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    found = []
    code = _code_problem(row["code"])
    if code is not None:
        found.append(code)
    name = row["name"]
    if not isinstance(name, str):
        found.append((": it needs a name, in words.", f": name must be text, got {name!r}"))
    elif not name.strip():
        found.append((": it needs a name.", ": name must not be empty"))
    return found


def _called(row: Mapping[str, Any]) -> str:
    name = row.get("name")
    return name.strip() if isinstance(name, str) and name.strip() else repr(row.get("code"))


def _repeats(spec: TableSpec, rows: list[Mapping[str, Any]], field: str) -> list[Problem]:
    """Each value of `field` on one row only: a number finds one row (X-3, E-4), a code names one thing."""
    first_of: dict[Any, Mapping[str, Any]] = {}
    problems = []
    for row in rows:
        value = row[field]
        # A number or code that is wrong in itself is told once, on its row, not again as a repeat.
        wrong = spec.key_problem(value) if field == spec.key else _code_problem(value)
        if wrong is not None:
            continue
        first = first_of.setdefault(value, row)
        if first is row:
            continue
        if field == "code":
            words = (
                f"Two rows have the code {value} ({_called(first)}, {spec.key} {first[spec.key]}; "
                f"{_called(row)}, {spec.key} {row[spec.key]}): give each {spec.thing} its own code."
            )
        else:
            words = (
                f"Two rows have the {field} {value} ({_called(first)}; {_called(row)}): "
                f"a {field} holds one {spec.thing}."
            )
        problems.append(Problem(words, f"{field} {value!r} is on two rows; each {field} is on one row"))
    return problems
