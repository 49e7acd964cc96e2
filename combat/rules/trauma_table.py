"""The Trauma Table as data: its rows (`TraumaEntry`), the table (`TraumaTable`) and how a table is loaded.

Implements TRAUMA_TABLE.md and RULING T-3 (the D66 is looked up on the campaign's table): shipped versions live in
`data/trauma_tables/*.json`, a campaign's house table comes in as rows. What makes a set of rows a Trauma Table is
checked in `trauma_table_checks.py`, the one place that says it, for the engine and for the house-table editor.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from .trauma_table_checks import (
    D66_VALUES,
    ENTRY_FIELDS,
    TraumaTableError,
    entry_problems,
    raise_problems,
    row_problems,
    trauma_table_problems,
)

__all__ = ["D66_VALUES", "ENTRY_FIELDS", "TraumaEntry", "TraumaTable", "TraumaTableError"]

DEFAULT_TABLE = "trench-crusade-1.0"
TABLE_FORMAT = 1


@dataclass(frozen=True, slots=True)
class TraumaEntry:
    """A row of a Trauma Table: the D66 range `low`..`high`, the stable `code`, the result's `name`, a summary of
    its `effect`, whether it gives a Battle Scar (`scar`) and whether it is an Injury the model keeps (`injury`,
    so a repeat is rerolled)."""

    low: int
    high: int
    code: str
    name: str
    effect: str
    scar: bool
    injury: bool

    def __contains__(self, roll: int) -> bool:
        return self.low <= roll <= self.high

    @property
    def rolls(self) -> str:
        """The D66 range as the table prints it: "15" or "41-63"."""
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


def _entries_from_rows(rows: Any) -> tuple[TraumaEntry, ...]:
    """The rows as entries, or `TraumaTableError` listing every problem (trauma_table_checks.py)."""
    raise_problems(row_problems(rows))
    return tuple(TraumaEntry(**{name: row[name] for name in ENTRY_FIELDS}) for row in rows)


class TraumaTable:
    """A Trauma Table, checked on load: every D66 result 11-66 in exactly one row (no gap, no overlap), each code
    on one row.

    `TraumaTable.default()` is Trench Crusade v1.0 (with the 1.0.2 changes); `TraumaTable.named(name)` another
    shipped version (`TraumaTable.names()`, or `named()` with no name, lists them); `TraumaTable.from_rows(rows)`
    a campaign's house table; `TraumaTable.problems(rows)` every reason a set of rows is not one, in plain words.
    Tables are immutable and hashable (the odds cache on them).
    """

    __slots__ = ("name", "version", "title", "entries", "codes", "all_injuries", "_by_roll", "_hash")

    def __init__(self, entries: Iterable[TraumaEntry], *, name: str, version: str, title: str = "") -> None:
        entries = tuple(sorted(entries, key=lambda entry: (entry.low, entry.high)))
        raise_problems(entry_problems(entries))
        self.name = name
        self.version = version
        self.title = title or name
        self.entries = entries
        self.codes = tuple(entry.code for entry in entries)  # each code once (checked), in table order
        # A table with a result that is not an Injury always has a usable roll (RULING T-5 cannot loop forever).
        self.all_injuries = all(entry.injury for entry in entries)
        self._by_roll = {roll: entry for entry in entries for roll in D66_VALUES if roll in entry}
        self._hash = hash((name, version, entries))

    # -- checking and loading -----------------------------------------------------------------------------------

    @classmethod
    def problems(cls, rows: Any, *, labels: Iterable[str] | None = None) -> tuple[str, ...]:
        """Every reason `rows` are not a Trauma Table, in plain words (empty when they are one).

        `labels` names each row as the caller shows it ("Row 3"); by default rows are counted from 1.
        """
        return trauma_table_problems(rows, labels=labels)

    @classmethod
    def default(cls) -> TraumaTable:
        """Trench Crusade campaign rules v1.0, with the 1.0.2 changes (TRAUMA_TABLE.md)."""
        return cls.named(DEFAULT_TABLE)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The names of the shipped tables."""
        return tuple(sorted(_shipped_documents()))

    @classmethod
    def named(cls, name: str | None = None) -> Any:
        """The shipped table called `name` (an unknown name raises `ValueError`); with no name, the names of the
        shipped tables (as `names()`)."""
        if name is None:
            return cls.names()
        return _shipped_table(name)

    @classmethod
    def from_rows(
        cls, rows: Iterable[Mapping[str, Any]], *, name: str = "house", version: str = "1"
    ) -> TraumaTable:
        """A campaign's house table from rows with the `TraumaEntry` fields, as in the data files.

        Rows that are not a table raise `TraumaTableError` (a `ValueError`) with every problem in `.problems`.
        """
        return cls(_entries_from_rows(rows), name=name, version=version)

    @classmethod
    def from_document(cls, document: Mapping[str, Any]) -> TraumaTable:
        """A table from a whole data document: `{"format": 1, "name", "version", "title", "rows": [...]}`."""
        if not isinstance(document, Mapping):
            raise ValueError(f"a Trauma Table document must be a mapping, got {type(document).__name__}")
        if document.get("format") != TABLE_FORMAT:
            raise ValueError(
                f"unknown Trauma Table format {document.get('format')!r}, expected {TABLE_FORMAT}"
            )
        for key in ("name", "version"):
            if not isinstance(document.get(key), str) or not document[key]:
                raise ValueError(f"a Trauma Table document needs a {key}, got {document.get(key)!r}")
        rows = document.get("rows")
        if not isinstance(rows, list):
            raise ValueError(f"a Trauma Table document needs a list of rows, got {rows!r}")
        return cls(
            _entries_from_rows(rows),
            name=document["name"],
            version=document["version"],
            title=document.get("title") or "",
        )

    def to_rows(self) -> list[dict[str, Any]]:
        """The rows as plain data, for an organiser to copy and edit into a house table."""
        return [{name: getattr(entry, name) for name in ENTRY_FIELDS} for entry in self.entries]

    # -- reading ------------------------------------------------------------------------------------------------

    def lookup(self, d66: int) -> TraumaEntry:
        """The row of a D66 result; `ValueError` for a number a D66 roll cannot give."""
        try:
            return self._by_roll[d66]
        except (KeyError, TypeError):
            raise ValueError(f"not a D66 result (two digits, each 1-6): {d66!r}") from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TraumaTable):
            return NotImplemented
        return (self.name, self.version, self.entries) == (other.name, other.version, other.entries)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"TraumaTable(name={self.name!r}, version={self.version!r}, rows={len(self.entries)})"


@cache
def _shipped_documents() -> dict[str, Any]:
    documents = {}
    folder = resources.files(__package__).joinpath("data", "trauma_tables")
    for path in folder.iterdir():
        if path.name.endswith(".json"):
            document = json.loads(path.read_text(encoding="utf-8"))
            documents[document["name"]] = document
    return documents


@cache
def _shipped_table(name: str) -> TraumaTable:
    documents = _shipped_documents()
    if name not in documents:
        raise ValueError(
            f"no shipped Trauma Table is named {name!r}; there are: {', '.join(sorted(documents))}"
        )
    return TraumaTable.from_document(documents[name])
