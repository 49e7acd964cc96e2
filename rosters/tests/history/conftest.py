"""Fixtures for the history tests: first names for the people, Brother Marcus, and Game 3."""

import datetime as dt

import pghistory
import pytest

from campaigns.models import Game, GamePlayer
from rosters.services.fighters import fighter_create


@pytest.fixture(autouse=True)
def first_names(organiser, player, player2):
    for user, name in ((organiser, "Olga"), (player, "Pat"), (player2, "Bob")):
        user.first_name = name
        user.save()


@pytest.fixture
def marcus(warband, player):
    return fighter_create(
        warband=warband, by=player, name="Brother Marcus", elite=True, fighter_type="Trench Pilgrim", xp=5
    )


@pytest.fixture
def game3(campaign, warband, rival_warband, organiser):
    """Game 3 of the campaign, recorded directly (games 1 and 2 are not needed for its number)."""
    with pghistory.context(action="game.record", user=organiser.pk):
        game = Game.objects.create(
            campaign=campaign, number=3, played_on=dt.date(2026, 5, 12), created_by=organiser
        )
        GamePlayer.objects.create(game=game, warband=warband, result="loss")
        GamePlayer.objects.create(game=game, warband=rival_warband, result="win")
    return game
