"""Reads for campaign pages: one function per page need, with the joins that page needs."""

from typing import Any

from django.db.models import QuerySet

from campaigns.models import Campaign, Membership
from combat import rules  # the pure engine: every app may call it for a rule (ARCHITECTURE.md)


def campaigns_for_user(*, user) -> QuerySet[Campaign]:
    """The campaigns a user belongs to, in any role, newest first."""
    return Campaign.objects.filter(memberships__user=user).distinct().order_by("-created_at")


def campaign_members(*, campaign: Campaign) -> QuerySet[Membership]:
    """Everyone in the campaign with their role, in the order they joined."""
    return Membership.objects.filter(campaign=campaign).select_related("user").order_by("joined_at", "id")


def campaign_for_invitation(*, code: str) -> Campaign | None:
    return Campaign.objects.filter(invitation_code=code).first()


def trauma_table_rows(*, campaign: Campaign) -> list[dict[str, Any]]:
    """The Trauma Table the campaign rolls on: its own copy when it has one, else the shipped default."""
    if campaign.house_trauma_table:
        return [dict(row) for row in campaign.house_trauma_table]
    return rules.TraumaTable.default().to_rows()
