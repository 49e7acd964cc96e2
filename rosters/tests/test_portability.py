"""Warband export and import: the round trip recreates the warband exactly; a malformed or hostile file is refused
with a message and creates nothing."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import Campaign, Membership
from rosters import portability
from rosters.models import Fighter, Injury, Item, Warband
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import injuries as injury_services
from rosters.services import portability as import_services
from rosters.services import warbands as warband_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_warband(warband, player):
    """A roster with every kind of row and value: ELITE and Troop, a unit, no Harm Limit, Injuries with and
    without a D66, Battlekit held and in the Arsenal, a fighter off the roster, notes with line breaks."""
    warband_services.warband_update(
        warband=warband,
        by=player,
        changes={"glory": 3, "crew_xp": 2, "notes": "Kept the relic.\nMarched north."},
    )
    marcus = fighter_services.fighter_create(
        warband=warband,
        by=player,
        name="Brother Marcus",
        elite=True,
        fighter_type="Trench Pilgrim",
        keywords=["ELITE", "PILGRIM"],
        strength=6,
        luck=3,
        health=2,
        harm_limit=None,
        movement=5,
        xp=7,
        battle_scars=1,
    )
    injury_services.injury_add(
        fighter=marcus, by=player, code="14", name="Hand Wound", effect="-1 to hit.", d66=14
    )
    injury_services.injury_add(fighter=marcus, by=player, code="house", name="Twisted Ankle")
    battlekit_services.item_create(
        warband=warband, fighter=marcus, name="Lance", keywords=["HEAVY"], by=player
    )
    battlekit_services.item_create(
        warband=warband, fighter=marcus, name="Reliquary", notes="Bound to him", removable=False, by=player
    )
    pilgrims = fighter_services.fighter_create(
        warband=warband, by=player, name="Pilgrim Band", unit_size=5, champion=False
    )
    fighter_services.fighter_adjust_xp(fighter=pilgrims, delta=1, by=player)
    fallen = fighter_services.fighter_create(
        warband=warband, by=player, name="Sister Ama", misses_next_game=True
    )
    fighter_services.fighter_remove(fighter=fallen, status="dead", by=player, battlekit="lost")
    battlekit_services.item_create(
        warband=warband, fighter=None, name="Holy Relic", notes="From Game 2", by=player
    )
    warband.refresh_from_db()
    return warband


@pytest.fixture
def other_campaign(organiser, player2):
    campaign = Campaign.objects.create(name="The Second Front", created_by=organiser)
    Membership.objects.create(campaign=campaign, user=organiser, role="organiser")
    Membership.objects.create(campaign=campaign, user=player2, role="player")
    return campaign


def counts() -> tuple[int, int, int, int]:
    return Warband.objects.count(), Fighter.objects.count(), Injury.objects.count(), Item.objects.count()


def test_the_export_names_its_format_and_version_and_holds_the_whole_roster(full_warband):
    data = portability.export_warband(full_warband)
    assert data["format"] == "warband-ledger/warband"
    assert data["version"] == 1
    roster = data["warband"]
    assert roster["strongbox"] == 50
    assert roster["notes"] == "Kept the relic.\nMarched north."
    assert [f["name"] for f in roster["fighters"]] == ["Brother Marcus", "Pilgrim Band", "Sister Ama"]
    marcus = roster["fighters"][0]
    assert marcus["harm_limit"] is None
    assert marcus["keywords"] == ["ELITE", "PILGRIM"]
    assert [i["name"] for i in marcus["injuries"]] == ["Hand Wound", "Twisted Ankle"]
    assert [i["name"] for i in marcus["battlekit"]] == ["Lance", "Reliquary"]
    assert marcus["battlekit"][1]["removable"] is False
    assert roster["fighters"][2]["status"] == "dead"
    assert [i["name"] for i in roster["arsenal"]] == ["Holy Relic"]
    # The export is valid by its own rules.
    assert portability.parse_warband_file(json.dumps(data).encode()) == roster


def test_import_recreates_the_warband_exactly_for_its_new_owner(full_warband, other_campaign, player2):
    exported = portability.export_warband(full_warband)
    data = portability.parse_warband_file(json.dumps(exported).encode())
    copy_ = import_services.warband_import(campaign=other_campaign, owner=player2, by=player2, data=data)
    assert copy_.campaign == other_campaign
    assert copy_.owner == player2
    assert copy_.pk != full_warband.pk
    assert portability.export_warband(copy_)["warband"] == exported["warband"]
    # The original is untouched.
    assert portability.export_warband(full_warband)["warband"] == exported["warband"]


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


def test_the_import_is_in_the_history_with_who_did_it(full_warband, other_campaign, player2):
    from rosters.history import history_page

    data = portability.export_warband(full_warband)["warband"]
    import_services.warband_import(campaign=other_campaign, owner=player2, by=player2, data=data)
    page = history_page(campaign=other_campaign)
    texts = [c.sentence for e in page.entries for c in e.changes]
    assert any(t.startswith("quinn_player imported the warband Iron Sepulchre") for t in texts)


def test_a_row_the_database_refuses_rolls_the_whole_import_back(full_warband, other_campaign, player2):
    data = copy.deepcopy(portability.export_warband(full_warband)["warband"])
    data["fighters"][2]["strength"] = 11  # past the validator: the model's own check refuses it
    before = counts()
    with pytest.raises(ValidationError):
        import_services.warband_import(campaign=other_campaign, owner=player2, by=player2, data=data)
    assert counts() == before


# -- refused files ----------------------------------------------------------------------------------------------


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
    response = client.post(reverse("warband_import", args=[campaign.pk]), {"file": upload})
    assert response.status_code == 302
    assert Warband.objects.filter(campaign=campaign, owner=user).exclude(pk=full_warband.pk).count() == 1
