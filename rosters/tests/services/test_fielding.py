"""rosters/services/fielding.py: the fighters fielded for a battle, checked against its limits (RULING C-1)."""

import datetime

import pytest

from campaigns.models import GamePlayer
from rosters.services import fielding
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services import warbands as warband_services
from rosters.services.errors import RosterRefused
from rosters.services.games import GameEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry(campaign, player, rival_warband):
    band = warband_services.warband_create(campaign=campaign, owner=player, by=player, name="Grey Wardens")
    game = game_services.game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2026, 3, 1),
        entries=[GameEntry(band, "win"), GameEntry(rival_warband, "loss")],
    )
    return GamePlayer.objects.get(game=game, warband=band)


def test_fighters_within_the_limits_are_fielded(entry, player):
    odo = fighter_services.fighter_create(warband=entry.warband, by=player, name="Odo", cost=300)
    ada = fighter_services.fighter_create(warband=entry.warband, by=player, name="Ada", cost=400)
    fielding.game_field(player=entry, fighter_ids=[odo.pk, ada.pk], by=player)  # 700: battle 1's Threshold
    assert set(entry.fielded.values_list("name", flat=True)) == {"Odo", "Ada"}


def test_a_list_over_the_threshold_or_the_field_strength_is_refused_and_nothing_changes(entry, player):
    rich = fighter_services.fighter_create(warband=entry.warband, by=player, name="Rich", cost=701)
    horde = fighter_services.fighter_create(warband=entry.warband, by=player, name="Horde", unit_size=11)
    with pytest.raises(RosterRefused, match="worth 701 ducats: over the Threshold Value of 700 for battle 1"):
        fielding.game_field(player=entry, fighter_ids=[rich.pk], by=player)
    with pytest.raises(RosterRefused, match="11 models: over the Field Strength of 10 for battle 1"):
        fielding.game_field(player=entry, fighter_ids=[horde.pk], by=player)
    assert not entry.fielded.exists()


def test_a_fighter_of_another_warband_or_off_the_roster_is_refused(
    entry, player, rival_warband, make_fighter
):
    stranger = make_fighter(rival_warband, "Stranger")
    gone = fighter_services.fighter_create(warband=entry.warband, by=player, name="Gone")
    fighter_services.fighter_remove(fighter=gone, status="dead", by=player)
    for fighter in (stranger, gone):
        with pytest.raises(RosterRefused, match="active roster"):
            fielding.game_field(player=entry, fighter_ids=[fighter.pk], by=player)


def test_the_game_page_fields_and_refuses_with_422(client, entry, player, player2):
    rich = fighter_services.fighter_create(warband=entry.warband, by=player, name="Rich", cost=701)
    odo = fighter_services.fighter_create(warband=entry.warband, by=player, name="Odo", cost=60)
    client.force_login(player)
    url = f"/games/{entry.game_id}/fielded/{entry.warband_id}/"
    response = client.post(url, {"fielded": [rich.pk]})
    assert response.status_code == 422
    assert "over the Threshold Value of 700 for battle 1" in response.content.decode()
    assert client.post(url, {"fielded": [odo.pk]}).status_code == 302
    assert "Odo" in client.get(f"/games/{entry.game_id}/").content.decode()
    client.force_login(player2)
    assert client.post(url, {"fielded": []}).status_code == 403
    assert list(entry.fielded.values_list("name", flat=True)) == ["Odo"]
