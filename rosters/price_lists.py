"""What a price list's rows hold, how they are checked, and how they read and write as CSV and JSON.

Two kinds (rosters.models.PriceList.Kind): the fighter types a warband recruits from (`name`, `cost`, `keywords`,
and the profile the fighter starts with: `movement`, `health`, `harm_limit`), and the Battlekit it buys (`name`,
`cost`, `keywords` such as HEAVY, `removable`). Every number is checked against the very limits the roster's
fields carry (rosters/models/limits.py: FIGHTER_LIMITS, ITEM_LIMITS), so a listed price or profile is one the roster
keeps. No official list is shipped: the demo's rows below are made up.

CSV: a header line naming the fields, then a row per line; keywords separated by ";" in one cell; removable reads
yes/no (empty is yes). JSON: `{"format": "warband-ledger/price-list", "version": 1, "kind": ..., "rows": [...]}`,
or the bare list of rows. Rows that cannot be a price list raise `PriceListError` with every problem in words.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from campaigns.fields import DIGITS_ONLY, other_digits
from rosters.json_input import JSONRefused, load_json
from rosters.limits import bounds, keyword_limits, max_length
from rosters.models import Fighter, Item

FORMAT = "warband-ledger/price-list"
FORMAT_VERSION = 1
MAX_ROWS = 200
MAX_FILE_BYTES = 200_000
# The JSON format nests 4 deep (document, rows, row, keywords): a deeper file is not a price list.
MAX_DEPTH = 8
TRUE_WORDS = {"yes", "true", "1", "y", "x"}
FALSE_WORDS = {"no", "false", "0", "n"}

FIGHTERS, BATTLEKIT = "fighters", "battlekit"
FIELDS = {
    FIGHTERS: ("name", "cost", "keywords", "movement", "health", "harm_limit"),
    BATTLEKIT: ("name", "cost", "keywords", "removable"),
}
MODELS = {FIGHTERS: Fighter, BATTLEKIT: Item}
NUMBERS = {FIGHTERS: ("cost", "movement", "health", "harm_limit"), BATTLEKIT: ("cost",)}
OPTIONAL = {"harm_limit"}  # empty: no Harm Limit (RULING D-4)


class PriceListError(ValueError):
    def __init__(self, problems) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


def _keywords(value: Any, number: int, model, problems: list[str]) -> list[str]:
    if isinstance(value, str):
        value = value.split(";")
    if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
        problems.append(f"Row {number}: keywords must be a list of words.")
        return []
    longest, most = keyword_limits(model)
    words: list[str] = []
    for word in value:
        word = word.strip().upper()
        if word and word not in words:
            words.append(word)
            if len(word) > longest:
                problems.append(f"Row {number}: the keyword {word[:20]} is longer than {longest} characters.")
    if len(words) > most:
        problems.append(f"Row {number}: at most {most} keywords.")
    return words


def _number(kind: str, field: str, value: Any, number: int, problems: list[str]) -> int | None:
    if field in OPTIONAL and value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"Row {number}: {field} must be a whole number, got {value!r}.")
        return None
    low, high = bounds(MODELS[kind], field)
    if not low <= value <= high:
        problems.append(f"Row {number}: {field} must be from {low} to {high}, got {value}.")
    return value


def _row(kind: str, row: Any, number: int, problems: list[str]) -> dict[str, Any]:
    if not isinstance(row, dict):
        problems.append(f"Row {number} is not a row of fields.")
        return {}
    unknown = sorted(set(row) - set(FIELDS[kind]))
    if unknown:
        problems.append(f"Row {number} has fields a price list does not know: {', '.join(unknown)}.")
    model = MODELS[kind]
    name = row.get("name")
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        problems.append(f"Row {number} has no name.")
    elif len(name) > max_length(model, "name"):
        problems.append(f"Row {number}: the name is longer than {max_length(model, 'name')} characters.")
    clean: dict[str, Any] = {"name": name}
    for field in NUMBERS[kind]:
        clean[field] = _number(kind, field, row.get(field), number, problems)
    clean["keywords"] = _keywords(row.get("keywords", []), number, model, problems)
    if kind == BATTLEKIT:
        removable = row.get("removable", True)
        if not isinstance(removable, bool):
            problems.append(f"Row {number}: removable must be true or false.")
        clean["removable"] = removable
    return {field: clean[field] for field in FIELDS[kind]}


def checked_rows(kind: str, rows: Any) -> list[dict[str, Any]]:
    """The rows as the campaign keeps them (trimmed, keywords upper-case, ordered by name), or `PriceListError`
    with every problem: a missing or repeated name, a cost or a profile past the roster's limits."""
    if kind not in FIELDS:
        raise PriceListError([f"There is no price list of {kind!r}."])
    if not isinstance(rows, list):
        raise PriceListError(["A price list is a list of rows."])
    problems: list[str] = []
    if len(rows) > MAX_ROWS:
        problems.append(f"{len(rows)} rows: a price list holds at most {MAX_ROWS}.")
    clean = [_row(kind, row, number, problems) for number, row in enumerate(rows, start=1)]
    seen: set[str] = set()
    for number, row in enumerate(clean, start=1):
        key = row.get("name", "").casefold()
        if key and key in seen:
            problems.append(f"Row {number}: {row['name']} is listed twice.")
        seen.add(key)
    if problems:
        raise PriceListError(problems)
    return sorted(clean, key=lambda row: row["name"].casefold())


# -- CSV and JSON -----------------------------------------------------------------------------------------------


