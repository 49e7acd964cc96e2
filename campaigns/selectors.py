"""Reads for campaign pages: one function per page need, with the joins that page needs."""

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from campaigns.models import BattleReport, Campaign, Membership
from combat import rules  # the pure engine: every app may call it for a rule (docs/architecture.md)


def campaigns_for_user(*, user) -> QuerySet[Campaign]:
    """The campaigns a user belongs to, in any role, newest first."""
    return Campaign.objects.filter(memberships__user=user).distinct().order_by("-created_at")


def campaign_fresh_copy(*, campaign: Campaign) -> Campaign:
    """The campaign read again: a form bound to it can be refused without changing the object a page shows."""
    return Campaign.objects.get(pk=campaign.pk)


def campaign_members(*, campaign: Campaign) -> QuerySet[Membership]:
    """Everyone in the campaign with their role, in the order they joined."""
    return Membership.objects.filter(campaign=campaign).select_related("user").order_by("joined_at", "id")


def campaign_member(*, campaign: Campaign, membership_id: int) -> Membership | None:
    """One membership of this campaign (None for another campaign's: it is not this page's to change)."""
    return (
        Membership.objects.select_related("user", "campaign")
        .filter(pk=membership_id, campaign=campaign)
        .first()
    )


def campaign_organisers(*, campaign: Campaign) -> list:
    """The users who organise the campaign, in the order they joined (the invitation page names them)."""
    members = campaign_members(campaign=campaign).filter(role=Membership.Role.ORGANISER)
    return [membership.user for membership in members]


def campaign_for_invitation(*, code: str) -> Campaign | None:
    return Campaign.objects.filter(invitation_code=code).first()


@dataclass(frozen=True)
class InvitationLanding:
    """What an invitation link says before anyone logs in: whose campaign, of which game, how many play."""

    campaign: Campaign
    organisers: list
    players: int


def invitation_landing(*, code: str) -> InvitationLanding | None:
    """The campaign an invitation link opens, its organisers and its number of players (organisers who play
    count: every organiser may keep a warband); None for a link that is not valid. Two queries."""
    campaign = (
        Campaign.objects.filter(invitation_code=code)
        .annotate(players=Count("memberships", filter=~Q(memberships__role=Membership.Role.SPECTATOR)))
        .first()
    )
    if campaign is None:
        return None
    return InvitationLanding(
        campaign=campaign, organisers=campaign_organisers(campaign=campaign), players=campaign.players
    )


def membership_in(*, campaign: Campaign, user) -> Membership | None:
    """The user's membership of the campaign, or None when they are not in it."""
    return Membership.objects.filter(campaign=campaign, user=user).first()


def trauma_table_rows(*, campaign: Campaign) -> list[dict[str, Any]]:
    """The Trauma Table the campaign rolls on: its own copy when it has one, else the shipped default."""
    if campaign.house_trauma_table:
        return [dict(row) for row in campaign.house_trauma_table]
    return rules.TraumaTable.default().to_rows()


def game_report(*, game) -> BattleReport | None:
    """The game's battle report with its author, or None while nobody has written one."""
    return BattleReport.objects.select_related("author").filter(game=game).first()
