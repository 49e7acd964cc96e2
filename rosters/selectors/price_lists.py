"""Reads of a campaign's price lists: the newest version of each, a version by number, the versions."""

from __future__ import annotations

from django.db import connection

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


# The newest list's rows alone: `price_list` reads the whole row with its author, which the forms never show, and
# the ORM took longer to build that statement than PostgreSQL to run it.
LISTED_SQL = """
SELECT rows FROM rosters_pricelist WHERE campaign_id = %s AND kind = %s ORDER BY version DESC LIMIT 1
"""


def listed(*, campaign, kind: str) -> list[dict]:
    """The newest list's rows (empty without a list), for the recruit and buy forms."""
    with connection.cursor() as cursor:
        cursor.execute(LISTED_SQL, [campaign.pk, kind])
        found = cursor.fetchone()
    if found is None:
        return []
    # Decoded as the model's own field decodes its column.
    return list(PriceList._meta.get_field("rows").from_db_value(found[0], None, connection))
