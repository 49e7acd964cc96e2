"""The export format: named, versioned, the whole roster, and valid by its own rules."""

import json

import pytest

from rosters import portability

pytestmark = pytest.mark.django_db


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


def test_the_export_says_which_game_the_warband_was_built_for(full_warband):
    assert portability.export_warband(full_warband)["source"]["preset"] == "trench_crusade"


def test_a_file_of_another_game_than_the_campaigns_is_refused(full_warband, other_campaign):
    raw = portability.export_json(full_warband).encode()
    assert portability.parse_warband_file(raw, campaign=other_campaign)["name"] == full_warband.name
    other_campaign.preset = "fallout_factions"
    with pytest.raises(
        portability.ImportRefused, match="This file is a Trench Crusade warband; The Second Front"
    ):
        portability.parse_warband_file(raw, campaign=other_campaign)
