"""The campaign's own (house) Trauma Table: save it, or go back to the default.

The house-table editor moves into `combat` (issue 10); this write goes with it, and so does this module.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import Campaign
from campaigns.services.common import User, campaign_context, lock_campaign
from campaigns.trauma_tables import TraumaTableError, check_rows


@transaction.atomic
def campaign_set_trauma_table(*, campaign: Campaign, rows: list[dict[str, Any]] | None, by: User) -> Campaign:
    """Use the campaign's own Trauma Table (`rows`, checked: no gap, no overlap), or the default with None.

    A table with a problem raises ValidationError listing every problem, and nothing is saved.
    """
    campaign = lock_campaign(campaign)
    if rows is None:
        reason = f"{by} went back to the default Trauma Table"
        clean = None
    else:
        try:
            clean = check_rows(rows)
        except TraumaTableError as error:
            raise ValidationError(error.messages) from error
        reason = f"{by} saved the campaign's own Trauma Table ({len(clean)} rows)"
    if campaign.house_trauma_table == clean:
        return campaign
    campaign.house_trauma_table = clean
    campaign.full_clean()
    with campaign_context(action="campaign.trauma_table", reason=reason, campaign=campaign, by=by):
        campaign.save(update_fields=["house_trauma_table"])
    return campaign
