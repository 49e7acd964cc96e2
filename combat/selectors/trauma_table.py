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
    return TraumaTablePage(
        house_rows=[dict(row) for row in campaign.house_trauma_table]
        if campaign.house_trauma_table
        else None,
        default=rules.TraumaTable.default(),
    )
