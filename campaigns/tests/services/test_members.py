"""Members' roles, and the organiser a campaign always keeps (campaigns/services/members.py).

Each write leaves the history event the feed reads, with who and why; bad input changes nothing.
"""

import pytest
from django.core.exceptions import ValidationError

from campaigns.errors import CampaignError, LastOrganiser
from campaigns.models import Membership
from campaigns.services import members as services
from campaigns.tests.history import deleted_context, last_context

pytestmark = pytest.mark.django_db


def test_it_changes_a_role(campaign, organiser, player):
    membership = Membership.objects.get(campaign=campaign, user=player)
    services.membership_set_role(membership=membership, role=Membership.Role.SPECTATOR, by=organiser)
    membership.refresh_from_db()
    assert membership.role == Membership.Role.SPECTATOR
    context = last_context(membership, "update")
    assert context["action"] == "membership.role"
    assert "pat_player Spectator (was Player)" in context["reason"]


def test_the_last_organiser_cannot_step_down(campaign, organiser):
    membership = Membership.objects.get(campaign=campaign, user=organiser)
    with pytest.raises(ValidationError, match="needs an organiser"):
        services.membership_set_role(membership=membership, role=Membership.Role.PLAYER, by=organiser)
    with pytest.raises(ValidationError, match="needs an organiser"):
        services.membership_remove(membership=membership, by=organiser)
    membership.refresh_from_db()
    assert membership.role == Membership.Role.ORGANISER


def test_an_organiser_can_hand_over_and_step_down(campaign, organiser, player):
    services.membership_set_role(
        membership=Membership.objects.get(campaign=campaign, user=player), role="organiser", by=organiser
    )
    mine = Membership.objects.get(campaign=campaign, user=organiser)
    services.membership_set_role(membership=mine, role=Membership.Role.PLAYER, by=organiser)
    mine.refresh_from_db()
    assert mine.role == Membership.Role.PLAYER


def test_it_removes_a_member(campaign, organiser, player2):
    membership = Membership.objects.get(campaign=campaign, user=player2)
    pk = membership.pk
    services.membership_remove(membership=membership, by=organiser)
    assert not Membership.objects.filter(pk=pk).exists()
    context = deleted_context(Membership, pk)
    assert context["action"] == "membership.remove"
    assert context["user"] == organiser.pk


def test_keeping_an_organiser_is_refused_with_a_domain_error(campaign, organiser):
    membership = Membership.objects.get(campaign=campaign, user=organiser)

    with pytest.raises(LastOrganiser) as refused:
        services.membership_remove(membership=membership, by=organiser)

    assert isinstance(refused.value, CampaignError)
    assert not hasattr(refused.value, "status_code")
    assert Membership.objects.filter(pk=membership.pk).exists()
