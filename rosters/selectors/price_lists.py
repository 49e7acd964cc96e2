"""Reads of a campaign's price lists: the newest version of each, a version by number, the versions."""

from __future__ import annotations

from rosters.models import PriceList


def newest_price_lists(*, campaign) -> dict[str, PriceList | None]:
    """The newest version of each kind (None when never saved), in one query."""
    newest: dict[str, PriceList | None] = dict.fromkeys(PriceList.Kind.values)
    for price_list in (
        PriceList.objects.filter(campaign=campaign).order_by("kind", "-version").distinct("kind")
    ):
        newest[price_list.kind] = price_list
    return newest


def price_list(*, campaign, kind: str, version: int | None = None) -> PriceList | None:
    lists = PriceList.objects.filter(campaign=campaign, kind=kind).select_related("created_by")
    if version is not None:
        return lists.filter(version=version).first()
    return lists.order_by("-version").first()


def price_list_versions(*, campaign, kind: str) -> list[PriceList]:
    return list(
        PriceList.objects.filter(campaign=campaign, kind=kind)
        .select_related("created_by")
        .defer("rows")
        .order_by("-version")
    )


def listed(*, campaign, kind: str) -> list[dict]:
    """The newest list's rows (empty without a list), for the recruit and buy forms."""
    newest = price_list(campaign=campaign, kind=kind)
    return list(newest.rows) if newest is not None else []
