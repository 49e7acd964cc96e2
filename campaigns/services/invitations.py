"""The invitation link: make a new one (the old stops working), and join a campaign through it."""

from django.db import transaction

from campaigns.errors import CampaignArchived, InvitationNotValid
from campaigns.models import Campaign, Membership, new_invitation_code
from campaigns.services.common import User, campaign_context, lock_campaign


@transaction.atomic
def campaign_rotate_invitation(*, campaign: Campaign, by: User) -> Campaign:
    """A new invitation code: the old link stops working at once."""
    campaign = lock_campaign(campaign)
    campaign.invitation_code = new_invitation_code()
    campaign.full_clean()
    with campaign_context(
        action="campaign.rotate_invitation",
        reason=f"{by} made a new invitation link; the old one no longer works",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=["invitation_code"])
    return campaign


@transaction.atomic
def campaign_join(*, code: str, user: User) -> tuple[Membership, bool]:
    """Join the campaign of an invitation code as a player: (membership, True when it is new).

    A member who opens the link again keeps the role they have. An archived campaign takes no new members.
    """
    campaign = Campaign.objects.select_for_update().filter(invitation_code=code).first()
    if campaign is None:
        raise InvitationNotValid(
            "This invitation link is not valid any more. Ask the organiser for a new one."
        )
    existing = Membership.objects.filter(campaign=campaign, user=user).first()
    if existing is not None:
        return existing, False
    if campaign.status == Campaign.Status.ARCHIVED:
        raise CampaignArchived(f"{campaign.name} is archived and takes no new members.")
    membership = Membership(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    membership.full_clean()
    with campaign_context(
        action="membership.join",
        reason=f"{user} joined {campaign.name} through the invitation link",
        campaign=campaign,
        by=user,
    ):
        membership.save()
    return membership, True
