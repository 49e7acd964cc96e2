"""Saving a campaign's price lists: each save a new version, never an edit in place, as the
campaign data is saved (combat/services/campaign_data.py). Rows the checks refuse raise `PriceListError` with
every problem, and nothing is saved; the campaign's row is locked, so two saves at once get versions n and n+1."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaigns.history_context import history_context
from campaigns.models import Campaign
from rosters.models import PRICE_LIST_NOTE_LENGTH, PriceList
from rosters.price_lists import PriceListError, checked_rows, demo_rows_for, rows_from_text

SAVE = "price_list.save"


@transaction.atomic
def price_list_save(
    *, campaign: Campaign, kind: str, rows: Any, by, note: str = ""
) -> tuple[PriceList, bool]:
    """Save `rows` as the next version of the `kind` list; (the version, whether it is new). Rows equal to the
    newest version's save nothing."""
    clean = checked_rows(kind, rows)
    note = " ".join((note or "").split())
    if len(note) > PRICE_LIST_NOTE_LENGTH:
        raise PriceListError([f"The note is longer than {PRICE_LIST_NOTE_LENGTH} characters."])
    Campaign.objects.select_for_update().only("pk").get(pk=campaign.pk)
    newest = PriceList.objects.filter(campaign=campaign, kind=kind).order_by("-version").first()
    if newest is not None and newest.rows == clean:
        return newest, False
    version = newest.version + 1 if newest else 1
    price_list = PriceList(
        campaign=campaign, kind=kind, version=version, rows=clean, created_by=by, note=note
    )
    price_list.full_clean()
    words = PriceList.Kind(kind).label.lower()
    with history_context(
        by=by,
        action=SAVE,
        reason=note or f"{by} saved the price list of {words}, v{version} ({len(clean)} rows)",
        campaign=campaign.pk,
    ):
        price_list.save()
    return price_list, True


def price_list_import(
    *, campaign: Campaign, kind: str, text: str | bytes, fmt: str, by, note: str | None = None
) -> tuple[PriceList, bool]:
    """Save the rows of a CSV or JSON text (an upload, a paste, the editor's CSV) as the next version."""
    if kind not in PriceList.Kind.values:
        raise PriceListError([f"There is no price list of {kind!r}."])
    rows = rows_from_text(kind, text, fmt=fmt)
    return price_list_save(
        campaign=campaign, kind=kind, rows=rows, by=by, note="imported" if note is None else note
    )


@transaction.atomic
def price_list_copy_demo(*, campaign: Campaign, by) -> list[PriceList]:
    """The demo's made-up lists of the campaign's preset (rosters/price_lists.py) as the next version of each list
    not saved yet."""
    saved = set(PriceList.objects.filter(campaign=campaign).values_list("kind", flat=True))
    demo = demo_rows_for(campaign.preset)
    made = []
    for kind in PriceList.Kind.values:
        if kind not in saved:
            made.append(
                price_list_save(
                    campaign=campaign,
                    kind=kind,
                    rows=demo[kind],
                    by=by,
                    note="copied from the demo list",
                )[0]
            )
    return made
