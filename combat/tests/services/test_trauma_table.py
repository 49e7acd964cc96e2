"""Tests for combat/services/trauma_table.py: the house Trauma Table a campaign rolls on, saved with its history,
or refused with every problem and nothing changed (moved from campaigns/tests/test_services.py with the service)."""

import pytest

from campaigns.tests.history import last_context
from combat import rules
from combat.selectors.trauma_table import default_rows
from combat.services import trauma_table as trauma_table_services

pytestmark = pytest.mark.django_db


def test_it_saves_a_house_trauma_table(campaign, organiser):
    rows = default_rows()
    rows[0]["name"] = "Killed Outright"
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=rows, by=organiser)
    campaign.refresh_from_db()
    assert campaign.house_trauma_table[0]["name"] == "Killed Outright"
    assert len(campaign.house_trauma_table) == len(rows)
    context = last_context(campaign, "update")
    assert context["action"] == "campaign.trauma_table"
    assert "own Trauma Table" in context["reason"]

    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=None, by=organiser)
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None
    assert "default Trauma Table" in last_context(campaign, "update")["reason"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows.pop(3), "gap: no row covers D66 14"),
        (lambda rows: rows[3].update(high=15), "overlap: D66 15"),
        (lambda rows: rows[3].update(low=17, high=17), "not a D66 result"),
        (lambda rows: rows[3].update(name=""), "needs a name"),
    ],
)
def test_it_refuses_a_broken_trauma_table_and_keeps_the_old_one(campaign, organiser, change, message):
    change_rows = default_rows()
    change(change_rows)
    with pytest.raises(rules.TraumaTableError) as error:
        trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=change_rows, by=organiser)
    assert any(message in text for text in error.value.problems)
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None
