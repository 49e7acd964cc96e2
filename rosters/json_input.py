"""The one way a JSON file a person hands the tool is read: every JSON input at the edges goes through `load_json`
(a warband import, a price list, campaign data, a whole-campaign export).

A file of ours nests a few levels deep; one built to hurt nests thousands (`[[[[...]]]]`), and Python's parser
recurses once per level, so it would end in a `RecursionError` (a 500) or worse. The nesting is counted on the text
first, in one pass that never recurses, and a file deeper than its format allows is refused before it is parsed.
Then the parse is strict: NaN and Infinity are not numbers, a key repeated inside one object is refused (which of
the two would count is a guess), and a number too long to read is refused by Python's own limit on digits.
A refusal raises `JSONRefused` with one sentence a player can read; each import turns it into its own error.

Each caller checks the size of the file before it comes here (its own limit, in its own words). It lives in rosters,
the lowest app that reads a JSON file (its warband import and price lists; combat's imports use it from here):
campaigns reads none.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

# Far below Python's recursion limit (1,000), so the parser and any walk over the result never come near it.
DEEPEST = 100

# A JSON string, escapes included ("unrolled" so that it never backtracks); brackets inside strings do not nest.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")


class JSONRefused(ValueError):
    """The text is not JSON this tool reads; `reason` says why, in one sentence."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def nesting(text: str) -> int:
    """How deep the text's arrays and objects nest (`[]` is 1, `[{}]` is 2), counted without parsing it."""
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub('""', text))
    return max(accumulate(1 if char in "[{" else -1 for char in brackets), default=0)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("the file repeats a key inside one object")
    return dict(pairs)


def load_json(text: str | bytes, *, max_depth: int, what: str) -> Any:
    """The parsed text, or `JSONRefused`: not UTF-8, nested deeper than `max_depth`, or not strict JSON.

    `what` names what the file should be ("a price list"), for the refusal's words."""
    if not 0 < max_depth <= DEEPEST:
        raise ValueError(f"max_depth must be from 1 to {DEEPEST}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JSONRefused("The file is not text (UTF-8).") from None
    if nesting(text) > max_depth:
        raise JSONRefused(f"The file nests too deeply to be {what} (at most {max_depth} levels).")
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_no_repeated_keys)
    except RecursionError:  # not reachable below DEEPEST; kept so that no parse can ever end in a 500
        raise JSONRefused(f"The file nests too deeply to be {what}.") from None
    except ValueError as error:
        raise JSONRefused(f"The file is not JSON (not valid JSON: {error}).") from None
