"""The house Trauma Table a campaign rolls on (RULING T-3): save the organiser's own rows, or go back to the default.

The engine decides what a Trauma Table is (`combat.rules.TraumaTable`, every problem in plain words); this module
stores the rows on the campaign, where django-pghistory keeps every version, so a past post-game still reads the
table it was rolled on.
"""

from typing import Any

from django.db import transaction

from campaigns.history_context import history_context
from campaigns.models import Campaign
from combat import rules


def checked_rows(rows: Any) -> list[dict[str, Any]]:
    """The rows as the campaign stores them, sorted by D66, or `rules.TraumaTableError` naming every problem."""
    return rules.TraumaTable.from_rows(rows).to_rows()


@transaction.atomic
def campaign_set_trauma_table(*, campaign: Campaign, rows: list[dict[str, Any]] | None, by) -> Campaign:
    """Use the campaign's own Trauma Table (`rows`), or the shipped default with None.

    Rows that are not a Trauma Table raise `rules.TraumaTableError` listing every problem, and nothing is saved.
    """
    # The campaign row, locked for the rest of the transaction, so two saves never interleave.
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if rows is None:
        clean = None
        reason = f"{by} went back to the default Trauma Table"
    else:
        clean = checked_rows(rows)
        reason = f"{by} saved the campaign's own Trauma Table ({len(clean)} rows)"
    if campaign.house_trauma_table == clean:
        return campaign
    campaign.house_trauma_table = clean
    campaign.full_clean()
    with history_context(by=by, action="campaign.trauma_table", reason=reason, campaign=campaign.pk):
        campaign.save(update_fields=["house_trauma_table"])
    return campaign
