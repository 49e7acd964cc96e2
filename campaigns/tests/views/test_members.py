"""The members table of the settings page (campaigns/views/members.py): what the form refuses, where it leads."""

import pytest
from django.urls import reverse

from campaigns.models import Membership

pytestmark = pytest.mark.django_db


def member_url(campaign, membership) -> str:
    return reverse("campaign_member", args=[campaign.pk, membership.pk])


def test_a_post_with_neither_a_role_nor_remove_is_refused_with_a_reason(client, campaign, organiser, player):
    client.force_login(organiser)
    membership = Membership.objects.get(campaign=campaign, user=player)

    response = client.post(member_url(campaign, membership), {})

    assert response.status_code == 422
    assert "Choose organiser, player or spectator." in response.content.decode()
    membership.refresh_from_db()
    assert membership.role == Membership.Role.PLAYER


def test_an_organiser_who_removes_themselves_lands_on_the_dashboard(client, campaign, organiser, player):
    client.force_login(organiser)
    Membership.objects.filter(campaign=campaign, user=player).update(role=Membership.Role.ORGANISER)
    mine = Membership.objects.get(campaign=campaign, user=organiser)

    response = client.post(member_url(campaign, mine), {"remove": "1"})

    assert response["Location"] == reverse("dashboard")
    assert not Membership.objects.filter(pk=mine.pk).exists()


def test_a_role_change_goes_back_to_the_members_table(client, campaign, organiser, player2):
    client.force_login(organiser)
    membership = Membership.objects.get(campaign=campaign, user=player2)

    response = client.post(member_url(campaign, membership), {"role": "spectator"})

    assert response["Location"] == reverse("campaign_settings", args=[campaign.pk]) + "#members"
    membership.refresh_from_db()
    assert membership.role == Membership.Role.SPECTATOR
