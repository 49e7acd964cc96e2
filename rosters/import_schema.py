"""The import's schema: pydantic models of the export format, built from the roster models' own fields and limits.

Each row of the file (the warband, a fighter, an Injury, a piece of Battlekit) is a pydantic model made from the
Django model's fields (rosters/models/): a whole number within the field's validators, text within its
`max_length` and free of control characters (line breaks allowed in a TextField), true or false for a flag, one
of the field's choices, keywords within the ArrayField's size and length. Every row forbids unknown keys
(`extra="forbid"`) and takes no value of another type (`strict`: no `true` for a number, no `7.0` or `"7"` for a
whole number). So the file meets the very limits the forms and the database keep (rosters/tests/test_limits.py).

`problems(error, data)` turns pydantic's errors into sentences that name the row and the field, as a player reads
them ("fighter 1 (Brother Marcus): xp must be from 0 to 10000").
"""

from __future__ import annotations

from typing import Annotated, Any

from django.contrib.postgres.fields import ArrayField
from django.db import models
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    create_model,
)
from pydantic import ValidationError as SchemaError
from pydantic_core import PydanticCustomError

from combat.rules import is_d66
from rosters.limits import bounds, keyword_limits
from rosters.models import (
    FIGHTER_FIELDS,
    INJURY_FIELDS,
    ITEM_FIELDS,
    WARBAND_FIELDS,
    Fighter,
    Injury,
    Item,
    Warband,
)

__all__ = ["SchemaError", "ExportFile", "problems"]

MAX_FIGHTERS = 100
MAX_INJURIES = 30  # per fighter
MAX_BATTLEKIT = 40  # per fighter
MAX_ARSENAL = 300

CONTROL = frozenset({chr(c) for c in range(32)} | {"\x7f"})
LINE_BREAKS = frozenset({"\n", "\t", "\r"})

# -- field types, from a Django field ---------------------------------------------------------------------------


def _refuse(code: str, message: str, **context: Any) -> PydanticCustomError:
    return PydanticCustomError(code, message, context or None)


def _text(length: int, *, required: bool, multiline: bool) -> Any:
    allowed = LINE_BREAKS if multiline else frozenset()

    def check(value: str) -> str:
        if any(ch in CONTROL and ch not in allowed for ch in value):
            raise _refuse("control_characters", "contains control characters")
        if required and not value.strip():
            raise _refuse("empty", "must not be empty")
        return value

    return Annotated[StrictStr, Field(max_length=length), AfterValidator(check)]


def _number(low: int, high: int, *, d66: bool = False) -> Any:
    def check(value: int) -> int:
        if not low <= value <= high:
            raise _refuse("range", "must be from {low} to {high}", low=low, high=high)
        if d66 and not is_d66(value):
            raise _refuse("d66", "{value} is not a D66 roll (two dice of 1 to 6)", value=value)
        return value

    return Annotated[StrictInt, AfterValidator(check)]


def _choice(values: tuple[str, ...]) -> Any:
    def check(value: str) -> str:
        if value not in values:
            raise _refuse("choice", "must be one of {values}", values=", ".join(values))
        return value

    return Annotated[StrictStr, AfterValidator(check)]


def _field_type(model: type[models.Model], name: str) -> Any:
    """The pydantic type of one Django field, with the field's own limits."""
    field = model._meta.get_field(name)
    if isinstance(field, ArrayField):
        longest, most = keyword_limits(model, name)
        keyword = _text(longest, required=True, multiline=False)
        return Annotated[list[keyword], Field(max_length=most)]
    if isinstance(field, models.BooleanField):
        return StrictBool
    if field.choices:
        return _choice(tuple(value for value, _label in field.choices))
    if isinstance(field, models.IntegerField):
        kind = _number(*bounds(model, name), d66=name == "d66")
        return kind | None if field.null else kind
    if isinstance(field, (models.CharField, models.TextField)):
        # A field that may not be blank (a name, a code) may not be only spaces either, as the forms trim them.
        return _text(
            field.max_length, required=not field.blank, multiline=isinstance(field, models.TextField)
        )
    raise TypeError(f"{model.__name__}.{name} has no import type")


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# Keys a file written before they existed lacks: read as the field's default (costs and the starting
# value came after version 1 files were written; a file without them imports at cost 0, starting value 700).
# Trench Crusade's Ranged, Melee, Armour and base came later still; an older file imports with 0, 0, 0
# and a 25mm base.
DEFAULTED = frozenset({"cost", "starting_value", "ranged", "melee", "armour", "base_size"})


def _row(title: str, model: type[models.Model], names: tuple[str, ...], **extra: Any) -> type[Row]:
    fields: dict[str, Any] = {
        name: (_field_type(model, name), model._meta.get_field(name).default if name in DEFAULTED else ...)
        for name in names
    }
    fields.update(extra)
    return create_model(title, __base__=Row, **fields)


