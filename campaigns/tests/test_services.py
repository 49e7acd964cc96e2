"""Campaign writes: each leaves the history event the feed reads, with who and why; bad input changes nothing."""

import pytest
from django.core.exceptions import ValidationError

from campaigns import services
from campaigns.models import Campaign, Membership
from campaigns.tests.history import deleted_context, events_of, last_context

pytestmark = pytest.mark.django_db


def test_it_creates_a_campaign_with_its_organiser(organiser):
    campaign = services.campaign_create(name="  The Long Trench ", description="Autumn 1917", by=organiser)

    assert campaign.name == "The Long Trench"
    assert campaign.preset == Campaign.Preset.TRENCH_CRUSADE
    assert campaign.scar_limit == 3
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role) == (organiser, Membership.Role.ORGANISER)
    context = last_context(campaign, "insert")
    assert context["action"] == "campaign.create"
    assert context["campaign"] == campaign.pk
    assert context["user"] == organiser.pk
    assert "created the campaign The Long Trench" in context["reason"]
    assert last_context(membership, "insert")["action"] == "campaign.create"


def test_it_refuses_a_campaign_without_a_name(organiser):
    with pytest.raises(ValidationError):
        services.campaign_create(name="   ", by=organiser)
    assert Campaign.objects.count() == 0
    assert Membership.objects.count() == 0


@pytest.mark.parametrize("scar_limit", [0, 11])
def test_it_refuses_a_scar_limit_out_of_range(organiser, scar_limit):
    with pytest.raises(ValidationError):
        services.campaign_create(name="Bad", scar_limit=scar_limit, by=organiser)
    assert Campaign.objects.count() == 0


def test_it_updates_the_settings(campaign, organiser):
    services.campaign_update(
        campaign=campaign, by=organiser, preset=Campaign.Preset.FALLOUT_FACTIONS, scar_limit=4, name="Nuka"
    )
    campaign.refresh_from_db()
    assert (campaign.preset, campaign.scar_limit, campaign.name) == ("fallout_factions", 4, "Nuka")
    assert campaign.terms.elite == "Champion"
    context = last_context(campaign, "update")
    assert context["action"] == "campaign.update"
    assert "scar limit" in context["reason"]
    assert context["user"] == organiser.pk


def test_an_update_that_changes_nothing_leaves_no_event(campaign, organiser):
    before = len(events_of(campaign))
    services.campaign_update(campaign=campaign, by=organiser, name=campaign.name)
    assert len(events_of(campaign)) == before


def test_it_refuses_a_bad_update_and_keeps_the_old_values(campaign, organiser):
    with pytest.raises(ValidationError):
        services.campaign_update(campaign=campaign, by=organiser, scar_limit=42, name="New")
    campaign.refresh_from_db()
    assert (campaign.scar_limit, campaign.name) == (3, "The Long Trench")


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
    services.campaign_update(campaign=campaign, by=organiser, status=Campaign.Status.ARCHIVED)
    with pytest.raises(ValidationError, match="archived"):
        services.campaign_join(code=campaign.invitation_code, user=outsider)
    assert not Membership.objects.filter(user=outsider).exists()


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
