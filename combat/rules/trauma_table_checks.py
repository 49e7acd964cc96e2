"""What makes a set of rows a Trauma Table, checked in one place for the engine and the house-table editor.

TRAUMA_TABLE.md and RULING T-3: a D66 is two D6, the first the tens, so its results are 11-16, 21-26, ... 61-66.
A table the Trauma Step can use has every one of those 36 results in exactly one row (no gap, no overlap); each
row gives its D66 range (`low`..`high`, digits 1-6), a `code` (lower_case, not one the odds use for their own keys)
that gives the special results their consequences (RULINGS T-5 to T-9 read them by code), a `name`, an `effect`,
and whether it gives a Battle Scar and is an Injury. Each code is on one row: the Trauma Step rerolls "the same
Injury a second time" by its code (RULING T-5), so two rows with one code would be one result under two numbers.

Every problem is found, not only the first, and told twice from one check: in plain words for whoever edits the
table ("Row 5 (Lost an Eye): high 17 is not a D66 result ..."), and tersely for a developer, with the list index
and codes ("row 4 ('lost_an_eye'): high must be a D66 result ..., got 17"), which `TraumaTableError` carries as
its message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .dice import is_d66

D66_VALUES = tuple(tens * 10 + units for tens in range(1, 7) for units in range(1, 7))
ENTRY_FIELDS = ("low", "high", "code", "name", "effect", "scar", "injury")
# Keys the odds use beside the result codes (docs/engine.md, trauma_odds), so no table may use them as codes.
RESERVED_CODES = frozenset({"removed", "survived"})
CODE_PATTERN = re.compile(r"[a-z][a-z0-9_]*")
D66_WORDS = "two digits, each 1 to 6, so 16 is followed by 21"


class TraumaTableError(ValueError):
    """Rows that are not a Trauma Table: `problems` says every reason in plain words; the message, tersely."""

    def __init__(self, problems: Sequence[str], detail: str) -> None:
        self.problems = tuple(problems)
        super().__init__(detail)


class Problem(NamedTuple):
    words: str  # for whoever edits the table
    detail: str  # for a developer: list indexes and codes


class _Span(NamedTuple):
    """A row whose D66 range is sound, as the whole-table checks need it."""

    low: int
    high: int
    code: Any
    name: Any
    scar: Any
    injury: Any

    @property
    def rolls(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    @property
    def called(self) -> str:
        return self.name if isinstance(self.name, str) and self.name.strip() else self.rolls


def trauma_table_problems(rows: Any, *, labels: Iterable[str] | None = None) -> tuple[str, ...]:
    """Every reason `rows` are not a Trauma Table, in plain words; empty when they are one."""
    return tuple(problem.words for problem in row_problems(rows, labels=labels))


def raise_problems(problems: Sequence[Problem]) -> None:
    if problems:
        raise TraumaTableError(
            [problem.words for problem in problems], "; ".join(problem.detail for problem in problems)
        )


def row_problems(rows: Any, *, labels: Iterable[str] | None = None) -> list[Problem]:
    """Every problem of each row, then of the table they make."""
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        return [
            Problem(
                "A Trauma Table is a list of rows.",
                f"rows must be a list of row mappings, got {type(rows).__name__}",
            )
        ]
    rows = list(rows)
    if not rows:
        return [Problem("The table has no rows.", "the table has no rows")]
    names = list(labels) if labels is not None else []
    problems: list[Problem] = []
    spans: list[_Span] = []
    for index, row in enumerate(rows):
        label = names[index] if index < len(names) else f"Row {index + 1}"
        found = _one_row_problems(row)
        problems += [_labelled(row, index, label, words, detail) for words, detail in found]
        if _sound_range(row):
            spans.append(
                _Span(*(row.get(name) for name in ("low", "high", "code", "name", "scar", "injury")))
            )
    # A row whose range is unsound may be the one meant to fill a gap: its fix will tell.
    return problems + _table_problems(spans, gaps=len(spans) == len(rows))


def entry_problems(entries: Iterable[Any]) -> list[Problem]:
    """The whole-table problems of rows already checked one by one (`TraumaEntry` values)."""
    return _table_problems(
        [_Span(e.low, e.high, e.code, e.name, e.scar, e.injury) for e in entries], gaps=True
    )


def _sound_range(row: Any) -> bool:
    return (
        isinstance(row, Mapping)
        and is_d66(row.get("low"))
        and is_d66(row.get("high"))
        and row["low"] <= row["high"]
    )


# -- one row ----------------------------------------------------------------------------------------------------


def _labelled(row: Any, index: int, label: str, words: str, detail: str) -> Problem:
    """`Row 5 (Lost an Eye)` for the editor, `row 4 ('lost_an_eye')` for a developer, before the problem."""
    name = row.get("name") if isinstance(row, Mapping) else None
    # A row that lacks fields is named by its place alone, as its code may be what it lacks.
    whole = isinstance(row, Mapping) and set(row) == set(ENTRY_FIELDS)
    code = row["code"] if whole else None
    if isinstance(name, str) and name.strip():
        label += f" ({name.strip()})"
    at = f"row {index}" + (f" ({code!r})" if isinstance(code, str) and code else "")
    return Problem(f"{label}{words}", f"{at}{detail}")


def _one_row_problems(row: Any) -> list[tuple[str, str]]:
    """A row's problems as (plain words, terse detail), each to follow the row's label."""
    if not isinstance(row, Mapping):
        return [
            (
                f" is not a row of {', '.join(ENTRY_FIELDS)}.",
                f" must be a mapping of {', '.join(ENTRY_FIELDS)}, got {row!r}",
            )
        ]
    missing = [name for name in ENTRY_FIELDS if name not in row]
    unknown = sorted(str(name) for name in set(row) - set(ENTRY_FIELDS))
    found = []
    if missing:
        found.append((f" has no {', '.join(missing)}.", f" has no {', '.join(missing)}: {dict(row)!r}"))
    if unknown:
        found.append(
            (f" has unknown fields {', '.join(unknown)}.", f" has unknown fields {', '.join(unknown)}")
        )
    if missing or unknown:
        return found
    return _range_problems(row) + _code_problems(row) + _text_problems(row) + _flag_problems(row)


def _range_problems(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """RULING T-3: both ends are D66 results, the low end first."""
    found = [
        (
            f": {name} {row[name]!r} is not a D66 result ({D66_WORDS}).",
            f": {name} must be a D66 result (11-66, digits 1-6), got {row[name]!r}",
        )
        for name in ("low", "high")
        if not is_d66(row[name])
    ]
    if not found and row["low"] > row["high"]:
        text = f": low {row['low']} is above high {row['high']}"
        found.append((f"{text}.", text))
    return found


def _code_problems(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    code = row["code"]
    if not isinstance(code, str) or not CODE_PATTERN.fullmatch(code):
        text = (
            f": code must be lower-case letters, digits and underscores, starting with a letter, got {code!r}"
        )
        return [(f"{text}.", text)]
    if code in RESERVED_CODES:
        return [
            (f": code {code!r} is reserved for the odds; choose another.", f": code {code!r} is reserved")
        ]
    return []


def _text_problems(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    found = []
    name = row["name"]
    if not isinstance(name, str):
        found.append((": the result needs a name, in words.", f": name must be text, got {name!r}"))
    elif not name.strip():
        found.append((": the result needs a name.", ": name must not be empty"))
    if not isinstance(row["effect"], str):
        found.append((": the effect must be text.", f": effect must be text, got {row['effect']!r}"))
    return found


def _flag_problems(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [
        (f": {name} must be yes or no.", f": {name} must be true or false, got {row[name]!r}")
        for name in ("scar", "injury")
        if type(row[name]) is not bool
    ]


# -- the whole table --------------------------------------------------------------------------------------------


def _table_problems(spans: list[_Span], *, gaps: bool) -> list[Problem]:
    spans = sorted(spans, key=lambda span: (span.low, span.high))
    return _overlaps(spans) + (_gaps(spans) if gaps else []) + _shared_codes(spans)


def _overlaps(spans: list[_Span]) -> list[Problem]:
    """RULING T-3: a D66 result reads one row, so no result may be in two."""
    covered: dict[int, _Span] = {}
    problems = []
    for span in spans:
        for roll in range(span.low, span.high + 1):
            if roll not in D66_VALUES:
                continue
            if roll not in covered:
                covered[roll] = span
                continue
            first = covered[roll]
            problems.append(
                Problem(
                    f"Rows overlap: D66 {roll} is in both {first.called} and {span.called}.",
                    f"D66 {roll} is in two rows: {first.code!r} ({first.rolls}) and {span.code!r} ({span.rolls})",
                )
            )
    return problems


def _gaps(spans: list[_Span]) -> list[Problem]:
    """RULING T-3: every D66 result must read a row."""
    gaps = [roll for roll in D66_VALUES if not any(span.low <= roll <= span.high for span in spans)]
    if not gaps:
        return []
    rolls = ", ".join(map(str, gaps))
    return [
        Problem(
            f"The table has a gap: no row covers D66 {rolls}.",
            f"no row covers D66 {rolls}: the table has a gap",
        )
    ]


def _shared_codes(spans: list[_Span]) -> list[Problem]:
    """RULING T-5 rerolls an Injury the model has by its code: each code names one result, on one row."""
    first_of: dict[str, _Span] = {}
    problems = []
    for span in spans:
        if not isinstance(span.code, str):
            continue
        first = first_of.setdefault(span.code, span)
        if first is span:
            continue
        words = (
            f"Two rows have the code {span.code} ({first.called}, {first.rolls}; {span.called}, {span.rolls})"
        )
        detail = f"code {span.code!r} has rows {first.rolls} and {span.rolls}"
        if (first.scar, first.injury) != (span.scar, span.injury):
            words += " and they disagree on Battle Scar or Injury"
            detail += " that disagree on scar/injury"
        problems.append(
            Problem(f"{words}: give each result its own code.", f"{detail}; each code is on one row")
        )
    return problems
