"""Who is an ELITE model and who is a Troop: the one mapping every flow asks (seed 003, RULING T-1).

Trench Crusade names its leaders by the ELITE keyword; Fallout: Factions names the same part a Champion (seed 000,
Harsh Lessons). The Trauma Step, Harsh Lessons, the roster's badges and the Promotion pool all ask this one
question, so it is answered here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable

ELITE = "ELITE"


def keyword_key(keyword: str) -> str:
    """The form two keywords are compared in: without case or outer spaces ("elite " is ELITE). A query that
    counts ELITE models in the database compares `upper(btrim(keyword))` to `ELITE`, the same key."""
    if not isinstance(keyword, str):
        raise ValueError(f"a keyword is text, got {keyword!r}")
    return keyword.strip().upper()


def has_elite_keyword(keywords: Iterable[str]) -> bool:
    """RULING T-1: "a Troop is a model without the ELITE keyword" (keywords are compared without case)."""
    return any(keyword_key(keyword) == ELITE for keyword in keywords)


def counts_as_elite(*, keywords: Iterable[str], champion: bool = False) -> bool:
    """An ELITE model in the Trench Crusade sense: the ELITE keyword, or a Fallout: Factions Champion, the same
    role (the Trauma Table, Harsh Lessons and the Promotion pool treat both alike, campaigns/terms.py)."""
    return bool(champion) or has_elite_keyword(keywords)
