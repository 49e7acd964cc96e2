"""Warband export and import through the pages: the round trip recreates the warband exactly; a malformed or
hostile file is refused with a message and creates nothing; who may export and import."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rosters import portability
from rosters.models import Warband
from rosters.tests.conftest import counts

pytestmark = pytest.mark.django_db


def test_the_round_trip_through_the_pages(client, full_warband, other_campaign, player, player2):
    client.force_login(player)
    response = client.get(reverse("warband_export", args=[full_warband.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="iron-sepulchre.warband.json"'
    body = response.content
    client.force_login(player2)
    upload = SimpleUploadedFile("iron.json", body, content_type="application/json")
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {"file": upload})
    assert response.status_code == 302
    imported = Warband.objects.filter(campaign=other_campaign).get()
    assert response["Location"] == reverse("warband_detail", args=[imported.pk])
    assert imported.owner == player2
    assert portability.export_warband(imported)["warband"] == json.loads(body)["warband"]


def _good(full_warband) -> dict:
    return copy.deepcopy(portability.export_warband(full_warband))


def _set(path: str, value):
    def change(data):
        target = data
        keys = path.split(".")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if value is _DELETE:
            del target[last]
        else:
            target[last] = value
        return data

    return change


_DELETE = object()


BAD_FILES = {
    "wrong version": (_set("version", 2), "imports version 1"),
    "version as text": (_set("version", "1"), "imports version 1"),
    "no version": (_set("version", _DELETE), "imports version 1"),
    "wrong format": (_set("format", "someone-else/roster"), "not a warband export"),
    "missing fighter field": (_set("warband.fighters.0.xp", _DELETE), "missing xp"),
    "missing warband": (_set("warband", _DELETE), "missing warband"),
    "unknown field": (_set("warband.fighters.0.is_admin", True), "does not know: is_admin"),
    "xp as text": (_set("warband.fighters.0.xp", "7"), "xp must be a whole number"),
    "xp as a fraction": (_set("warband.fighters.0.xp", 7.5), "xp must be a whole number"),
    "xp as true": (_set("warband.fighters.0.xp", True), "xp must be a whole number"),
    "negative strongbox": (_set("warband.strongbox", -5), "strongbox must be from 0"),
    "stat out of range": (_set("warband.fighters.0.strength", 11), "strength must be from 1 to 10"),
    "flag as number": (_set("warband.fighters.0.champion", 1), "champion must be true or false"),
    "keywords as text": (_set("warband.fighters.0.keywords", "ELITE"), "must be a list of keywords"),
    "unknown status": (_set("warband.fighters.0.status", "immortal"), "status must be one of"),
    "name too long": (_set("warband.fighters.0.name", "M" * 101), "longer than 100 characters"),
    "empty name": (_set("warband.name", "   "), "name must not be empty"),
    "control characters": (_set("warband.name", "Iron\x00Sepulchre"), "control characters"),
    "not a D66": (_set("warband.fighters.0.injuries.0.d66", 17), "not a D66 roll"),
    "fighters not a list": (_set("warband.fighters", {"a": 1}), "fighters must be a list"),
    "too many fighters": (
        lambda data: {
            **data,
            "warband": {**data["warband"], "fighters": data["warband"]["fighters"][:1] * 101},
        },
        "at most 100 can be imported",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_is_refused_with_a_message_and_nothing_is_created(
    client, case, full_warband, other_campaign, player2
):
    change, message = BAD_FILES[case]
    data = change(_good(full_warband))
    before = counts()
    client.force_login(player2)
    upload = SimpleUploadedFile("bad.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {"file": upload})
    assert response.status_code == 400
    assert message in response.content.decode(), response.content.decode()[-2000:]
    assert counts() == before


RAW_FILES = {
    "not JSON": (b"<warband>Iron Sepulchre</warband>", "not valid JSON"),
    "not UTF-8": (b"\xff\xfe\x00{", "not text (UTF-8)"),
    "empty": (b"   ", "The file is empty"),
    "a list": (b"[1, 2, 3]", "should be a JSON object"),
    "NaN": (b'{"format": "warband-ledger/warband", "version": NaN}', "not valid JSON"),
    "duplicate keys": (b'{"version": 1, "version": 1}', "repeats a key"),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
    "long number": (b'{"version": ' + b"9" * 5000 + b"}", "not valid JSON"),
}


@pytest.mark.parametrize("case", sorted(RAW_FILES))
def test_a_file_that_is_not_json_of_ours_is_refused(client, case, other_campaign, player2):
    raw, message = RAW_FILES[case]
    before = counts()
    client.force_login(player2)
    upload = SimpleUploadedFile("bad.json", raw, content_type="application/json")
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {"file": upload})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert counts() == before


def test_ten_megabytes_of_junk_are_refused_unread(client, other_campaign, player2):
    before = counts()
    client.force_login(player2)
    junk = SimpleUploadedFile("junk.json", b"\x89junk" * (2 * 1024 * 1024), content_type="application/json")
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {"file": junk})
    assert response.status_code == 400
    assert "larger than 1 MB" in response.content.decode()
    assert counts() == before


def test_no_file_at_all(client, other_campaign, player2):
    client.force_login(player2)
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {})
    assert response.status_code == 400
    assert counts()[0] == 0


def test_a_fallout_campaign_asks_for_a_crew_file(client, other_campaign, player2):
    other_campaign.preset = "fallout_factions"
    other_campaign.save()
    client.force_login(player2)
    html = client.get(reverse("warband_import", args=[other_campaign.pk])).content.decode()
    assert "Crew file" in html
    assert "Warband file" not in html


def test_names_with_script_tags_are_imported_as_text_and_rendered_inert(
    client, full_warband, other_campaign, player2
):
    data = _good(full_warband)
    data["warband"]["name"] = "<script>alert('band')</script>"
    data["warband"]["fighters"][0]["name"] = '<img src=x onerror="alert(1)">'
    data["warband"]["fighters"][0]["injuries"][0]["name"] = "<script>alert('wound')</script>"
    client.force_login(player2)
    upload = SimpleUploadedFile("evil.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {"file": upload})
    assert response.status_code == 302
    imported = Warband.objects.get(campaign=other_campaign)
    assert imported.name == "<script>alert('band')</script>"
    pages = [
        reverse("warband_detail", args=[imported.pk]),
        reverse("warband_history", args=[imported.pk]),
        reverse("campaign_history", args=[other_campaign.pk]),
        reverse("campaign_detail", args=[other_campaign.pk]),
        reverse("fighter_history", args=[imported.fighters.order_by("id").first().pk]),
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert "<script>alert(" not in html, url
        assert '<img src=x onerror="alert(1)">' not in html, url
    html = client.get(reverse("warband_history", args=[imported.pk])).content.decode()
    assert "&lt;script&gt;alert(" in html


# -- who may --------------------------------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(client, full_warband, other_campaign):
    for url in (
        reverse("warband_export", args=[full_warband.pk]),
        reverse("warband_import", args=[other_campaign.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_outsiders_get_404(client, outsider, full_warband, other_campaign):
    client.force_login(outsider)
    assert client.get(reverse("warband_export", args=[full_warband.pk])).status_code == 404
    assert client.get(reverse("warband_import", args=[other_campaign.pk])).status_code == 404


@pytest.mark.parametrize("who", ["organiser", "player", "player2", "spectator"])
def test_every_member_may_export_any_roster_they_can_read(request, client, who, full_warband):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("warband_export", args=[full_warband.pk])).status_code == 200


def test_spectators_cannot_import(client, spectator, campaign, full_warband):
    client.force_login(spectator)
    url = reverse("warband_import", args=[campaign.pk])
    assert client.get(url).status_code == 403
    upload = SimpleUploadedFile("iron.json", portability.export_json(full_warband).encode())
    before = counts()
    assert client.post(url, {"file": upload}).status_code == 403
    assert counts() == before


@pytest.mark.parametrize("who", ["organiser", "player"])
def test_players_and_organisers_import_and_keep_it(request, client, who, campaign, full_warband):
    user = request.getfixturevalue(who)
    client.force_login(user)
    upload = SimpleUploadedFile("iron.json", portability.export_json(full_warband).encode())
    # Into the warband's own campaign, so under a name of its own (the file's is taken there).
    data = {"file": upload, "name": "Iron Sepulchre, again"}
    response = client.post(reverse("warband_import", args=[campaign.pk]), data)
    assert response.status_code == 302
    assert Warband.objects.filter(campaign=campaign, owner=user).exclude(pk=full_warband.pk).count() == 1


def _export(client, player, warband) -> bytes:
    client.force_login(player)
    return client.get(reverse("warband_export", args=[warband.pk])).content


def test_a_warband_imported_into_its_own_campaign_is_refused_under_the_same_name(
    client, full_warband, player
):
    body = _export(client, player, full_warband)
    before = counts()
    upload = SimpleUploadedFile("iron.json", body, content_type="application/json")

    response = client.post(reverse("warband_import", args=[full_warband.campaign_id]), {"file": upload})

    assert response.status_code == 400
    html = response.content.decode()
    name_field = html[html.index('id="id_name"') :]
    assert "Iron Sepulchre is in" in name_field[: name_field.index("</p>")]  # beside the name field
    assert "give the imported warband another name" in html
    assert counts() == before


def test_a_name_taken_in_another_case_is_refused_too(client, full_warband, player):
    body = _export(client, player, full_warband)
    upload = SimpleUploadedFile("iron.json", body, content_type="application/json")
    response = client.post(
        reverse("warband_import", args=[full_warband.campaign_id]),
        {"file": upload, "name": " IRON sepulchre "},
    )
    assert response.status_code == 400
    assert Warband.objects.filter(campaign=full_warband.campaign_id).count() == 1


def test_a_warband_imported_into_its_own_campaign_under_a_new_name(client, full_warband, player):
    body = _export(client, player, full_warband)
    upload = SimpleUploadedFile("iron.json", body, content_type="application/json")

    response = client.post(
        reverse("warband_import", args=[full_warband.campaign_id]),
        {"file": upload, "name": "Iron Sepulchre II"},
    )

    assert response.status_code == 302
    copy_ = Warband.objects.get(campaign=full_warband.campaign_id, name="Iron Sepulchre II")
    exported = portability.export_warband(copy_)["warband"]
    assert {**exported, "name": "Iron Sepulchre"} == json.loads(body)["warband"]


def _upload(data: dict) -> SimpleUploadedFile:
    return SimpleUploadedFile("band.json", json.dumps(data).encode(), content_type="application/json")


def test_a_trench_crusade_warband_is_refused_by_a_fallout_factions_campaign(
    client, full_warband, other_campaign, player2
):
    """Ducats are not caps nor ELITE fighters Champions: the file says which game it was built for, and a
    campaign of another game refuses it beside the file field, creating nothing."""
    other_campaign.preset = "fallout_factions"
    other_campaign.save(update_fields=["preset"])
    client.force_login(player2)
    before = counts()
    response = client.post(
        reverse("warband_import", args=[other_campaign.pk]), {"file": _upload(_good(full_warband))}
    )
    assert response.status_code == 400
    html = response.content.decode()
    message = (
        "This file is a Trench Crusade warband; The Second Front plays Fallout: Factions: its fighters, stats and "
        "ducats do not carry over. Import it into a Trench Crusade campaign, or build the crew anew in this one."
    )
    assert response.context["form"].errors["file"] == [message]  # beside the file field
    assert message.replace("'", "&#x27;") in html
    assert counts() == before


def test_a_file_of_a_game_no_one_knows_is_refused(client, full_warband, other_campaign, player2):
    data = _set("source.preset", "the_ninth_age")(_good(full_warband))
    client.force_login(player2)
    before = counts()
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {"file": _upload(data)})
    assert response.status_code == 400
    assert "a game this Warband Ledger does not know (&#x27;the_ninth_age&#x27;)" in response.content.decode()
    assert counts() == before


@pytest.mark.parametrize("source", [_DELETE, {"campaign": "Old"}, None])
def test_a_file_without_its_game_and_a_file_of_the_same_game_still_import(
    client, full_warband, other_campaign, player2, source
):
    data = _good(full_warband) if source is None else _set("source", source)(_good(full_warband))
    client.force_login(player2)
    response = client.post(reverse("warband_import", args=[other_campaign.pk]), {"file": _upload(data)})
    assert response.status_code == 302
    assert Warband.objects.filter(campaign=other_campaign).count() == 1
