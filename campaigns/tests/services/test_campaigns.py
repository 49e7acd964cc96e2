"""Creating a campaign and changing its settings (campaigns/services/campaigns.py).

Each write leaves the history event the feed reads, with who and why; bad input changes nothing.
"""

import pytest
from django.core.exceptions import ValidationError

from campaigns.models import Campaign, Membership
from campaigns.services import campaigns as services
from campaigns.tests.history import events_of, last_context

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


def test_a_campaign_runs_in_stages_only_where_its_preset_has_them(organiser):
    """Threshold Value, Field Strength and the stages' scenario tables are Trench Crusade's campaign phase: a new
    Fallout: Factions campaign starts with them off (the organiser may switch them on)."""
    trench = services.campaign_create(name="The Long Trench", by=organiser)
    wasteland = services.campaign_create(name="The Wasteland", by=organiser, preset="fallout_factions")

    assert (trench.uses_limits, trench.uses.campaign_stages) == (True, True)
    assert (wasteland.uses_limits, wasteland.uses.campaign_stages) == (False, False)


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
