"""Two tabs spending the same Glory at once, each in its own thread and database
connection (`transaction=True`): the warband's row is locked before the Glory is read
(combat/services/post_game/glory.py), so the second sees what the first planned and never overspends."""

import pytest

from combat.models import PostGameGlory
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.tests.money_helpers import glory_opening_entry, glory_sum, spend
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import fresh_player
from combat.tests.services.post_game.test_concurrency import at_once
from rosters.models import Warband

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(campaign, warband, rival_warband, fighters):
    glory_opening_entry(warband, 10)
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def test_two_spends_the_glory_cannot_both_pay_one_is_refused(played, warband, player):
    results = at_once(
        lambda: spend(played, player, "item", "Relic A", 6),
        lambda: spend(played, player, "item", "Relic B", 6),
    )
    refused = [result for result in results if isinstance(result, PostGameError)]
    assert len(refused) == 1
    assert "it cannot pay 6" in str(refused[0])
    assert PostGameGlory.objects.count() == 1
    post_game_apply(player=fresh_player(played), by=player)
    warband.refresh_from_db()
    assert warband.glory == 4 == glory_sum(warband)
    assert Warband.objects.filter(glory__lt=0).count() == 0


def test_two_spends_both_planned_when_the_glory_pays_both(played, warband, player):
    results = at_once(
        lambda: spend(played, player, "item", "Relic A", 4),
        lambda: spend(played, player, "benefit", "Pilgrimage", 6, benefit="a pilgrimage"),
    )
    assert all(isinstance(result, PostGameGlory) for result in results)
    post_game_apply(player=fresh_player(played), by=player)
    warband.refresh_from_db()
    assert warband.glory == 0 == glory_sum(warband)
