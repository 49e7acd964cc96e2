"""Tests for combat/services/trauma_table.py: the house Trauma Table a campaign rolls on, saved with its history,
or refused with every problem and nothing changed (moved from campaigns/tests/test_services.py with the service)."""

import pytest

from campaigns.tests.history import events_of, last_context
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


def test_ruling_T_5_two_rows_with_one_code_are_refused_and_nothing_is_saved(campaign, organiser):
    # The editor took two rows of one code.
    rows = default_rows()
    rows[20]["code"] = "hardened"
    with pytest.raises(rules.TraumaTableError) as error:
        trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=rows, by=organiser)
    assert error.value.problems == (
        "Two rows have the code hardened (Hardened, 64; Bitter Lessons, 65): give each result its own code.",
    )
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None


def test_the_rows_are_stored_in_d66_order(campaign, organiser):
    rows = list(reversed(default_rows()))
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=rows, by=organiser)
    campaign.refresh_from_db()
    assert campaign.house_trauma_table == default_rows()


def test_every_version_of_the_table_stays_in_the_history_so_a_past_post_game_reads_as_it_was(
    campaign, organiser
):
    first = default_rows()
    first[0]["name"] = "Killed Outright"
    second = default_rows()
    second[0]["name"] = "Dead and Buried"
    for rows in (first, second, None):
        trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=rows, by=organiser)
    versions = [event.house_trauma_table for event in events_of(campaign, "update")]
    assert [rows[0]["name"] if rows else None for rows in versions] == [
        "Killed Outright",
        "Dead and Buried",
        None,
    ]


def test_saving_the_table_it_already_has_writes_no_event(campaign, organiser):
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=default_rows(), by=organiser)
    count = len(events_of(campaign))
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=default_rows(), by=organiser)
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=None, by=organiser)
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=None, by=organiser)
    assert len(events_of(campaign)) == count + 1
