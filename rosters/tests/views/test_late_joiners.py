"""The page founding a warband says when it joins late, what it starts with and why (CAMPAIGN_PHASE.md, late
joiners; RULING C-1)."""

import pytest

from rosters.models import Warband
from rosters.tests.services.test_late_joiners import played

pytestmark = pytest.mark.django_db


def test_the_page_says_a_late_joiner_builds_at_the_current_threshold_value(client, player, campaign, warband):
    played(campaign, warband, times=3)
    client.force_login(player)
    html = client.get(f"/campaigns/{campaign.pk}/warbands/new/").content.decode()
    assert 'id="late-joiner"' in html
    assert "has played 3 battles" in html
    assert "<strong>1000 ducats</strong>" in html
    assert "<strong>3 starting XP</strong>" in html
    assert "RULING" not in html  # the ruling is a link with its title, never its id


def test_before_the_first_battle_the_page_says_nothing_of_joining_late(client, player, campaign):
    client.force_login(player)
    html = client.get(f"/campaigns/{campaign.pk}/warbands/new/").content.decode()
    assert 'id="late-joiner"' not in html


def test_founding_a_late_joiner_from_the_page_opens_its_strongbox_at_the_threshold(
    client, player, campaign, warband
):
    played(campaign, warband, times=2)
    client.force_login(player)
    response = client.post(
        f"/campaigns/{campaign.pk}/warbands/new/", {"name": "Grey Wardens", "glory": 0, "crew_xp": 0}
    )
    assert response.status_code == 302
    band = Warband.objects.get(name="Grey Wardens")
    assert (band.starting_value, band.strongbox, band.starting_xp) == (900, 900, 2)


def test_after_battle_12_founding_is_refused_with_the_reason_and_nothing_written(
    client, player, campaign, warband
):
    played(campaign, warband, times=12)
    client.force_login(player)
    response = client.post(
        f"/campaigns/{campaign.pk}/warbands/new/", {"name": "Grey Wardens", "glory": 0, "crew_xp": 0}
    )
    assert response.status_code == 422
    assert "has played all 12 battles" in response.content.decode()
    assert not Warband.objects.filter(name="Grey Wardens").exists()
