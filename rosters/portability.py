"""A warband as a JSON file, and back: the export format, versioned, and its strict validation for import.

The format (`"format": "warband-ledger/warband"`, `"version": 1`)::

    {
      "format": "warband-ledger/warband",
      "version": 1,
      "exported_at": "2026-05-12T21:04:00+00:00",
      "source": {"campaign": "The Long Trench", "preset": "trench_crusade"},
      "warband": {
        "name": "Iron Sepulchre", "faction": "Trench Pilgrims", "notes": "", "strongbox": 50, "glory": 0,
        "crew_xp": 0,
        "fighters": [
          {"name": "Brother Marcus", "fighter_type": "Trench Pilgrim", "keywords": ["ELITE"], "champion": false,
           "strength": 5, ..., "luck": 5, "health": 1, "harm_limit": 3, "movement": 6, "unit_size": 1, "xp": 7,
           "battle_scars": 1, "can_gain_xp": true, "status": "active", "misses_next_game": false,
           "injuries": [{"code": "14", "name": "Hand Wound", "effect": "...", "d66": 14}],
           "battlekit": [{"name": "Lance", "notes": "", "keywords": [], "removable": true}]}
        ],
        "arsenal": [{"name": "Holy Relic", "notes": "", "keywords": [], "removable": true}]
      }
    }

`warband` holds everything a roster is, in the order the roster lists it; ids, owners and games are not part of
it (an imported warband belongs to whoever imports it, in a campaign whose games are its own), so exporting an
imported warband gives back the same `warband` object. `exported_at` and `source` are for people reading the
file and are not imported.

Import trusts nothing: the file is read only up to `MAX_BYTES`, must be UTF-8 JSON with no duplicate keys, NaN or
deep nesting, of this format and version, with exactly the keys above (a missing or unknown key is refused), the
right type for each value (no `true` for a number, no `7.0` for a whole number), strings within the columns'
lengths and free of control characters, numbers within the database's ranges, and at most `MAX_FIGHTERS`
fighters. A refused file raises `ImportRefused` with every problem found (up to a dozen), in words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from rosters.models import FIGHTER_FIELDS, ITEM_FIELDS, SPECIAL, WARBAND_FIELDS, Fighter

FORMAT = "warband-ledger/warband"
VERSION = 1
MAX_BYTES = 1_000_000
MAX_FIGHTERS = 100
MAX_INJURIES = 30  # per fighter
MAX_BATTLEKIT = 40  # per fighter
MAX_ARSENAL = 300
MAX_KEYWORDS = 20
MAX_DEPTH = 8  # the format nests 5 deep; a deeper file is not one of ours
MAX_PROBLEMS = 12


class ImportRefused(ValueError):
    """The file is not a warband this version can import; `problems` says why, in words."""

    def __init__(self, problems: list[str]):
        self.problems = problems[:MAX_PROBLEMS]
        super().__init__("; ".join(self.problems))


# -- export -----------------------------------------------------------------------------------------------------

WARBAND_KEYS = WARBAND_FIELDS
FIGHTER_KEYS = (*FIGHTER_FIELDS, "status")
INJURY_KEYS = ("code", "name", "effect", "d66")
ITEM_KEYS = ITEM_FIELDS


def _item(item) -> dict[str, Any]:
    return {key: list(getattr(item, key)) if key == "keywords" else getattr(item, key) for key in ITEM_KEYS}


def export_warband(warband) -> dict[str, Any]:
    """The warband, its fighters with their Injuries and Battlekit, and its Arsenal, in the export format."""
    fighters = list(warband.fighters.order_by("id").prefetch_related("injuries", "battlekit"))
    arsenal = warband.items.filter(fighter__isnull=True).order_by("id")
    campaign = warband.campaign
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(timespec="seconds"),
        "source": {"campaign": campaign.name, "preset": campaign.preset},
        "warband": {
            **{key: getattr(warband, key) for key in WARBAND_KEYS},
            "fighters": [
                {
                    **{
                        key: list(f.keywords) if key == "keywords" else getattr(f, key)
                        for key in FIGHTER_KEYS
                    },
                    "injuries": [
                        {key: getattr(i, key) for key in INJURY_KEYS}
                        for i in sorted(f.injuries.all(), key=lambda i: i.pk)
                    ],
                    "battlekit": [_item(i) for i in sorted(f.battlekit.all(), key=lambda i: i.pk)],
                }
                for f in fighters
            ],
            "arsenal": [_item(i) for i in arsenal],
        },
    }


def export_json(warband) -> str:
    return json.dumps(export_warband(warband), ensure_ascii=False, indent=2)


# -- validation -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    max_length: int
    required: bool = False  # must not be blank
    multiline: bool = False


@dataclass(frozen=True)
class Number:
    low: int
    high: int
    nullable: bool = False


@dataclass(frozen=True)
class Flag:
    pass


@dataclass(frozen=True)
class Choice:
    values: tuple[str, ...]


@dataclass(frozen=True)
class Words:
    """A list of short keywords (ELITE, HEAVY, TWO-HANDED...)."""

    max_length: int = 40
    max_count: int = MAX_KEYWORDS


@dataclass(frozen=True)
class Rows:
    spec: dict
    max_count: int
    noun: str


# Lengths and ranges follow the models' columns and check constraints (rosters/models.py).
ITEM_SPEC = {
    "name": Text(100, required=True),
    "notes": Text(200),
    "keywords": Words(),
    "removable": Flag(),
}
INJURY_SPEC = {
    "code": Text(40, required=True),
    "name": Text(100, required=True),
    "effect": Text(2000, multiline=True),
    "d66": Number(11, 66, nullable=True),
}
FIGHTER_SPEC = {
    "name": Text(100, required=True),
    "fighter_type": Text(100),
    "keywords": Words(),
    "champion": Flag(),
    **{stat: Number(1, 10) for stat in SPECIAL},
    "health": Number(1, 20),
    "harm_limit": Number(0, 10, nullable=True),
    "movement": Number(0, 30),
    "unit_size": Number(1, 100),
    "xp": Number(0, 100_000),
    "battle_scars": Number(0, 20),
    "can_gain_xp": Flag(),
    "status": Choice(tuple(Fighter.Status.values)),
    "misses_next_game": Flag(),
    "injuries": Rows(INJURY_SPEC, MAX_INJURIES, "Injury"),
    "battlekit": Rows(ITEM_SPEC, MAX_BATTLEKIT, "item of Battlekit"),
}
WARBAND_SPEC = {
    "name": Text(100, required=True),
    "faction": Text(100),
    "notes": Text(5000, multiline=True),
    "strongbox": Number(0, 10_000_000),
    "glory": Number(0, 1_000_000),
    "crew_xp": Number(0, 1_000_000),
    "fighters": Rows(FIGHTER_SPEC, MAX_FIGHTERS, "fighter"),
    "arsenal": Rows(ITEM_SPEC, MAX_ARSENAL, "Arsenal item"),
}
TOP_KEYS = {"format", "version", "warband"}
TOP_OPTIONAL = {"exported_at", "source"}
CONTROL = {chr(c) for c in range(32)} | {"\x7f"}


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_text(value, spec: Text) -> str | None:
    if not isinstance(value, str):
        return "must be text"
    if len(value) > spec.max_length:
        return f"is longer than {spec.max_length} characters"
    allowed = {"\n", "\t", "\r"} if spec.multiline else set()
    if any(ch in CONTROL and ch not in allowed for ch in value):
        return "contains control characters"
    if spec.required and not value.strip():
        return "must not be empty"
    return None


def _check_value(value, spec) -> str | None:
    if isinstance(spec, Text):
        return _check_text(value, spec)
    if isinstance(spec, Number):
        if value is None:
            return None if spec.nullable else "must be a whole number, not empty"
        if not _is_int(value):
            return "must be a whole number"
        if not spec.low <= value <= spec.high:
            return f"must be from {spec.low} to {spec.high}"
        return None
    if isinstance(spec, Flag):
        return None if isinstance(value, bool) else "must be true or false"
    if isinstance(spec, Choice):
        return None if value in spec.values else f"must be one of {', '.join(spec.values)}"
    if isinstance(spec, Words):
        if not isinstance(value, list):
            return "must be a list of keywords"
        if len(value) > spec.max_count:
            return f"has more than {spec.max_count} keywords"
        for word in value:
            problem = _check_text(word, Text(spec.max_length, required=True))
            if problem:
                return f"has a keyword that {problem}"
        return None
    raise AssertionError(spec)


def _check_object(value, spec: dict, where: str, problems: list[str]) -> None:
    if not isinstance(value, dict):
        problems.append(f"{where} must be an object")
        return
    missing = [key for key in spec if key not in value]
    unknown = sorted(key for key in value if key not in spec)
    if missing:
        problems.append(f"{where} is missing {', '.join(missing)}")
    if unknown:
        problems.append(f"{where} has fields this version does not know: {', '.join(unknown[:5])}")
    for key, field_spec in spec.items():
        if key not in value or len(problems) >= MAX_PROBLEMS:
            continue
        item = value[key]
        if isinstance(field_spec, Rows):
            if not isinstance(item, list):
                problems.append(f"{where}: {key} must be a list")
                continue
            if len(item) > field_spec.max_count:
                problems.append(
                    f"{where} has {len(item)} {key}; at most {field_spec.max_count} can be imported"
                )
                continue
            for n, row in enumerate(item, start=1):
                name = row.get("name") if isinstance(row, dict) and isinstance(row.get("name"), str) else ""
                label = f"{field_spec.noun} {n}" + (f" ({name[:40]})" if name else "")
                _check_object(
                    row, field_spec.spec, f"{where}, {label}" if where != "The warband" else label, problems
                )
            continue
        problem = _check_value(item, field_spec)
        if problem:
            problems.append(f"{where}: {key} {problem}")
    if (
        spec is INJURY_SPEC
        and _is_int(value.get("d66"))
        and not all(ch in "123456" for ch in str(value["d66"]))
    ):
        problems.append(f"{where}: d66 {value['d66']} is not a D66 roll (two dice of 1 to 6)")


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number this format allows")


def _no_duplicates(pairs):
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("the file repeats a key inside one object")
    return dict(pairs)


def _depth(value, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def parse_warband_file(raw: bytes) -> dict[str, Any]:
    """The `warband` object of an export file, checked through; raises ImportRefused with the reasons."""
    if len(raw) > MAX_BYTES:
        raise ImportRefused(
            [f"The file is larger than {MAX_BYTES // 1_000_000} MB; a warband file is far smaller."]
        )
    if not raw.strip():
        raise ImportRefused(["The file is empty."])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(["The file is not text (UTF-8): is it a warband export?"]) from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise ImportRefused(["The file nests too deeply to be a warband export."]) from None
    except ValueError as error:
        raise ImportRefused([f"The file is not valid JSON ({error})."]) from None
    if _depth(data) > MAX_DEPTH:
        raise ImportRefused(["The file nests too deeply to be a warband export."])
    if not isinstance(data, dict):
        raise ImportRefused(["The file does not hold a warband export (it should be a JSON object)."])
    if data.get("format") != FORMAT:
        raise ImportRefused([f'This is not a warband export: its "format" should be "{FORMAT}".'])
    version = data.get("version")
    if not _is_int(version) or version != VERSION:
        raise ImportRefused(
            [f"This file is format version {version!r}; this Warband Ledger imports version {VERSION}."]
        )
    problems: list[str] = []
    missing = sorted(TOP_KEYS - data.keys())
    unknown = sorted(data.keys() - TOP_KEYS - TOP_OPTIONAL)
    if missing:
        problems.append(f"The file is missing {', '.join(missing)}")
    if unknown:
        problems.append(f"The file has fields this version does not know: {', '.join(unknown[:5])}")
    if "warband" in data:
        _check_object(data["warband"], WARBAND_SPEC, "The warband", problems)
    if problems:
        raise ImportRefused(problems)
    return data["warband"]
