"""The Hire & Trade step in the history: what the game changed tells Battlekit sold as sold, not lost."""

import pytest
from django.urls import reverse

from combat.services.post_game.apply import post_game_apply
from combat.tests.money_helpers import opening_entry, sell
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import fresh_player
from rosters.history.game_changes import ItemMove, game_changes
from rosters.models import Item

pytestmark = pytest.mark.django_db(transaction=True)  # each write its own moment, as on the site


@pytest.fixture
def traded(campaign, warband, rival_warband, make_fighter, player):
    opening_entry(warband)
    ada = make_fighter(warband, "Sister Ada", elite=True)
    shield = Item.objects.create(warband=warband, fighter=ada, name="Shield", cost=15)
    Item.objects.create(warband=warband, fighter=ada, name="Trench Club")
    played = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    sell(played, player, shield)
    post_game_apply(player=fresh_player(played), by=player)
    return played


def test_battlekit_sold_in_the_trade_step_is_told_as_sold(traded, warband):
    changes = game_changes(warband=warband, game=traded.game)

    assert changes.battlekit == [ItemMove("Shield", "Sister Ada", "", sold=True)]


def test_the_as_of_page_says_sold_where_it_said_lost(client, traded, warband, player):
    client.force_login(player)

    html = client.get(reverse("warband_as_of", args=[warband.pk, traded.game.pk])).content.decode()

    assert "Shield: Sister Ada → sold" in html
    assert "→ lost" not in html
