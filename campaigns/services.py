"""Writes for campaigns: create, settings, invitations and members (the house Trauma Table is combat's:
combat/services/trauma_table.py).

Every function is keyword-only, runs in one transaction, `full_clean()`s before it saves and records why in
django-pghistory's context (`action`, `reason`, `campaign`, `user`), which the history feed reads. Permission
checks are the views' job (campaigns/access.py); these functions keep the campaign's own invariants (a campaign
always has an organiser).

Writes that need warbands or fighters (games, rosters) live in `rosters.services`: `campaigns` never imports
`rosters` (ARCHITECTURE.md).
"""

import secrets
from typing import Any

import pghistory
from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.history_context import add_context, history_context
from campaigns.models import Campaign, Membership, new_invitation_code


def _context(*, action: str, reason: str, campaign: Campaign | None, by, **extra: Any) -> pghistory.context:
    if campaign is not None and campaign.pk is not None:
        extra["campaign"] = campaign.pk
    return history_context(by=by, action=action, reason=reason, **extra)


def _lock(campaign: Campaign) -> Campaign:
    """The campaign row, locked for the rest of the transaction, so two writes never interleave."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


@transaction.atomic
def campaign_create(
    *,
    name: str,
    by,
    description: str = "",
    preset: str = Campaign.Preset.TRENCH_CRUSADE,
    scar_limit: int = 3,
) -> Campaign:
    """A new campaign with `by` as its organiser."""
    campaign = Campaign(
        name=name.strip(),
        description=description.strip(),
        preset=preset,
        scar_limit=scar_limit,
        created_by=by,
    )
    campaign.full_clean()
    with _context(
        action="campaign.create", reason=f"{by} created the campaign {campaign.name}", campaign=None, by=by
    ):
        campaign.save()
        add_context(campaign=campaign.pk)
        membership = Membership(campaign=campaign, user=by, role=Membership.Role.ORGANISER)
        membership.full_clean()
        membership.save()
    return campaign


@transaction.atomic
def campaign_update(
    *,
    campaign: Campaign,
    by,
    name: str | None = None,
    description: str | None = None,
    preset: str | None = None,
    scar_limit: int | None = None,
    status: str | None = None,
) -> Campaign:
    """Change the campaign's settings; a value left as None stays as it is."""
    campaign = _lock(campaign)
    changes = {
        "name": name.strip() if name is not None else None,
        "description": description.strip() if description is not None else None,
        "preset": preset,
        "scar_limit": scar_limit,
        "status": status,
    }
    changed = []
    for field, value in changes.items():
        if value is not None and getattr(campaign, field) != value:
            setattr(campaign, field, value)
            changed.append(field)
    if not changed:
        return campaign
    campaign.full_clean()
    with _context(
        action="campaign.update",
        reason=f"{by} changed the campaign's {', '.join(f.replace('_', ' ') for f in changed)}",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=changed)
    return campaign


@transaction.atomic
def campaign_rotate_invitation(*, campaign: Campaign, by) -> Campaign:
    """A new invitation code: the old link stops working at once."""
    campaign = _lock(campaign)
    campaign.invitation_code = new_invitation_code()
    campaign.full_clean()
    with _context(
        action="campaign.rotate_invitation",
        reason=f"{by} made a new invitation link; the old one no longer works",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=["invitation_code"])
    return campaign


@transaction.atomic
def campaign_join(*, code: str, user) -> tuple[Membership, bool]:
    """Join the campaign of an invitation code as a player: (membership, True when it is new).

    A member who opens the link again keeps the role they have. An archived campaign takes no new members.
    """
    campaign = Campaign.objects.select_for_update().filter(invitation_code=code).first()
    if campaign is None:
        raise ValidationError("This invitation link is not valid any more. Ask the organiser for a new one.")
    existing = Membership.objects.filter(campaign=campaign, user=user).first()
    if existing is not None:
        return existing, False
    if campaign.status == Campaign.Status.ARCHIVED:
        raise ValidationError(f"{campaign.name} is archived and takes no new members.")
    membership = Membership(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    membership.full_clean()
    with _context(
        action="membership.join",
        reason=f"{user} joined {campaign.name} through the invitation link",
        campaign=campaign,
        by=user,
    ):
        membership.save()
    return membership, True


def _organisers_left(campaign: Campaign, *, without: Membership) -> int:
    return (
        Membership.objects.filter(campaign=campaign, role=Membership.Role.ORGANISER)
        .exclude(pk=without.pk)
        .count()
    )


def _lock_membership(membership: Membership) -> tuple[Campaign, Membership]:
    """The campaign, then the membership, locked in that order (as every campaign write locks)."""
    campaign = _lock(membership.campaign)
    return campaign, Membership.objects.select_for_update().get(pk=membership.pk)


def _keep_an_organiser(campaign: Campaign, membership: Membership) -> None:
    """Refuse to take the campaign's last organiser away."""
    if membership.role == Membership.Role.ORGANISER and _organisers_left(campaign, without=membership) == 0:
        raise ValidationError("A campaign needs an organiser: make someone else organiser first.")


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, by) -> Membership:
    """Make a member organiser, player or spectator; the campaign keeps at least one organiser."""
    campaign, membership = _lock_membership(membership)
    if membership.role == role:
        return membership
    _keep_an_organiser(campaign, membership)
    old_role = membership.get_role_display()
    membership.role = role
    membership.full_clean()
    with _context(
        action="membership.role",
        reason=f"{by} made {membership.user} {membership.get_role_display()} (was {old_role})",
        campaign=campaign,
        by=by,
    ):
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, by) -> None:
    """Take a member out of the campaign. Their warbands stay in it (the organiser can still change them)."""
    campaign, membership = _lock_membership(membership)
    _keep_an_organiser(campaign, membership)
    with _context(
        action="membership.remove",
        reason=f"{by} removed {membership.user} from the campaign",
        campaign=campaign,
        by=by,
    ):
        membership.delete()


# -- read-only sharing (issue 6) --------------------------------------------------------------------------------


@transaction.atomic
def campaign_share_create(*, campaign: Campaign, by) -> Campaign:
    """A new read-only link (`/share/<token>/`): anyone holding it reads the campaign, its rosters and history,
    without an account. Making one again replaces the token, so a link that went too far stops working."""
    campaign = _lock(campaign)
    replaced = bool(campaign.share_token)
    campaign.share_token = secrets.token_urlsafe(32)
    campaign.full_clean()
    with _context(
        action="campaign.share",
        reason=f"{by} {'replaced' if replaced else 'made'} the read-only link to {campaign.name}",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=["share_token"])
    return campaign


@transaction.atomic
def campaign_share_revoke(*, campaign: Campaign, by) -> Campaign:
    """Stop sharing: the read-only link answers 404 from now on."""
    campaign = _lock(campaign)
    if not campaign.share_token:
        return campaign
    campaign.share_token = None
    campaign.full_clean()
    with _context(
        action="campaign.unshare",
        reason=f"{by} revoked the read-only link to {campaign.name}",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=["share_token"])
    return campaign
