"""The campaign's read-only link: make or replace it, revoke it."""

import secrets

from django.db import transaction

from campaigns.models import Campaign
from campaigns.services.common import User, campaign_context, lock_campaign


@transaction.atomic
def campaign_share_create(*, campaign: Campaign, by: User) -> Campaign:
    """A new read-only link (`/share/<token>/`): anyone holding it reads the campaign, its rosters and history,
    without an account. Making one again replaces the token, so a link that went too far stops working."""
    campaign = lock_campaign(campaign)
    replaced = bool(campaign.share_token)
    campaign.share_token = secrets.token_urlsafe(32)
    campaign.full_clean()
    with campaign_context(
        action="campaign.share",
        reason=f"{by} {'replaced' if replaced else 'made'} the read-only link to {campaign.name}",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=["share_token"])
    return campaign


@transaction.atomic
def campaign_share_revoke(*, campaign: Campaign, by: User) -> Campaign:
    """Stop sharing: the read-only link answers 404 from now on."""
    campaign = lock_campaign(campaign)
    if not campaign.share_token:
        return campaign
    campaign.share_token = None
    campaign.full_clean()
    with campaign_context(
        action="campaign.unshare",
        reason=f"{by} revoked the read-only link to {campaign.name}",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=["share_token"])
    return campaign
