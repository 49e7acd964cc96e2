"""rosters/services/price_lists.py: each save a new version, equal rows save nothing, refused rows save nothing."""

import pytest

from rosters.models import PriceList
from rosters.price_lists import PriceListError
from rosters.services import price_lists as services

pytestmark = pytest.mark.django_db

LANCE = {"name": "Lance", "cost": 10, "keywords": ["heavy"], "removable": True}


def test_saves_make_versions(campaign, organiser):
    first, new = services.price_list_save(campaign=campaign, kind="battlekit", rows=[LANCE], by=organiser)
    assert (first.version, new, first.rows[0]["keywords"]) == (1, True, ["HEAVY"])
    again, new = services.price_list_save(campaign=campaign, kind="battlekit", rows=[LANCE], by=organiser)
    assert (again.pk, new) == (first.pk, False)
    second, new = services.price_list_save(
        campaign=campaign, kind="battlekit", rows=[{**LANCE, "cost": 12}], by=organiser
    )
    assert (second.version, new) == (2, True)
    first.refresh_from_db()
    assert first.rows[0]["cost"] == 10  # a saved version is never edited


def test_refused_rows_save_nothing(campaign, organiser):
    with pytest.raises(PriceListError):
        services.price_list_save(
            campaign=campaign, kind="battlekit", rows=[{**LANCE, "cost": -5}], by=organiser
        )
    assert not PriceList.objects.exists()


def test_the_demo_lists_are_copied_once(campaign, organiser):
    assert len(services.price_list_copy_demo(campaign=campaign, by=organiser)) == 2
    assert services.price_list_copy_demo(campaign=campaign, by=organiser) == []


def test_an_import_reads_csv(campaign, organiser):
    text = "name,cost,keywords,removable\nMaul,20,HEAVY,yes\n"
    saved, _new = services.price_list_import(
        campaign=campaign, kind="battlekit", text=text, fmt="csv", by=organiser
    )
    assert (saved.note, saved.rows[0]["name"]) == ("imported", "Maul")


def _names(rows) -> set[str]:
    return {row["name"] for row in rows} | {word for row in rows for word in row.get("keywords", [])}


def test_a_fallout_factions_campaign_copies_its_own_made_up_lists(campaign, organiser):
    from campaigns.models import Campaign
    from rosters.price_lists import DEMO_ROWS

    Campaign.objects.filter(pk=campaign.pk).update(preset=Campaign.Preset.FALLOUT_FACTIONS)
    campaign.refresh_from_db()
    copied = services.price_list_copy_demo(campaign=campaign, by=organiser)
    assert sorted(price_list.kind for price_list in copied) == ["battlekit", "fighters"]
    trench_crusade = {name for rows in DEMO_ROWS.values() for name in _names(rows)} - {"ARMOUR"}
    for price_list in copied:
        text = repr(price_list.rows)
        assert [name for name in trench_crusade if name in text] == [], price_list.kind
        assert "ELITE" not in text  # a Fallout: Factions Champion is marked on the fighter, not by a keyword
