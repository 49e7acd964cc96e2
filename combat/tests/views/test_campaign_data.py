"""Tests for combat/views/campaign_data.py: the campaign data pages. Members read every version and export it; the
organiser saves, imports and copies the demo set; an outsider gets 404; bad input answers 4xx with its reason
beside the field and changes nothing."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from combat.demo_campaign_data import demo_rows
from combat.models import CampaignDataSet
from combat.services.campaign_data import campaign_data_save

pytestmark = pytest.mark.django_db

RANGED = "skill_chart:ranged"
COMMON = "location_table:common"


def url(campaign, kind=None, tail=""):
    base = f"/campaigns/{campaign.pk}/data/"
    return base if kind is None else f"{base}{kind}/{tail}"


def versions():
    return list(CampaignDataSet.objects.order_by("kind", "version").values_list("kind", "version", "rows"))


@pytest.fixture
def saved(campaign, organiser):
    data_set, _ = campaign_data_save(campaign=campaign, kind=COMMON, rows=demo_rows(COMMON), by=organiser)
    return data_set


@pytest.mark.parametrize("who", ["organiser", "player", "spectator"])
def test_members_read_the_overview_the_kind_and_its_versions(client, campaign, saved, who, request):
    client.force_login(request.getfixturevalue(who))
    html = client.get(url(campaign)).content.decode()
    assert "ships <strong>no official names</strong>" in html
    assert "The Common Locations" in html
    assert "v1 by" in html
    html = client.get(url(campaign, COMMON)).content.decode()
    assert "Flooded Dugout" in html
    assert 'id="data-version-1"' in html
    assert ('name="rows"' in html) is (who == "organiser")


def test_an_outsider_gets_404_everywhere(client, campaign, saved, outsider):
    client.force_login(outsider)
    for path in (url(campaign), url(campaign, COMMON), url(campaign, COMMON, "export/")):
        assert client.get(path).status_code == 404
    assert client.post(url(campaign, COMMON), {"action": "copy_demo"}).status_code == 404
    assert versions() == [(COMMON, 1, saved.rows)]


@pytest.mark.parametrize("who", ["player", "spectator"])
def test_a_member_who_is_not_the_organiser_cannot_write(client, campaign, saved, who, request):
    client.force_login(request.getfixturevalue(who))
    csv_text = "score,code,name\n3,a,A\n"
    assert client.post(url(campaign, COMMON), {"action": "save", "rows": csv_text}).status_code == 403
    assert client.post(url(campaign), {"action": "copy_demo"}).status_code == 403
    assert versions() == [(COMMON, 1, saved.rows)]


def test_the_organiser_saves_a_new_version_from_the_csv_editor(client, campaign, organiser, saved):
    client.force_login(organiser)
    text = "score,code,name\n7,flooded_dugout,Flooded Dugout\n8,quiet_well,Quiet Well\n"
    response = client.post(url(campaign, COMMON), {"action": "save", "rows": text, "note": "a new well"})
    assert response.status_code == 302
    newest = CampaignDataSet.objects.get(kind=COMMON, version=2)
    assert [row["code"] for row in newest.rows] == ["flooded_dugout", "quiet_well"]
    assert newest.note == "a new well"
    html = client.get(url(campaign, COMMON) + "?version=1").content.decode()
    assert "(an older version)" in html
    assert "Rusted Rail Yard" in html


def test_a_repeated_roll_is_refused_beside_the_field_with_422_and_nothing_saved(client, campaign, organiser):
    client.force_login(organiser)
    text = "roll,code,name\n7,a,Ay\n7,b,Bee\n"
    response = client.post(url(campaign, RANGED), {"action": "save", "rows": text})
    assert response.status_code == 422
    html = response.content.decode()
    field = html[html.index('class="field has-error"') :]
    assert "Two rows have the roll 7" in field[: field.index('name="rows"')]
    assert "7,b,Bee" in html  # what was typed stays in the box
    assert versions() == []


def test_a_repeated_score_in_an_import_is_refused_beside_the_file(client, campaign, organiser, saved):
    client.force_login(organiser)
    upload = SimpleUploadedFile("common.csv", b"score,code,name\n9,a,A\n9,b,B\n", content_type="text/csv")
    response = client.post(url(campaign, COMMON), {"action": "import", "file": upload, "format": "auto"})
    assert response.status_code == 422
    assert "Two rows have the score 9" in response.content.decode()
    assert versions() == [(COMMON, 1, saved.rows)]


def test_an_import_with_neither_file_nor_text_says_so(client, campaign, organiser):
    client.force_login(organiser)
    response = client.post(url(campaign, COMMON), {"action": "import", "format": "auto"})
    assert response.status_code == 422
    assert "Choose a file or paste its text." in response.content.decode()
    assert versions() == []


def test_export_then_import_by_paste_round_trips_as_json(client, campaign, organiser, saved):
    client.force_login(organiser)
    response = client.get(url(campaign, COMMON, "export/") + "?format=json")
    assert response["Content-Type"] == "application/json"
    assert 'filename="location_table-common-v1.json"' in response["Content-Disposition"]
    document = json.loads(response.content)
    assert document["rows"] == saved.rows
    document["rows"][0]["name"] = "Drained Dugout"
    posted = {"action": "import", "text": json.dumps(document), "format": "json"}
    assert client.post(url(campaign, COMMON), posted).status_code == 302
    assert CampaignDataSet.objects.get(kind=COMMON, version=2).rows[0]["name"] == "Drained Dugout"


def test_a_member_exports_an_older_version_as_csv(client, campaign, organiser, player, saved):
    campaign_data_save(campaign=campaign, kind=COMMON, rows=demo_rows(COMMON)[:2], by=organiser)
    client.force_login(player)
    response = client.get(url(campaign, COMMON, "export/") + "?format=csv&version=1")
    assert response.status_code == 200
    assert response.content.decode().splitlines() == ["score,code,name"] + [
        f"{row['score']},{row['code']},{row['name']}" for row in saved.rows
    ]


def test_copy_from_the_demo_set_fills_the_lists(client, campaign, organiser, warband):
    client.force_login(organiser)
    assert client.post(url(campaign), {"action": "copy_demo"}).status_code == 302
    kinds = {kind for kind, _version, _rows in versions()}
    assert {RANGED, COMMON, "fighter_types", f"patron_skills:{warband.pk}"} <= kinds
    assert client.post(url(campaign, RANGED), {"action": "copy_demo"}).status_code == 302
    assert CampaignDataSet.objects.filter(kind=RANGED).count() == 1  # the same rows: no new version
    again = client.post(url(campaign), {"action": "copy_demo"}, follow=True).content.decode()
    assert "Nothing to copy: every list has rows already." in again


@pytest.mark.parametrize(
    ("method", "path", "data", "status"),
    [
        ("get", "data/skill_chart:psychic/", None, 404),
        ("get", "data/patron_skills:999999/", None, 404),
        ("get", f"data/{COMMON}/?version=9", None, 404),
        ("get", f"data/{COMMON}/?version=x", None, 404),
        ("get", f"data/{COMMON}/export/?format=xml", None, 400),
        ("get", f"data/{RANGED}/export/", None, 404),
        ("post", f"data/{COMMON}/", {"action": "explode"}, 400),
        ("post", "data/", {"action": "explode"}, 400),
        ("post", "data/skill_chart:psychic/", {"action": "save", "rows": "roll,code,name\n2,a,A"}, 404),
    ],
)
def test_bad_requests_answer_4xx_with_nothing_changed(
    client, campaign, organiser, saved, method, path, data, status
):
    client.force_login(organiser)
    response = getattr(client, method)(f"/campaigns/{campaign.pk}/{path}", data)
    assert response.status_code == status
    assert versions() == [(COMMON, 1, saved.rows)]


def test_the_pages_read_in_a_constant_number_of_queries(
    client, campaign, organiser, saved, warband, django_assert_num_queries
):
    """Session, user, membership, then the overview's warbands and newest sets; the kind page's versions."""
    client.force_login(organiser)
    for more in (1, 4):
        for count in range(more):
            campaign_data_save(
                campaign=campaign, kind=COMMON, rows=demo_rows(COMMON)[: 1 + count % 4], by=organiser
            )
        with django_assert_num_queries(5):
            assert client.get(url(campaign)).status_code == 200
        with django_assert_num_queries(4):
            assert client.get(url(campaign, COMMON)).status_code == 200


def test_the_settings_page_says_how_to_enter_the_groups_own_data(client, campaign, organiser):
    client.force_login(organiser)
    html = client.get(f"/campaigns/{campaign.pk}/settings/").content.decode()
    assert "ships no official names" in html
    assert f'href="/campaigns/{campaign.pk}/data/"' in html


def test_the_columns_read_in_the_rules_words(client, campaign, organiser):
    from combat.services.campaign_data import campaign_data_copy_demo

    campaign_data_copy_demo(campaign=campaign, by=organiser, kinds=["fighter_types"])
    client.force_login(organiser)
    html = client.get(url(campaign, "fighter_types")).content.decode()
    assert "<th>Name</th><th>Never promoted</th><th>Limited Potential</th>" in html
    assert '<td data-label="Never promoted">yes</td>' in html


@pytest.mark.parametrize(
    "posted",
    [
        {"text": "[" * 5_000 + "]" * 5_000, "format": "json"},
        {"file": ("deep.json", b"[" * 5_000 + b"]" * 5_000), "format": "auto"},
    ],
    ids=["pasted", "uploaded"],
)
def test_a_deeply_nested_json_import_is_refused_beside_the_field_with_nothing_saved(
    client, campaign, organiser, saved, posted
):
    """Five thousand nested lists would overflow Python's parser: the depth is refused before the parse."""
    client.force_login(organiser)
    if "file" in posted:
        name, content = posted["file"]
        posted = {**posted, "file": SimpleUploadedFile(name, content, content_type="application/json")}
    response = client.post(url(campaign, COMMON), {"action": "import", **posted})
    assert response.status_code == 422
    assert "The file nests too deeply to be campaign data" in response.content.decode()
    assert versions() == [(COMMON, 1, saved.rows)]
