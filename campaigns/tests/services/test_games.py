"""The campaign's game counter (campaigns/services/games.py): 1, 2, ... and never a number given twice."""

import datetime

import pytest

from campaigns.models import Game
from campaigns.services import games as services
from campaigns.tests.history import events_of

pytestmark = pytest.mark.django_db


def test_games_are_numbered_one_two_three(campaign):
    numbers = [services.campaign_next_game_number(campaign=campaign) for _ in range(3)]

    assert numbers == [1, 2, 3]
    campaign.refresh_from_db()
    assert campaign.last_game_number == 3


def test_a_deleted_games_number_is_not_given_again(campaign, organiser):
    number = services.campaign_next_game_number(campaign=campaign)
    game = Game.objects.create(campaign=campaign, number=number, played_on=datetime.date(2025, 1, 1))
    game.delete()

    assert services.campaign_next_game_number(campaign=campaign) == number + 1


def test_a_game_made_elsewhere_is_counted_too(campaign):
    Game.objects.create(campaign=campaign, number=7, played_on=datetime.date(2025, 1, 1))  # the admin, say

    assert services.campaign_next_game_number(campaign=campaign) == 8


def test_counting_is_bookkeeping_not_history(campaign):
    before = len(events_of(campaign))

    services.campaign_next_game_number(campaign=campaign)

    assert len(events_of(campaign)) == before
