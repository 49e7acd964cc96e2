"""What each kind of campaign data holds, how its rows are checked, and how they read and write as CSV and JSON.

The rules decide whether rows make a skill chart or a Location table (`combat.rules.SkillChart.problems`,
`LocationTable.problems`), a stage's scenario table (`rules.scenario_table_problems`) or a list of fighter types or Patron skills (`combat/rules/campaign_data_checks.py`);
this module adds the limits the models set (combat/models/campaign_data.py: row count, name and code length) and
the two file formats, so the editor, the import and the export share one reading of a row.

CSV: a header line naming the fields, then a row per line; true/false columns read yes/no, true/false, 1/0 (empty
is no). JSON: `{"format": "warband-ledger/campaign-data", "version": 1, "kind": ..., "rows": [...]}`, or the bare
list of rows. A file that cannot be read raises `CampaignDataError` with every problem in plain words.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from campaigns.fields import DIGITS_ONLY, other_digits
from combat import rules
from combat.models.campaign_data import (
    CODE_LENGTH,
    FIGHTER_TYPES,
    LOCATION_TABLES,
    MAX_ROWS,
    NAME_LENGTH,
    PATRON_SKILLS,
    SCENARIO_TABLES,
    SKILL_CHARTS,
    family,
)
from combat.rules.campaign_data_checks import fighter_type_problems, patron_skill_problems
from rosters.json_input import JSONRefused, load_json

FORMAT = "warband-ledger/campaign-data"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 200_000
MAX_DEPTH = 8  # the JSON format nests 3 deep (document, rows, row); a deeper file is not one of ours
TRUE_WORDS = {"yes", "true", "1", "y", "x"}
FALSE_WORDS = {"no", "false", "0", "n", ""}


class CampaignDataError(ValueError):
    """Rows or a file that cannot be this kind of data: `problems` says every reason in plain words."""

    def __init__(self, problems) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True)
class Family:
    """One family of kinds: its fields (the first orders the rows), their types, and the engine's checker."""

    fields: tuple[str, ...]
    types: dict[str, type]
    problems: Callable[[Any], tuple[str, ...]]


FAMILIES = {
    "skill_chart": Family(("roll", "code", "name"), {"roll": int}, rules.SkillChart.problems),
    "location_table": Family(("score", "code", "name"), {"score": int}, rules.LocationTable.problems),
    FIGHTER_TYPES: Family(
        ("name", "never_promoted", "limited_potential"),
        {"never_promoted": bool, "limited_potential": bool},
        fighter_type_problems,
    ),
    PATRON_SKILLS: Family(("code", "name"), {}, patron_skill_problems),
    "scenario_table": Family(("roll", "name"), {"roll": int}, rules.scenario_table_problems),
}


def family_of(kind: str) -> Family:
    return FAMILIES[family(kind)]


def title(kind: str, *, warband: str = "") -> str:
    """The kind in words, as the pages and the history say it: "the Ranged skill chart", "the Common Locations"."""
    head, _, rest = kind.partition(":")
    if head == "skill_chart":
        return f"the {SKILL_CHARTS.get(rest, rest)} skill chart"
    if head == "location_table":
        return f"the {LOCATION_TABLES.get(rest, rest)} Locations"
    if head == "scenario_table":
        return f"the {SCENARIO_TABLES.get(rest, rest)} scenario table"
    if head == PATRON_SKILLS:
        return f"the Patron skills of {warband}" if warband else "a warband's Patron skills"
    return "the fighter types"


def _capital(words: str) -> str:
    """The words with a capital first letter, the rest as they are ("the Common Locations" -> "The Common ...")."""
    return words[:1].upper() + words[1:]


def _limit_problems(kind: str, rows: list) -> list[str]:
    found = []
    most = MAX_ROWS[family(kind)]
    if len(rows) > most:
        found.append(f"{_capital(title(kind))}: {len(rows)} rows, at most {most}.")
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            continue
        for field, longest in (("name", NAME_LENGTH), ("code", CODE_LENGTH)):
            value = row.get(field)
            if isinstance(value, str) and len(value.strip()) > longest:
                found.append(f"Row {number}: the {field} is longer than {longest} characters.")
    return found


def _tidy(row: Any) -> Any:
    if not isinstance(row, dict):
        return row
    return {key: value.strip() if isinstance(value, str) else value for key, value in row.items()}


