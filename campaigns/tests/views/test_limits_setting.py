"""The campaign setting of which campaign-phase steps its preset uses: a Fallout: Factions group
may leave the Threshold Value and Field Strength off, and the roster then shows only the value, in caps."""

import pytest

from campaigns.models import Campaign
from rosters.services import warbands as warband_services

pytestmark = pytest.mark.django_db


def test_the_organiser_turns_the_limits_off_and_the_roster_says_so(client, campaign, organiser, player):
    campaign.preset = Campaign.Preset.FALLOUT_FACTIONS
    campaign.save(update_fields=["preset"])
    crew = warband_services.warband_create(campaign=campaign, owner=player, by=player, name="Diamond City")
    client.force_login(organiser)
    html = client.get(f"/campaigns/{campaign.pk}/settings/").content.decode()
    assert "Threshold Value and Field Strength" in html
    data = {
        "name": campaign.name,
        "description": "",
        "preset": campaign.preset,
        "scar_limit": 3,
        "status": "active",
    }
    assert client.post(f"/campaigns/{campaign.pk}/settings/", data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.uses_limits is False
    roster = client.get(f"/warbands/{crew.pk}/").content.decode()
    assert "caps value" in roster
    assert "This campaign leaves the Threshold Value and Field Strength off." in roster
    assert "Stash" in roster  # the crew's own words (campaigns/terms.py)


def test_a_trench_crusade_roster_shows_the_threshold(client, campaign, player):
    band = warband_services.warband_create(campaign=campaign, owner=player, by=player, name="Grey Wardens")
    client.force_login(player)
    roster = client.get(f"/warbands/{band.pk}/").content.decode()
    assert "Threshold Value" in roster
    assert "Limits of battle 1" in roster
