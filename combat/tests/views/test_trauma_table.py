"""Tests for combat/views/trauma_table.py: the house Trauma Table editor, copied from the default, edited, refused
with every problem beside the table and nothing saved, and given back to the default (moved from
campaigns/tests/test_views.py with the editor; the editor's content is read on its own page now)."""

import re

import pytest
from django.urls import reverse

from campaigns.models import Campaign
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


# --- the editor's own page (it moved into combat) ------------------------------------------------------

URL = "/campaigns/{}/settings/trauma-table/"


def test_the_editor_is_reached_by_its_name_from_the_settings_page(as_organiser, campaign):
    url = reverse("campaign_trauma_table", args=[campaign.pk])
    assert url == URL.format(campaign.pk)
    settings_page = as_organiser.get(reverse("campaign_settings", args=[campaign.pk])).content.decode()
    assert f'<a href="{url}">Read the default table</a>' in settings_page
    as_organiser.post(url, {"action": "copy"})
    settings_page = as_organiser.get(reverse("campaign_settings", args=[campaign.pk])).content.decode()
    assert f'<a href="{url}">Edit the campaign\'s Trauma Table</a>' in settings_page
    assert "its own Trauma Table</strong> (22 rows)" in settings_page


def test_without_a_house_table_it_shows_the_default_to_read_and_copy(as_organiser, campaign):
    response = as_organiser.get(URL.format(campaign.pk))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Trench Crusade campaign rules v1.0, with the 1.0.2 changes" in html
    assert '<td class="primary">41-63</td><td data-label="Result">Full Recovery</td>' in html
    assert 'name="action" value="copy"' in html
    assert "rows-TOTAL_FORMS" not in html


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("outsider", 404), ("spectator", 403), ("player", 403)]
)
def test_only_the_organiser_reads_or_changes_the_table(client, campaign, request, who, status):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    assert client.get(URL.format(campaign.pk)).status_code == status
    assert client.post(URL.format(campaign.pk), {"action": "copy"}).status_code == status
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None


def test_reading_the_editor_writes_nothing(as_organiser, campaign):
    before = Campaign.pgh_event_model.objects.count()
    as_organiser.get(URL.format(campaign.pk))
    as_organiser.post(URL.format(campaign.pk), {"action": "copy"})
    after_copy = Campaign.pgh_event_model.objects.count()
    as_organiser.get(URL.format(campaign.pk))
    assert Campaign.pgh_event_model.objects.count() == after_copy == before + 1


def test_every_problem_is_listed_beside_the_table_and_nothing_is_saved(as_organiser, campaign):
    as_organiser.post(URL.format(campaign.pk), {"action": "copy"})
    rows = default_rows()
    rows[0]["low"] = 66  # Dead 66-11: the wrong way round
    rows[20]["code"] = "hardened"  # Bitter Lessons given Hardened's code
    rows[17]["high"] = 41  # Robbed 36-41 meets Full Recovery on 41
    response = as_organiser.post(URL.format(campaign.pk), table_post(rows))
    html = response.content.decode()
    assert response.status_code == 422
    problems = html[
        html.index('id="trauma-table-problems"') : html.index('<table class="stack trauma-table">')
    ]
    assert "Row 1 (Dead): low 66 is above high 11." in problems
    assert "Rows overlap: D66 41 is in both Robbed and Full Recovery." in problems
    assert "Two rows have the code hardened (Hardened, 64; Bitter Lessons, 65)" in problems
    assert 'value="66"' in html  # the organiser's input is kept to fix
    campaign.refresh_from_db()
    assert campaign.house_trauma_table == default_rows()


def test_problems_name_the_rows_as_the_page_numbers_them_after_a_deleted_row(as_organiser, campaign):
    as_organiser.post(URL.format(campaign.pk), {"action": "copy"})
    rows = default_rows()
    rows[20]["high"] = 60  # Bitter Lessons 65-60, row 21 on the page: 60 is no D66 result
    data = table_post(rows)
    data["rows-2-DELETE"] = (
        "on"  # Severe Nerve Damage (13) deleted: a gap, and the rows after it keep their numbers
    )
    response = as_organiser.post(URL.format(campaign.pk), data)
    html = response.content.decode()
    assert response.status_code == 422
    assert "Row 21 (Bitter Lessons): high 60 is not a D66 result" in html
    campaign.refresh_from_db()
    assert campaign.house_trauma_table == default_rows()


def test_an_unknown_action_is_a_bad_request_that_changes_nothing(as_organiser, campaign):
    response = as_organiser.post(URL.format(campaign.pk), {"action": "burn"})
    assert response.status_code == 400
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None


def test_going_back_to_the_default_from_the_editor_asks_first(as_organiser, campaign):
    as_organiser.post(URL.format(campaign.pk), {"action": "copy"})
    html = as_organiser.get(URL.format(campaign.pk)).content.decode()
    form = html[: html.index('value="default"')]
    form = form[form.rindex("<form") :]
    assert 'data-confirm="Go back to the default Trauma Table?' in form
    assert not re.search(r"\son[a-z]+=", html)  # no inline handler (a strict CSP comes next)
    response = as_organiser.post(URL.format(campaign.pk), {"action": "default"}, follow=True)
    assert "The campaign rolls on the default Trauma Table again." in response.content.decode()
