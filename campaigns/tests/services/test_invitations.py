"""The invitation link: a new one, and joining through it (campaigns/services/invitations.py).

Each write leaves the history event the feed reads, with who and why; bad input changes nothing.
"""

import pytest
from django.core.exceptions import ValidationError

from campaigns.errors import CampaignArchived, InvitationNotValid
from campaigns.models import Campaign, Membership
from campaigns.services import campaigns as campaign_services
from campaigns.services import invitations as services
from campaigns.tests.history import last_context

pytestmark = pytest.mark.django_db


def test_it_rotates_the_invitation(campaign, organiser):
    old = campaign.invitation_code
    services.campaign_rotate_invitation(campaign=campaign, by=organiser)
    campaign.refresh_from_db()
    assert campaign.invitation_code != old
    assert last_context(campaign, "update")["action"] == "campaign.rotate_invitation"


def test_a_user_joins_through_the_invitation_as_a_player(campaign, outsider):
    membership, created = services.campaign_join(code=campaign.invitation_code, user=outsider)
    assert created
    assert membership.role == Membership.Role.PLAYER
    context = last_context(membership, "insert")
    assert context["action"] == "membership.join"
    assert context["user"] == outsider.pk


def test_joining_again_keeps_the_role(campaign, spectator):
    membership, created = services.campaign_join(code=campaign.invitation_code, user=spectator)
    assert not created
    assert membership.role == Membership.Role.SPECTATOR


def test_an_old_invitation_no_longer_works(campaign, organiser, outsider):
    old = campaign.invitation_code
    services.campaign_rotate_invitation(campaign=campaign, by=organiser)
    with pytest.raises(ValidationError, match="not valid"):
        services.campaign_join(code=old, user=outsider)
    assert not Membership.objects.filter(user=outsider).exists()


def test_an_archived_campaign_takes_no_new_members(campaign, organiser, outsider):
    campaign_services.campaign_update(campaign=campaign, by=organiser, status=Campaign.Status.ARCHIVED)
    with pytest.raises(ValidationError, match="archived"):
        services.campaign_join(code=campaign.invitation_code, user=outsider)
    assert not Membership.objects.filter(user=outsider).exists()


def test_each_refusal_to_join_says_why_with_its_own_error(campaign, organiser, outsider):
    with pytest.raises(InvitationNotValid):
        services.campaign_join(code="not-a-code", user=outsider)
    campaign_services.campaign_update(campaign=campaign, by=organiser, status=Campaign.Status.ARCHIVED)
    with pytest.raises(CampaignArchived):
        services.campaign_join(code=campaign.invitation_code, user=outsider)
    assert not Membership.objects.filter(user=outsider).exists()
