"""Tests for combat/views/trauma_table.py: the house Trauma Table editor, copied from the default, edited, refused
with every problem beside the table and nothing saved, and given back to the default (moved from
campaigns/tests/test_views.py with the editor; the editor's content is read on its own page now)."""

import re

import pytest

from combat.selectors.trauma_table import default_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def table_post(rows, *, action="save", extra_blank=True):
    """The Trauma Table formset as the editor posts it."""
    forms = list(rows) + ([{}] if extra_blank else [])
    data = {
        "action": action,
        "rows-TOTAL_FORMS": str(len(forms)),
        "rows-INITIAL_FORMS": str(len(rows)),
        "rows-MIN_NUM_FORMS": "0",
        "rows-MAX_NUM_FORMS": "1000",
    }
    for index, row in enumerate(forms):
        for name, value in row.items():
            if name in ("scar", "injury"):
                if value:
                    data[f"rows-{index}-{name}"] = "on"
            else:
                data[f"rows-{index}-{name}"] = value
    return data


def test_the_trauma_table_is_copied_then_edited(as_organiser, campaign):
    html = as_organiser.get(f"/campaigns/{campaign.pk}/settings/").content.decode()
    assert "Copy the default table to edit it" in html

    as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", {"action": "copy"})
    campaign.refresh_from_db()
    assert campaign.house_trauma_table == default_rows()
    html = as_organiser.get(f"/campaigns/{campaign.pk}/settings/trauma-table/").content.decode()
    assert 'name="rows-0-code" value="dead"' in html

    rows = default_rows()
    rows[-1]["name"] = "Glorious Scar"
    response = as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", table_post(rows))
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.house_trauma_table[-1]["name"] == "Glorious Scar"

    as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", {"action": "default"})
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows[4].update(low=14), "Rows overlap: D66 14 is in both Hand Wound and Lost an Eye."),
        (lambda rows: rows[18].update(low=42), "The table has a gap: no row covers D66 41."),
        (lambda rows: rows[5].update(high=17), "high 17 is not a D66 result"),
        (lambda rows: rows[0].update(name=""), "This field is required."),
        (lambda rows: rows[1].update(code="Bad Code"), "must be lower-case letters"),
    ],
)
def test_a_trauma_table_with_a_gap_or_overlap_is_refused_and_nothing_changes(
    as_organiser, campaign, change, message
):
    as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", {"action": "copy"})
    rows = default_rows()
    change(rows)
    response = as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", table_post(rows))
    assert response.status_code == 422
    assert message in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.house_trauma_table == default_rows()


def test_every_field_of_the_trauma_table_editor_has_a_label(as_organiser, campaign):
    """The editor's inputs had only a column heading (and a CSS data-label on a phone), no <label>."""
    as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", {"action": "copy"})
    html = as_organiser.get(f"/campaigns/{campaign.pk}/settings/trauma-table/").content.decode()
    table = html[
        html.index('<table class="stack trauma-table">') : html.index("</table>", html.index("trauma-table"))
    ]
    ids = re.findall(r'<(?:input|textarea)[^>]* id="(id_rows-[^"]+)"', table)
    assert len(ids) == (len(default_rows()) + 1) * 8
    labelled = set(re.findall(r'<label class="visually-hidden" for="(id_rows-[^"]+)">Row \d+: ', table))
    assert set(ids) == labelled
    assert '<label class="visually-hidden" for="id_rows-2-low">Row 3: From</label>' in table


def test_deleting_a_row_and_adding_one_in_the_blank_row(as_organiser, campaign):
    as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", {"action": "copy"})
    rows = default_rows()
    # Split Full Recovery (41-63) in two: 41-56 stays, 61-63 becomes a new result.
    rows[18]["high"] = 56
    data = table_post(rows)
    new = len(rows)
    data.update(
        {
            f"rows-{new}-low": 61,
            f"rows-{new}-high": 63,
            f"rows-{new}-code": "war_story",
            f"rows-{new}-name": "War Story",
            f"rows-{new}-effect": "tells it at every camp",
        }
    )
    response = as_organiser.post(f"/campaigns/{campaign.pk}/settings/trauma-table/", data)
    assert response.status_code == 302
    campaign.refresh_from_db()
    codes = [row["code"] for row in campaign.house_trauma_table]
    assert "war_story" in codes
    assert len(codes) == len(rows) + 1
