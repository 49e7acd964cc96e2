"""Net changes: a write that touches the same rows more than once in one transaction (a post-game correction takes
the Apply back and applies it again) is told as what it changed in the end, not as the bounce.

A service asks for it by writing under a history context with `net=True`. The events of one such context are
folded per row: a row changed and changed back says nothing; a row removed and recreated the same (an Injury the
Apply gives again, under a new id) says nothing; otherwise one event from its first state to its last.
"""

from __future__ import annotations

import json

from rosters.history.registry import EventRow

_BOOKKEEPING = {"id", "created_at", "updated_at"}


def _plain(data: dict | None) -> dict:
    return {k: v for k, v in (data or {}).items() if not k.startswith("pgh_")}


def _fold(group: list[EventRow]) -> EventRow | None:
    """One row's events in one context, oldest first, as one event (None: nothing changed in the end)."""
    first, last = group[0], group[-1]
    before = first.prev if first.label == "update" else (first.data if first.label == "delete" else None)
    after = last.data if last.label != "delete" else None
    if first.label == "insert" and after is None:
        return None
    if first.label == "insert":
        return last._replace(label="insert", prev=None)
    if after is None:
        return last._replace(label="delete", data=before, prev=None)
    if _plain(before) == _plain(after):
        return None
    return last._replace(label="update", prev=before)


def _same_row(data: dict | None) -> str:
    return json.dumps({k: v for k, v in _plain(data).items() if k not in _BOOKKEEPING}, sort_keys=True)


def _cancel_recreated(rows: list[EventRow]) -> list[EventRow]:
    """A delete and an insert of equal rows of the same table in the context cancel out."""
    inserted: dict[tuple, list[EventRow]] = {}
    for row in rows:
        if row.label == "insert":
            inserted.setdefault((row.src, _same_row(row.data)), []).append(row)
    dropped: set[int] = set()
    for row in rows:
        twins = inserted.get((row.src, _same_row(row.data))) if row.label == "delete" else None
        if twins:
            dropped.update({id(row), id(twins.pop())})
    return [row for row in rows if id(row) not in dropped]


def net_rows(rows: list[EventRow]) -> list[EventRow]:
    """The page's rows (newest first) with every `net` context's events folded; the others as they are."""
    groups: dict[tuple, list[EventRow]] = {}
    for row in rows:
        context = row.context or {}
        if context.get("net") is True:
            key = (json.dumps(context, sort_keys=True, default=str), row.src, row.obj_id)
            groups.setdefault(key, []).append(row)
    if not groups:
        return rows
    folded: dict[int, EventRow | None] = {}
    by_context: dict[str, list[EventRow]] = {}
    for (context_key, _src, _obj), group in groups.items():
        row = _fold(group[::-1])
        folded[id(group[0])] = row  # the newest event of the group stands for it
        for other in group[1:]:
            folded[id(other)] = None
        if row is not None:
            by_context.setdefault(context_key, []).append(row)
    kept = {id(row) for context_rows in by_context.values() for row in _cancel_recreated(context_rows)}
    out = []
    for row in rows:
        if id(row) not in folded:
            out.append(row)
        elif (net := folded[id(row)]) is not None and id(net) in kept:
            out.append(net)
    return out
