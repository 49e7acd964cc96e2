"""Reads for the house Trauma Table editor: the shipped default an organiser copies, and what the page shows."""

from dataclasses import dataclass
from typing import Any

from campaigns.models import Campaign
from combat import rules


def default_rows() -> list[dict[str, Any]]:
    """A fresh copy of the shipped default table's rows (Trench Crusade v1.0, 1.0.2), ready to edit."""
    return rules.TraumaTable.default().to_rows()


@dataclass(frozen=True)
class TraumaTablePage:
    """The editor page: the campaign's own rows when it has some, else the default table to read and copy."""

    house_rows: list[dict[str, Any]] | None
    default: rules.TraumaTable


def trauma_table_page(*, campaign: Campaign) -> TraumaTablePage:
    house = campaign.house_trauma_table
    if isinstance(house, dict):  # a whole data document, as the post-game also reads one: edit its rows
        house = house.get("rows")
    rows = [dict(row) for row in house if isinstance(row, dict)] if isinstance(house, list) else []
    return TraumaTablePage(house_rows=rows or None, default=rules.TraumaTable.default())
