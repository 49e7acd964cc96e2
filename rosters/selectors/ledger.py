"""The Strongbox's ledger, a page at a time, newest first.

Keyset pagination on the entry's id (`before`): each page is one index range scan of `strongbox_entry_newest`
(warband, -id), so the 200th page of 10,000 entries costs what the first does (bench/bench_ledger.py); a page
reads its entries with their game and author in one query, and one more says whether there is an older page
(it asks for one row more than it shows).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Sum

from rosters.models import StrongboxEntry, Warband

PAGE_SIZE = 50


@dataclass(frozen=True)
class LedgerPage:
    entries: list[StrongboxEntry]
    older: int | None  # the `before` of the next older page, None on the last page
    first_page: bool


def ledger_page(*, warband: Warband, before: int | None = None, size: int = PAGE_SIZE) -> LedgerPage:
    entries = StrongboxEntry.objects.filter(warband=warband).select_related("game", "by").order_by("-id")
    if before is not None:
        entries = entries.filter(id__lt=before)
    rows = list(entries[: size + 1])
    older = rows[size - 1].pk if len(rows) > size else None
    return LedgerPage(entries=rows[:size], older=older, first_page=before is None)


def ledger_totals(*, warband: Warband) -> dict[str, int]:
    """What the entries sum to: the ledger's own account of the Strongbox and Glory."""
    totals = StrongboxEntry.objects.filter(warband=warband).aggregate(
        ducats=Sum("ducats"), glory=Sum("glory")
    )
    return {key: value or 0 for key, value in totals.items()}