def _cell(kind: str, field: str, text: str, number: int, problems: list[str]) -> Any:
    text = (text or "").strip()
    if field in NUMBERS[kind]:
        if field in OPTIONAL and not text:
            return None
        if other_digits(text):  # int() would read "١" as 1; the forms refuse it (campaigns/fields.py)
            problems.append(f"Line {number}: {field}: {DIGITS_ONLY}")
            return text
        try:
            return int(text)
        except ValueError:
            problems.append(f"Line {number}: {field} must be a whole number, got {text!r}.")
            return text
    if field == "removable":
        if not text or text.lower() in TRUE_WORDS:
            return True
        if text.lower() in FALSE_WORDS:
            return False
        problems.append(f"Line {number}: removable must be yes or no, got {text!r}.")
        return text
    return text


def rows_from_csv(kind: str, text: str) -> list[dict[str, Any]]:
    fields = FIELDS[kind]
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise PriceListError([f"The CSV is empty: its first line names the fields ({', '.join(fields)})."])
    reader = csv.DictReader(io.StringIO("\n".join(lines)))
    header = [name.strip() for name in reader.fieldnames or []]
    if sorted(header) != sorted(fields):
        raise PriceListError(
            [f"The CSV's first line must name the fields {', '.join(fields)}; it names {', '.join(header)}."]
        )
    reader.fieldnames = header
    rows, problems = [], []
    for number, raw in enumerate(reader, start=2):
        if None in raw:
            problems.append(f"Line {number} has more cells than the header names.")
            continue
        rows.append({field: _cell(kind, field, raw.get(field) or "", number, problems) for field in fields})
    if problems:
        raise PriceListError(problems)
    return rows


def rows_to_csv(kind: str, rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FIELDS[kind])
    for row in rows:
        cells = []
        for field in FIELDS[kind]:
            value = row.get(field)
            if field == "keywords":
                value = "; ".join(value or [])
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            cells.append("" if value is None else value)
        writer.writerow(cells)
    return out.getvalue()


def rows_from_json(kind: str, text: str) -> list[Any]:
    try:
        data = load_json(text, max_depth=MAX_DEPTH, what="a price list")
    except JSONRefused as refused:
        raise PriceListError([refused.reason]) from None
    if isinstance(data, dict):
        if data.get("format") != FORMAT or data.get("kind") != kind:
            raise PriceListError([f'This is not a price list of {kind}: its "format" should be "{FORMAT}".'])
        data = data.get("rows")
    if not isinstance(data, list):
        raise PriceListError(["The JSON holds no list of rows."])
    return data


def rows_to_json(kind: str, rows: list[dict[str, Any]]) -> str:
    body = {"format": FORMAT, "version": FORMAT_VERSION, "kind": kind, "rows": rows}
    return json.dumps(body, ensure_ascii=False, indent=2)


def rows_from_text(kind: str, text: str | bytes, *, fmt: str) -> list[Any]:
    """The rows of an upload or a paste; `fmt` is "csv", "json" or "auto" (JSON when it starts with [ or {)."""
    if isinstance(text, bytes):
        if len(text) > MAX_FILE_BYTES:
            raise PriceListError([f"The file is larger than {MAX_FILE_BYTES // 1000} kB: not a price list."])
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise PriceListError(["The file is not text (UTF-8)."]) from None
    if fmt == "auto":
        fmt = "json" if text.lstrip()[:1] in ("[", "{") else "csv"
    return rows_from_json(kind, text) if fmt == "json" else rows_from_csv(kind, text)


# The demo campaign's made-up list ("No official list is shipped; the demo carries a small made-up one").
DEMO_ROWS = {
    FIGHTERS: [
        {
            "name": "Lantern Warden",
            "cost": 90,
            "keywords": ["ELITE"],
            "movement": 6,
            "health": 2,
            "harm_limit": 3,
        },
        {"name": "Mire Pilgrim", "cost": 40, "keywords": [], "movement": 6, "health": 1, "harm_limit": 3},
        {
            "name": "Trench Runner",
            "cost": 35,
            "keywords": ["SCOUT"],
            "movement": 8,
            "health": 1,
            "harm_limit": 2,
        },
    ],
    BATTLEKIT: [
        {"name": "Bell Hammer", "cost": 15, "keywords": ["HEAVY"], "removable": True},
        {"name": "Chain Sling", "cost": 5, "keywords": [], "removable": True},
        {"name": "Rivet Plate", "cost": 30, "keywords": ["ARMOUR"], "removable": False},
    ],
}

# A Fallout: Factions campaign's own made-up list: no name of the Trench Crusade one, in a crew's words (caps,
# Champions by their role, no ELITE keyword: a Fallout: Factions Champion is marked on the fighter).
DEMO_ROWS_FALLOUT_FACTIONS = {
    FIGHTERS: [
        {
            "name": "Salvage Chief",
            "cost": 85,
            "keywords": ["LEADER"],
            "movement": 6,
            "health": 3,
            "harm_limit": 3,
        },
        {"name": "Dust Scavenger", "cost": 35, "keywords": [], "movement": 6, "health": 1, "harm_limit": 3},
        {
            "name": "Rust Sentry",
            "cost": 50,
            "keywords": ["SENTRY"],
            "movement": 5,
            "health": 2,
            "harm_limit": 3,
        },
    ],
    BATTLEKIT: [
        {"name": "Pipe Wrench Club", "cost": 10, "keywords": ["MELEE"], "removable": True},
        {"name": "Jury-Rigged Scope", "cost": 15, "keywords": [], "removable": True},
        {"name": "Scrap Plate Vest", "cost": 25, "keywords": ["ARMOUR"], "removable": False},
    ],
}


def demo_rows_for(preset: str) -> dict[str, list[dict]]:
    """The made-up demo lists of a preset's campaign; an unknown preset reads as Trench Crusade, the default."""
    return DEMO_ROWS_FALLOUT_FACTIONS if preset == "fallout_factions" else DEMO_ROWS
