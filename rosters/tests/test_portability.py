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
