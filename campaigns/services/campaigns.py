"""Writes of a campaign itself: create it (with its organiser) and change its settings."""

from django.db import transaction

from campaigns.history_context import add_context
from campaigns.models import SCAR_LIMIT_DEFAULT, Campaign, Membership
from campaigns.services.common import User, campaign_context, lock_campaign
from combat.rules.post_game_steps import PRESET_CAMPAIGN_STAGES


@transaction.atomic
def campaign_create(
    *,
    name: str,
    by: User,
    description: str = "",
    preset: str = Campaign.Preset.TRENCH_CRUSADE,
    scar_limit: int = SCAR_LIMIT_DEFAULT,
) -> Campaign:
    """A new campaign with `by` as its organiser."""
    campaign = Campaign(
        name=name.strip(),
        description=description.strip(),
        preset=preset,
        scar_limit=scar_limit,
        # Trench Crusade's campaign stages (Threshold Value, Field Strength, the scenario of each stage) start on
        # only for a preset whose texts have them; the organiser may switch them on or off later.
        uses_limits=PRESET_CAMPAIGN_STAGES.get(preset, True),
        created_by=by,
    )
    campaign.full_clean()
    with campaign_context(
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
    by: User,
    name: str | None = None,
    description: str | None = None,
    preset: str | None = None,
    scar_limit: int | None = None,
    status: str | None = None,
    uses_limits: bool | None = None,
) -> Campaign:
    """Change the campaign's settings; a value left as None stays as it is."""
    campaign = lock_campaign(campaign)
    changes = {
        "name": name.strip() if name is not None else None,
        "description": description.strip() if description is not None else None,
        "preset": preset,
        "scar_limit": scar_limit,
        "status": status,
        "uses_limits": uses_limits,
    }
    changed = []
    for field, value in changes.items():
        if value is not None and getattr(campaign, field) != value:
            setattr(campaign, field, value)
            changed.append(field)
    if not changed:
        return campaign
    campaign.full_clean()
    with campaign_context(
        action="campaign.update",
        reason=f"{by} changed the campaign's {', '.join(f.replace('_', ' ') for f in changed)}",
        campaign=campaign,
        by=by,
    ):
        campaign.save(update_fields=changed)
    return campaign
