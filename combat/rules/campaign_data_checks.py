"""The campaign's other lists of names: fighter types that are never promoted or have Limited Potential, and a
Patron's skills. Checked in plain words, as `campaign_checks.py` checks the skill charts and Location tables.

CAMPAIGN_PHASE.md, Promotions: "Some fighter types can never be promoted (campaign data: a flag on the fighter
type)"; Experience and Advancement: "Limited Potential models gain at most 3 Skill Advancements" (RULING X-2).
A fighter type row is `name` (as the roster writes the type), `never_promoted` and `limited_potential` (both
true or false); a name names one type, so it may not repeat (compared without case or outer spaces, as a roster's
"War Prophet" and "war prophet " are one type).

"A 'Patron Skill' result lets the player pick any one skill of the warband's Patron, never one the model already
has": a Patron skill row is `code` and `name`, the code recognising a known skill (RULING X-3), so it may not repeat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .campaign_checks import CODE_PATTERN

__all__ = ["FIGHTER_TYPE_FIELDS", "PATRON_SKILL_FIELDS", "fighter_type_problems", "patron_skill_problems"]

FIGHTER_TYPE_FIELDS = ("name", "never_promoted", "limited_potential")
PATRON_SKILL_FIELDS = ("code", "name")


def _as_rows(rows: Any, title: str) -> tuple[list | None, list[str]]:
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        return None, [f"A list of {title} is a list of rows."]
    return list(rows), []


def _label(index: int, row: Mapping[str, Any]) -> str:
    name = row.get("name")
    return f"Row {index + 1}" + (f" ({name.strip()})" if isinstance(name, str) and name.strip() else "")


def _shape(index: int, row: Any, fields: tuple[str, ...]) -> list[str]:
    if not isinstance(row, Mapping):
        return [f"Row {index + 1} is not a row of {', '.join(fields)}."]
    found = []
    missing = [name for name in fields if name not in row]
    unknown = sorted(str(name) for name in set(row) - set(fields))
    if missing:
        found.append(f"{_label(index, row)} has no {', '.join(missing)}.")
    if unknown:
        found.append(f"{_label(index, row)} has unknown fields {', '.join(unknown)}.")
    return found


def _name_problem(index: int, row: Mapping[str, Any]) -> str | None:
    name = row["name"]
    if not isinstance(name, str):
        return f"{_label(index, row)}: it needs a name, in words."
    if not name.strip():
        return f"{_label(index, row)}: it needs a name."
    return None


def fighter_type_problems(rows: Any) -> tuple[str, ...]:
    """Every reason `rows` are not a list of fighter types, in plain words (empty when they are one)."""
    rows, problems = _as_rows(rows, "fighter types")
    if rows is None:
        return tuple(problems)
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        shape = _shape(index, row, FIGHTER_TYPE_FIELDS)
        problems += shape
        if shape:
            continue
        name = _name_problem(index, row)
        if name:
            problems.append(name)
        for flag in ("never_promoted", "limited_potential"):
            if not isinstance(row[flag], bool):
                problems.append(f"{_label(index, row)}: {flag} must be yes or no, got {row[flag]!r}.")
        if name is None:
            key = row["name"].strip().casefold()
            if key in seen:
                problems.append(
                    f"Rows {seen[key] + 1} and {index + 1} both name the fighter type {row['name'].strip()}: "
                    "a type is on one row."
                )
            seen.setdefault(key, index)
    return tuple(problems)


def patron_skill_problems(rows: Any) -> tuple[str, ...]:
    """Every reason `rows` are not a Patron's list of skills, in plain words (empty when they are one)."""
    rows, problems = _as_rows(rows, "Patron skills")
    if rows is None:
        return tuple(problems)
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        shape = _shape(index, row, PATRON_SKILL_FIELDS)
        problems += shape
        if shape:
            continue
        name = _name_problem(index, row)
        if name:
            problems.append(name)
        code = row["code"]
        if not isinstance(code, str) or not CODE_PATTERN.fullmatch(code):
            problems.append(
                f"{_label(index, row)}: code must be lower-case letters, digits and underscores, starting with "
                f"a letter, got {code!r}."
            )
        elif code in seen:
            problems.append(
                f"Rows {seen[code] + 1} and {index + 1} both have the code {code}: give each skill its own code."
            )
        else:
            seen[code] = index
    return tuple(problems)
