"""A campaign's members: change a member's role, take a member out. The campaign always keeps an organiser."""

from django.db import transaction

from campaigns.errors import LastOrganiser
from campaigns.models import Campaign, Membership
from campaigns.services.common import User, campaign_context, lock_campaign


def _organisers_left(campaign: Campaign, *, without: Membership) -> int:
    return (
        Membership.objects.filter(campaign=campaign, role=Membership.Role.ORGANISER)
        .exclude(pk=without.pk)
        .count()
    )


def _lock_membership(membership: Membership) -> tuple[Campaign, Membership]:
    """The campaign, then the membership, locked in that order (as every campaign write locks)."""
    campaign = lock_campaign(membership.campaign)
    return campaign, Membership.objects.select_for_update().get(pk=membership.pk)


def _keep_an_organiser(campaign: Campaign, membership: Membership) -> None:
    """Refuse to take the campaign's last organiser away."""
    if membership.role == Membership.Role.ORGANISER and _organisers_left(campaign, without=membership) == 0:
        raise LastOrganiser("A campaign needs an organiser: make someone else organiser first.")


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, by: User) -> Membership:
    """Make a member organiser, player or spectator; the campaign keeps at least one organiser."""
    campaign, membership = _lock_membership(membership)
    if membership.role == role:
        return membership
    _keep_an_organiser(campaign, membership)
    old_role = membership.get_role_display()
    membership.role = role
    membership.full_clean()
    with campaign_context(
        action="membership.role",
        reason=f"{by} made {membership.user} {membership.get_role_display()} (was {old_role})",
        campaign=campaign,
        by=by,
    ):
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, by: User) -> None:
    """Take a member out of the campaign. Their warbands stay in it (the organiser can still change them)."""
    campaign, membership = _lock_membership(membership)
    _keep_an_organiser(campaign, membership)
    with campaign_context(
        action="membership.remove",
        reason=f"{by} removed {membership.user} from the campaign",
        campaign=campaign,
        by=by,
    ):
        membership.delete()
