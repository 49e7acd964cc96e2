"""The house Trauma Table (moving to combat with its editor) (campaigns/services/trauma_table.py).

Each write leaves the history event the feed reads, with who and why; bad input changes nothing.
"""

import pytest
from django.core.exceptions import ValidationError

from campaigns.services import trauma_table as services
from campaigns.tests.history import last_context
from campaigns.trauma_tables import default_rows

pytestmark = pytest.mark.django_db


def test_it_saves_a_house_trauma_table(campaign, organiser):
    rows = default_rows()
    rows[0]["name"] = "Killed Outright"
    services.campaign_set_trauma_table(campaign=campaign, rows=rows, by=organiser)
    campaign.refresh_from_db()
    assert campaign.house_trauma_table[0]["name"] == "Killed Outright"
    assert len(campaign.house_trauma_table) == len(rows)
    context = last_context(campaign, "update")
    assert context["action"] == "campaign.trauma_table"
    assert "own Trauma Table" in context["reason"]

    services.campaign_set_trauma_table(campaign=campaign, rows=None, by=organiser)
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
    with pytest.raises(ValidationError) as error:
        services.campaign_set_trauma_table(campaign=campaign, rows=change_rows, by=organiser)
    assert any(message in text for text in error.value.messages)
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None
