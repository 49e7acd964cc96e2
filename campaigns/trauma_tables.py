"""House Trauma Tables: the shipped default to copy, and the checks an edited copy must pass.

The rules engine (`combat.rules.TraumaTable.from_rows`) is the authority on what a table is, but `campaigns` sits
below `combat` and may not import it (ARCHITECTURE.md). So the settings page checks an organiser's edited rows
here against the same invariants the engine enforces (RULING T-3, TRAUMA_TABLE.md): every D66 result 11-66 in
exactly one row (no gap, no overlap), each range's digits 1-6, low not above high, a lower_case code that is not
reserved, a name, and true/false for `scar` and `injury`, the same for every row of one code. A test checks that
this validator and the engine agree on accepted and refused tables.

The shipped default is read from the engine's data file by path (reading a data file is not an import).
"""

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

ENTRY_FIELDS = ("low", "high", "code", "name", "effect", "scar", "injury")
D66_VALUES = tuple(tens * 10 + units for tens in range(1, 7) for units in range(1, 7))
CODE_PATTERN = re.compile(r"[a-z][a-z0-9_]*")
# The engine's odds use these keys beside the result codes (ENGINE.md, trauma_odds).
RESERVED_CODES = frozenset({"removed", "survived"})
DEFAULT_TABLE_NAME = "trench-crusade-1.0"
# The shipped default Trauma Table (Trench Crusade campaign rules v1.0 with the 1.0.2 changes).
DEFAULT_TABLE_PATH = Path(settings.BASE_DIR) / "combat" / "rules" / "data" / "trauma_tables"


class TraumaTableError(ValueError):
    """An edited table that the Trauma Step could not use; `messages` says every reason, in plain words."""

    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("; ".join(messages))


def is_d66(value: Any) -> bool:
    return type(value) is int and value in D66_VALUES


def _row_label(index: int, row: Mapping[str, Any]) -> str:
    name = row.get("name") if isinstance(row, Mapping) else None
    return f"Row {index + 1}" + (f" ({name})" if isinstance(name, str) and name.strip() else "")


def check_rows(rows: Any) -> list[dict[str, Any]]:
    """The rows, cleaned and sorted by D66, or `TraumaTableError` naming every problem found."""
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise TraumaTableError(["A Trauma Table is a list of rows."])
    problems: list[str] = []
    clean: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        label = _row_label(index, row)
        if not isinstance(row, Mapping):
            problems.append(f"{label} is not a row of {', '.join(ENTRY_FIELDS)}.")
            continue
        missing = [name for name in ENTRY_FIELDS if name not in row]
        unknown = sorted(str(name) for name in set(row) - set(ENTRY_FIELDS))
        if missing:
            problems.append(f"{label} has no {', '.join(missing)}.")
        if unknown:
            problems.append(f"{label} has unknown fields: {', '.join(unknown)}.")
        if missing or unknown:
            continue
        row_problems = []
        for name in ("low", "high"):
            if not is_d66(row[name]):
                row_problems.append(
                    f"{label}: {name} {row[name]!r} is not a D66 result (two digits, each 1 to 6, 11-66)."
                )
        if not row_problems and row["low"] > row["high"]:
            row_problems.append(f"{label}: from {row['low']} is above to {row['high']}.")
        code = row["code"]
        if not isinstance(code, str) or not CODE_PATTERN.fullmatch(code):
            row_problems.append(
                f"{label}: code {code!r} must be lower-case letters, digits and underscores, starting with a letter."
            )
        elif code in RESERVED_CODES:
            row_problems.append(f"{label}: code {code!r} is reserved; choose another.")
        if not isinstance(row["name"], str) or not row["name"].strip():
            row_problems.append(f"{label}: the result needs a name.")
        if not isinstance(row["effect"], str):
            row_problems.append(f"{label}: the effect must be text.")
        for name in ("scar", "injury"):
            if type(row[name]) is not bool:
                row_problems.append(f"{label}: {name} must be yes or no.")
        if row_problems:
            problems.extend(row_problems)
            continue
        clean.append({name: row[name] for name in ENTRY_FIELDS} | {"name": row["name"].strip()})
    if problems:
        raise TraumaTableError(problems)
    if not clean:
        raise TraumaTableError(["The table has no rows."])
    clean.sort(key=lambda row: (row["low"], row["high"]))
    covered: dict[int, dict[str, Any]] = {}
    for row in clean:
        for roll in D66_VALUES:
            if row["low"] <= roll <= row["high"]:
                if roll in covered:
                    problems.append(
                        f"Rows overlap: D66 {roll} is in both {covered[roll]['name']} and {row['name']}."
                    )
                else:
                    covered[roll] = row
    gaps = [roll for roll in D66_VALUES if roll not in covered]
    if gaps:
        problems.append(f"The table has a gap: no row covers D66 {', '.join(map(str, gaps))}.")
    flags: dict[str, dict[str, Any]] = {}
    for row in clean:
        first = flags.setdefault(row["code"], row)
        if (first["scar"], first["injury"]) != (row["scar"], row["injury"]):
            problems.append(
                f"Rows of code {row['code']!r} ({first['name']} and {row['name']}) disagree on Battle Scar or Injury."
            )
    if problems:
        raise TraumaTableError(problems)
    return clean


@cache
def _shipped_document(name: str) -> dict[str, Any]:
    path = DEFAULT_TABLE_PATH / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def default_rows() -> list[dict[str, Any]]:
    """A fresh copy of the shipped default table's rows, ready to edit."""
    document = _shipped_document(DEFAULT_TABLE_NAME)
    return [{name: row[name] for name in ENTRY_FIELDS} for row in document["rows"]]


def default_title() -> str:
    return _shipped_document(DEFAULT_TABLE_NAME).get("title", DEFAULT_TABLE_NAME)


def rows_in_use(house_rows: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The rows a campaign rolls on: its house table when it has one, else the shipped default."""
    return [dict(row) for row in house_rows] if house_rows else default_rows()


def d66_range(row: Mapping[str, Any]) -> str:
    return str(row["low"]) if row["low"] == row["high"] else f"{row['low']}-{row['high']}"
