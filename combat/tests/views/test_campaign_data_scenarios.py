"""The scenario tables on the campaign data pages: one D6 table per stage, typed, imported as CSV
or JSON and exported; a repeated roll, a gap or a face off the die is refused beside the field, nothing saved."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from combat.models import CampaignDataSet

pytestmark = pytest.mark.django_db

EARLY = "scenario_table:early"
GOOD = "roll,name\n1,Mist\n2,Raid\n3,Mist\n4,Hold\n5,Raid\n6,Siege\n"


def url(campaign, tail=""):
    return f"/campaigns/{campaign.pk}/data/{EARLY}/{tail}"


def saved():
    return list(CampaignDataSet.objects.filter(kind=EARLY).values_list("version", "rows"))


def test_the_overview_lists_a_table_per_stage(client, campaign, spectator):
    client.force_login(spectator)
    html = client.get(f"/campaigns/{campaign.pk}/data/").content.decode()
    for stage in ("Early", "Mid", "Endgame", "Final Battle"):
        assert f"The {stage} scenario table" in html


def test_the_organiser_types_a_table_and_members_read_it(client, campaign, organiser, player):
    client.force_login(organiser)
    response = client.post(url(campaign), {"action": "save", "rows": GOOD})
    assert response.status_code == 302
    assert saved()[0][1][0] == {"roll": 1, "name": "Mist"}
    client.force_login(player)
    html = client.get(url(campaign)).content.decode()
    assert "The Early scenario table" in html
    assert "Siege" in html


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("roll,name\n1,A\n1,B\n2,C\n3,D\n4,E\n5,F\n", "Rows 1 and 2 both have roll 1"),
        ("roll,name\n1,A\n2,B\n3,C\n4,D\n5,E\n7,F\n", "roll 7 is not a face of the D6 (1 to 6)"),
        ("roll,name\n1,A\n2,B\n3,C\n", "No row for roll 4, 5, 6"),
        ("roll,name\n1,A\n2,B\n3,C\n4,D\n5,E\n6,\n", "Row 6: it needs the scenario&#x27;s name."),
        ("roll,name\nsix,A\n", "Line 2: roll must be a whole number"),
    ],
)
def test_a_bad_table_is_refused_beside_the_field_and_nothing_is_saved(
    client, campaign, organiser, text, problem
):
    client.force_login(organiser)
    response = client.post(url(campaign), {"action": "save", "rows": text})
    assert response.status_code == 422
    html = response.content.decode()
    field = html[html.index('class="field has-error"') :]
    assert problem in field[: field.index('name="rows"')]
    assert saved() == []


def test_an_import_of_a_seventh_row_is_refused(client, campaign, organiser):
    client.force_login(organiser)
    upload = SimpleUploadedFile("early.csv", (GOOD + "6,Again\n").encode(), content_type="text/csv")
    response = client.post(url(campaign), {"action": "import", "file": upload, "format": "auto"})
    assert response.status_code == 422
    assert "Rows 6 and 7 both have roll 6" in response.content.decode()
    assert saved() == []


def test_export_then_import_round_trips_as_json(client, campaign, organiser):
    client.force_login(organiser)
    client.post(url(campaign), {"action": "save", "rows": GOOD})
    document = json.loads(client.get(url(campaign, "export/") + "?format=json").content)
    assert document["kind"] == EARLY
    document["rows"][5]["name"] = "Last Stand"
    response = client.post(
        url(campaign), {"action": "import", "text": json.dumps(document), "format": "auto"}
    )
    assert response.status_code == 302
    assert [version for version, _rows in saved()] == [2, 1]
    assert CampaignDataSet.objects.get(kind=EARLY, version=2).rows[5] == {"roll": 6, "name": "Last Stand"}
