"""Tests for combat/selectors/trauma_table.py: what the editor page shows."""

import pytest

from combat import rules
from combat.selectors.trauma_table import default_rows, trauma_table_page

pytestmark = pytest.mark.django_db


def test_default_rows_are_a_fresh_copy_each_time():
    rows = default_rows()
    rows[0]["name"] = "Gone"
    assert default_rows()[0]["name"] == "Dead"


def test_the_page_has_the_house_rows_only_when_the_campaign_has_its_own_table(campaign):
    page = trauma_table_page(campaign=campaign)
    assert page.house_rows is None
    assert page.default == rules.TraumaTable.default()
    campaign.house_trauma_table = default_rows()[:1]
    page = trauma_table_page(campaign=campaign)
    assert page.house_rows == default_rows()[:1]
    page.house_rows[0]["name"] = "changed on the page"
    assert campaign.house_trauma_table[0]["name"] == "Dead"


def test_a_table_stored_as_a_whole_document_is_edited_by_its_rows(campaign):
    campaign.house_trauma_table = {"format": 1, "name": "ours", "version": "2", "rows": default_rows()}
    assert trauma_table_page(campaign=campaign).house_rows == default_rows()
