"""A campaign's data told in the history (combat/history/campaign_data.py), read through the feed."""

import pytest

from combat.demo_campaign_data import demo_rows
from combat.services.campaign_data import campaign_data_copy_demo, campaign_data_save
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db

COMMON = "location_table:common"


def test_each_save_reads_with_who_which_list_its_version_and_rows(campaign, organiser, first_names):
    campaign_data_save(campaign=campaign, kind=COMMON, rows=demo_rows(COMMON), by=organiser)
    campaign_data_save(
        campaign=campaign, kind=COMMON, rows=demo_rows(COMMON)[:2], by=organiser, note="fewer wells"
    )
    told = sentences(campaign)
    assert told[:2] == [
        "Olga saved the Common Locations, v2: 2 rows (fewer wells)",
        "Olga saved the Common Locations, v1: 5 rows",
    ]
    assert sentences(campaign, kind="campaign")[:2] == told[:2]


def test_a_patron_list_names_its_warband_and_stays_out_of_a_warbands_own_history(
    campaign, organiser, warband, first_names
):
    campaign_data_copy_demo(campaign=campaign, by=organiser, kinds=[f"patron_skills:{warband.pk}"])
    assert (
        f"Olga saved the Patron skills of {warband.name}, v1: 3 rows (copied from the demo set)"
        in sentences(campaign)
    )
    assert not any("Patron" in sentence for sentence in sentences(campaign, warband_id=warband.pk))


def test_a_deleted_account_leaves_the_sentence_and_adds_none(campaign, organiser, make_user):
    olga = make_user("olga_gone")
    campaign_data_save(campaign=campaign, kind=COMMON, rows=demo_rows(COMMON), by=olga)
    count = len(sentences(campaign))
    olga.delete()
    told = sentences(campaign)
    assert len(told) == count
    assert any("the Common Locations, v1: 5 rows" in sentence for sentence in told)


def test_combat_registers_the_campaign_data_below_the_boards_rank():
    from combat.history.campaign_data import CampaignDataSource
    from rosters.history import registry

    source = registry.by_name("campaign_data")
    assert isinstance(source, CampaignDataSource)
    assert source.rank < registry.by_name("tracker").rank
