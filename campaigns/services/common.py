"""What every campaign write shares: its history context and the campaign row's lock."""

from contextlib import AbstractContextManager
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from campaigns.history_context import history_context
from campaigns.models import Campaign

# Who makes a change: the acting user (any user model; `settings.AUTH_USER_MODEL`).
User = AbstractBaseUser


def campaign_context(
    *, action: str, reason: str, campaign: Campaign | None, by: User | None, **extra: Any
) -> AbstractContextManager:
    """pghistory's context for a campaign write (`action`, `reason`, `campaign`, `user`), which the feed reads."""
    if campaign is not None and campaign.pk is not None:
        extra["campaign"] = campaign.pk
    return history_context(by=by, action=action, reason=reason, **extra)


def lock_campaign(campaign: Campaign) -> Campaign:
    """The campaign row, locked for the rest of the transaction, so two writes never interleave."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)
