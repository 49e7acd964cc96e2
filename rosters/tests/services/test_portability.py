"""The import's writes: a checked file recreates the warband exactly, in the history, all of it or nothing."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError

from rosters import portability
from rosters.services import portability as import_services
from rosters.tests.conftest import counts

pytestmark = pytest.mark.django_db


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


def test_the_import_is_in_the_history_with_who_did_it(full_warband, other_campaign, player2):
    from rosters.history.feed import history_page

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


def test_a_trench_crusade_profile_travels_in_the_file(full_warband, other_campaign, player2):
    marcus = full_warband.fighters.get(name="Brother Marcus")
    marcus.ranged, marcus.melee, marcus.armour, marcus.base_size = 1, -1, -2, 40
    marcus.save()
    data = portability.parse_warband_file(portability.export_json(full_warband).encode())
    copy_ = import_services.warband_import(campaign=other_campaign, owner=player2, by=player2, data=data)
    again = copy_.fighters.get(name="Brother Marcus")
    assert (again.ranged, again.melee, again.armour, again.base_size) == (1, -1, -2, 40)
    assert (again.strength, again.endurance, again.harm_limit) == (marcus.strength, marcus.endurance, None)


def test_an_export_from_before_the_trench_crusade_profile_still_imports(
    full_warband, other_campaign, player2
):
    """Files written before Ranged, Melee, Armour and the base lack them; they read as the defaults."""
    file = portability.export_warband(full_warband)
    for fighter in file["warband"]["fighters"]:
        for key in ("ranged", "melee", "armour", "base_size"):
            del fighter[key]
    data = portability.parse_warband_file(json.dumps(file).encode())
    copy_ = import_services.warband_import(campaign=other_campaign, owner=player2, by=player2, data=data)
    marcus = copy_.fighters.get(name="Brother Marcus")
    assert (marcus.ranged, marcus.melee, marcus.armour, marcus.base_size) == (0, 0, 0, 25)