def _rows(row: type[Row], most: int) -> Any:
    return (Annotated[list[row], Field(max_length=most)], ...)


ItemRow = _row("ItemRow", Item, ITEM_FIELDS)
InjuryRow = _row("InjuryRow", Injury, INJURY_FIELDS)
FighterRow = _row(
    "FighterRow",
    Fighter,
    (*FIGHTER_FIELDS, "status"),
    injuries=_rows(InjuryRow, MAX_INJURIES),
    battlekit=_rows(ItemRow, MAX_BATTLEKIT),
)
WarbandRow = _row(
    "WarbandRow",
    Warband,
    WARBAND_FIELDS,
    fighters=_rows(FighterRow, MAX_FIGHTERS),
    arsenal=_rows(ItemRow, MAX_ARSENAL),
)


class ExportFile(Row):
    """The whole file. `exported_at` and `source` are for people reading it and are not imported."""

    format: StrictStr
    version: StrictInt
    warband: WarbandRow
    exported_at: StrictStr | None = None
    source: dict[str, StrictStr | None] | None = None


# -- errors, in words -------------------------------------------------------------------------------------------

NOUNS = {
    "fighters": "fighter",
    "injuries": "Injury",
    "battlekit": "item of Battlekit",
    "arsenal": "Arsenal item",
}


def _where(loc: tuple, data: Any) -> tuple[str, tuple]:
    """The row an error is about, in words ("fighter 2 (Sister Ama), Injury 1"), and the rest of its location."""
    where, node, rest = "The file", data, list(loc)
    if len(rest) > 1 and rest[0] == "warband":  # inside the warband (a bare "warband" is the file's own key)
        where, node, rest = "The warband", node.get("warband") if isinstance(node, dict) else None, rest[1:]
    while len(rest) >= 2 and rest[0] in NOUNS and isinstance(rest[1], int):
        key, n = rest[0], rest[1]
        rows = node.get(key) if isinstance(node, dict) else None
        node = rows[n] if isinstance(rows, list) and n < len(rows) else None
        name = node.get("name") if isinstance(node, dict) else None
        label = f"{NOUNS[key]} {n + 1}" + (f" ({name[:40]})" if isinstance(name, str) and name else "")
        where = label if where == "The warband" else f"{where}, {label}"
        rest = rest[2:]
    return where, tuple(rest)


def _message(error: dict, key: str, rest: tuple) -> str:
    """What is wrong with one value, after its key ("must be a whole number")."""
    kind = error["type"]
    if len(rest) == 2 and isinstance(rest[1], int):  # one keyword of a list of keywords
        return f"has a keyword that {_message(error, key, ())}"
    if kind in ("range", "d66", "choice", "control_characters", "empty"):
        return error["msg"]
    if kind.startswith("int") or kind == "bool_parsing":
        return "must be a whole number" + (", not empty" if error.get("input") is None else "")
    if kind == "string_too_long":
        return f"is longer than {error['ctx']['max_length']} characters"
    if kind == "string_type":
        return "must be text"
    if kind == "bool_type":
        return "must be true or false"
    if kind == "list_type":
        return "must be a list of keywords" if key == "keywords" else "must be a list"
    if kind == "too_long" and key == "keywords":
        return f"has more than {error['ctx']['max_length']} keywords"
    if kind in ("model_type", "dict_type"):
        return "must be an object"
    return error["msg"]


def problems(error: SchemaError, data: Any) -> list[str]:
    """Every problem pydantic found, in words, each naming its row and field; missing and unknown keys of a row
    are told in one sentence each."""
    said: list[str] = []
    missing: dict[str, list[str]] = {}
    unknown: dict[str, list[str]] = {}
    for item in error.errors():
        if item["type"] == "none_required":  # the other branch of a nullable number says what is wrong
            continue
        where, rest = _where(tuple(item["loc"]), data)
        if len(rest) >= 2 and isinstance(rest[1], str):  # a nullable number's branch: not a key of the file
            rest = (rest[0], *rest[2:])
        key = str(rest[0]) if rest else ""
        if item["type"] == "missing":
            missing.setdefault(where, []).append(key)
        elif item["type"] == "extra_forbidden":
            unknown.setdefault(where, []).append(key)
        elif item["type"] == "too_long" and key in NOUNS:
            count, most = item["ctx"].get("actual_length"), item["ctx"]["max_length"]
            said.append(f"{where} has {count} {key}; at most {most} can be imported")
        elif not rest:
            said.append(f"{where} {_message(item, key, rest)}")
        else:
            said.append(f"{where}: {key} {_message(item, key, rest)}")
    told = [f"{where} is missing {', '.join(keys)}" for where, keys in missing.items()]
    told += [
        f"{where} has fields this version does not know: {', '.join(sorted(keys)[:5])}"
        for where, keys in unknown.items()
    ]
    return told + said
