"""The roster page lists the Locations the warband found by Exploration (RULING E-4): name, table, score, game; a
Location found since the page was last shown is there at once (the cached part's digest covers the table)."""

from datetime import date

import pytest
from django.urls import reverse

from campaigns.models import Game
from rosters.models import FoundLocation

pytestmark = pytest.mark.django_db


def test_the_roster_lists_the_found_locations_with_their_game(client, player, campaign, warband):
    client.force_login(player)
    url = reverse("warband_detail", args=[warband.pk])
    assert "Locations found" not in client.get(url).content.decode()
    game = Game.objects.create(campaign=campaign, number=3, played_on=date(2026, 11, 28))

    FoundLocation.objects.create(
        warband=warband, code="drowned_chapel", name="Drowned Chapel", table="rare", score=17, game=game
    )

    page = client.get(url).content.decode()
    assert "Locations found" in page
    assert "Drowned Chapel" in page
    assert ">Rare<" in page
    assert f'href="{reverse("game_detail", args=[game.pk])}">Game 3</a>' in page


def test_another_warband_s_locations_are_not_listed(client, player, warband, rival_warband):
    client.force_login(player)
    FoundLocation.objects.create(
        warband=rival_warband, code="bell", name="Bell of Ash", table="legendary", score=25
    )

    page = client.get(reverse("warband_detail", args=[warband.pk])).content.decode()

    assert "Bell of Ash" not in page
