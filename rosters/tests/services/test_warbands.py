"""Warband writes: founding, editing and adjusting a warband, each with the history it leaves."""

import pytest
from django.core.exceptions import ValidationError

from campaigns.tests.history import last_context
from rosters.models import Warband
from rosters.services import warbands as warband_services
from rosters.services.errors import RosterRefused

pytestmark = pytest.mark.django_db


def test_it_creates_a_warband(campaign, player):
    warband = warband_services.warband_create(
        campaign=campaign,
        owner=player,
        name=" Iron Sepulchre ",
        faction="Trench Pilgrims",
        strongbox=700,
        by=player,
    )
    assert (warband.name, warband.strongbox, warband.owner) == ("Iron Sepulchre", 700, player)
    context = last_context(warband, "insert")
    assert context["action"] == "warband.create"
    assert context["warband"] == warband.pk
    assert context["campaign"] == campaign.pk
    assert context["user"] == player.pk


@pytest.mark.parametrize(
    "fields",
    [
        {"name": ""},
        {"name": "Ok", "strongbox": -1},
        {"name": "Ok", "glory": -2},
        {"name": "Ok", "crew_xp": -1},
    ],
)
def test_it_refuses_a_bad_warband(campaign, player, fields):
    with pytest.raises(ValidationError):
        warband_services.warband_create(campaign=campaign, owner=player, by=player, **fields)
    assert Warband.objects.count() == 0


def test_it_updates_a_warband(warband, player):
    warband_services.warband_update(
        warband=warband, by=player, changes={"strongbox": 75, "notes": "Kept the relic"}
    )
    warband.refresh_from_db()
    assert (warband.strongbox, warband.notes) == (75, "Kept the relic")
    context = last_context(warband, "update")
    assert context["action"] == "warband.update"
    assert "strongbox, notes" in context["reason"]


def test_it_refuses_a_negative_strongbox_and_changes_nothing(warband, player):
    with pytest.raises(ValidationError):
        warband_services.warband_update(
            warband=warband, by=player, changes={"strongbox": -5, "name": "Other"}
        )
    warband.refresh_from_db()
    assert (warband.strongbox, warband.name) == (50, "Iron Sepulchre")


def test_it_refuses_an_unknown_field(warband, player):
    with pytest.raises(TypeError):
        warband_services.warband_update(warband=warband, by=player, changes={"owner": None})


def test_it_adjusts_the_strongbox_with_the_game_in_the_history(warband, rival_warband, player):
    from rosters.services.games import GameEntry, game_record

    game = game_record(
        campaign=warband.campaign,
        by=player,
        played_on="2025-03-01",
        entries=[GameEntry(warband=warband, result="win"), GameEntry(warband=rival_warband, result="loss")],
    )
    warband_services.warband_adjust(
        warband=warband, strongbox=-20, by=player, reason="Ransom paid", game=game, step="trauma"
    )
    warband.refresh_from_db()
    assert warband.strongbox == 30
    context = last_context(warband, "update")
    assert (context["reason"], context["game"], context["step"]) == ("Ransom paid", game.pk, "trauma")

    with pytest.raises(ValidationError, match="cannot go below 0"):
        warband_services.warband_adjust(warband=warband, strongbox=-31, by=player, reason="Too much")
    warband.refresh_from_db()
    assert warband.strongbox == 30


def test_a_disbanded_warband_is_marked_and_stays(warband, player):
    warband_services.warband_disband(warband=warband, by=player)
    warband.refresh_from_db()
    assert warband.disbanded_at is not None
    with pytest.raises(RosterRefused, match="disbanded already"):
        warband_services.warband_disband(warband=warband, by=player)


def test_a_warband_in_a_game_being_played_cannot_be_disbanded(warband, rival_warband, player):
    import datetime

    from rosters.services import games as game_services

    game_services.game_start(
        campaign=warband.campaign,
        by=player,
        played_on=datetime.date(2026, 3, 1),
        warbands=[warband, rival_warband],
    )
    with pytest.raises(RosterRefused, match="disband it at the end of the game"):
        warband_services.warband_disband(warband=warband, by=player)
    warband.refresh_from_db()
    assert warband.disbanded_at is None


def test_the_history_tells_a_disbanding(warband, player):
    from rosters.tests.history.helpers import sentences

    warband_services.warband_disband(warband=warband, by=player)
    assert any("Iron Sepulchre was disbanded" in s for s in sentences(warband.campaign)), sentences(
        warband.campaign
    )
