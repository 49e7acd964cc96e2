"""combat/demo_campaign_data.py: each preset's made-up demo set. A Fallout: Factions campaign's "Copy from the demo
set" copies its own lists, with no name of the Trench Crusade set in them."""

import pytest

from campaigns.models import Campaign
from combat import demo_campaign_data as demo
from combat.campaign_data_io import checked_rows
from combat.models import CampaignDataSet
from combat.models.campaign_data import campaign_kinds
from combat.services.campaign_data import campaign_data_copy_demo

pytestmark = pytest.mark.django_db


def trench_crusade_names() -> set[str]:
    names = set()
    for kind in campaign_kinds():
        names |= {row["name"] for row in demo.demo_rows(kind, "trench_crusade")}
    names |= {row["name"] for row in demo.demo_rows("patron_skills:1", "trench_crusade")}
    return names


def test_the_trench_crusade_set_is_the_default():
    for kind in campaign_kinds():
        assert demo.demo_rows(kind) == demo.demo_rows(kind, "trench_crusade")


@pytest.mark.parametrize("kind", campaign_kinds())
def test_each_fallout_factions_list_is_one_the_engine_accepts(kind):
    rows = demo.demo_rows(kind, "fallout_factions")
    assert checked_rows(kind, rows)


def test_a_fallout_factions_campaign_copies_no_trench_crusade_name(campaign, organiser, warband):
    Campaign.objects.filter(pk=campaign.pk).update(preset=Campaign.Preset.FALLOUT_FACTIONS)
    campaign.refresh_from_db()
    made = campaign_data_copy_demo(campaign=campaign, by=organiser)
    assert {data_set.kind for data_set in made} == {*campaign_kinds(), f"patron_skills:{warband.pk}"}
    copied = repr(list(CampaignDataSet.objects.filter(campaign=campaign).values_list("rows", flat=True)))
    names = trench_crusade_names()
    assert len(names) > 40
    assert [name for name in sorted(names) if name in copied] == []
