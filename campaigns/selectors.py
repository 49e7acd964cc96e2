"""Reads for campaign pages: one function per page need, with the joins that page needs."""

from django.db.models import QuerySet

from campaigns.models import Campaign


def campaigns_for_user(*, user) -> QuerySet[Campaign]:
    """The campaigns a user belongs to, in any role, newest first."""
    return Campaign.objects.filter(memberships__user=user).distinct().order_by("-created_at")