def checked_rows(kind: str, rows: Any) -> list[dict[str, Any]]:
    """The rows as a campaign stores them (text trimmed, ordered by roll, score or name), or `CampaignDataError`
    naming every problem: the engine's and the limits'."""
    spec = family_of(kind)
    if not isinstance(rows, list):
        raise CampaignDataError([f"{_capital(title(kind))}: a list of rows is needed."])
    rows = [_tidy(row) for row in rows]
    problems = list(spec.problems(rows)) + _limit_problems(kind, rows)
    if problems:
        raise CampaignDataError(problems)
    key = spec.fields[0]
    return sorted(
        ({name: row[name] for name in spec.fields} for row in rows),
        key=lambda row: row[key].casefold() if isinstance(row[key], str) else row[key],
    )


# -- CSV ---------------------------------------------------------------------------------------------------------


def _cell(kind_type: type | None, value: str, number: int, field: str, problems: list[str]) -> Any:
    text = (value or "").strip()
    if kind_type is int:
        if other_digits(text):  # int() would read "١" as 1; the forms refuse it (campaigns/fields.py)
            problems.append(f"Line {number}: {field}: {DIGITS_ONLY}")
            return text
        try:
            return int(text)
        except ValueError:
            problems.append(f"Line {number}: {field} must be a whole number, got {text!r}.")
            return text
    if kind_type is bool:
        if text.lower() in TRUE_WORDS | FALSE_WORDS:
            return text.lower() in TRUE_WORDS
        problems.append(f"Line {number}: {field} must be yes or no, got {text!r}.")
        return text
    return text


def rows_from_csv(kind: str, text: str) -> list[dict[str, Any]]:
    """The rows of a CSV text with a header line naming the kind's fields (in any order)."""
    spec = family_of(kind)
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise CampaignDataError(
            [f"The CSV is empty: its first line names the fields ({', '.join(spec.fields)})."]
        )
    reader = csv.DictReader(io.StringIO("\n".join(lines)))
    header = [name.strip() for name in reader.fieldnames or []]
    if sorted(header) != sorted(spec.fields):
        raise CampaignDataError(
            [
                f"The CSV's first line must name the fields {', '.join(spec.fields)}; it names {', '.join(header)}."
            ]
        )
    reader.fieldnames = header
    rows, problems = [], []
    for number, raw in enumerate(reader, start=2):
        if None in raw:
            problems.append(f"Line {number} has more cells than the header names.")
            continue
        rows.append(
            {
                name: _cell(spec.types.get(name), raw.get(name) or "", number, name, problems)
                for name in spec.fields
            }
        )
    if problems:
        raise CampaignDataError(problems)
    return rows


def rows_to_csv(kind: str, rows: list[dict[str, Any]]) -> str:
    spec = family_of(kind)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(spec.fields)
    for row in rows:
        writer.writerow(
            [
                "yes" if row.get(f) is True else "no" if row.get(f) is False else row.get(f, "")
                for f in spec.fields
            ]
        )
    return out.getvalue()


# -- JSON --------------------------------------------------------------------------------------------------------


def rows_from_json(kind: str, text: str) -> list[Any]:
    """The rows of a JSON export of this kind (or a bare list of rows)."""
    try:
        data = load_json(text, max_depth=MAX_DEPTH, what="campaign data")
    except JSONRefused as refused:
        raise CampaignDataError([refused.reason]) from None
    if isinstance(data, list):
        return data
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("rows"), list):
        raise CampaignDataError(
            [f"A campaign data file is a list of rows, or a {FORMAT} document with its rows."]
        )
    if data.get("kind") not in (None, kind) and family(str(data.get("kind"))) in FAMILIES:
        raise CampaignDataError([f"This file holds {title(str(data['kind']))}, not {title(kind)}."])
    return data["rows"]


def rows_to_json(kind: str, rows: list[dict[str, Any]], *, version: int | None = None) -> str:
    document = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "kind": kind,
        "data_version": version,
        "rows": rows,
    }
    return json.dumps(document, indent=1, ensure_ascii=False)


def rows_from_text(kind: str, text: str | bytes, *, fmt: str) -> list[Any]:
    """Rows from an uploaded or pasted text; `fmt` is "csv" or "json" ("auto": JSON when it starts like JSON)."""
    if len(text) > MAX_FILE_BYTES:
        raise CampaignDataError([f"The file is larger than {MAX_FILE_BYTES // 1000} kB: not campaign data."])
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CampaignDataError(["The file is not UTF-8 text."]) from None
    text = text.replace("\x00", "")
    if fmt == "auto":
        fmt = "json" if text.lstrip()[:1] in ("[", "{") else "csv"
    return rows_from_json(kind, text) if fmt == "json" else rows_from_csv(kind, text)
