"""Two tabs on the same Skill Advancement Roll at once, each in its own thread and database connection: the locks
of combat/services/post_game/advancement.py make one roll of each die, and give it back to the other tab."""

import pytest

from combat.models import DiceRoll
from combat.services.post_game.advancement import post_game_advancement_charts, post_game_advancement_roll
from combat.tests.advancement_helpers import advancement_game
from combat.tests.services.post_game.test_concurrency import at_once

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_tabs_rolling_the_same_die_roll_it_once(
    campaign, warband, rival_warband, organiser, player, make_fighter
):
    agnes = make_fighter(warband, "Sister Agnes", elite=True, xp=1)
    after = advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={},
    )
    common = {"player": after.player, "fighter_id": agnes.pk, "number": 1, "by": player}
    post_game_advancement_charts(first_chart="ranged", second_chart="wildcard", **common)

    first, second = at_once(
        lambda: post_game_advancement_roll(die=1, **common),
        lambda: post_game_advancement_roll(die=1, faces=[6, 6], **common),
    )

    assert not isinstance(first, Exception), first
    assert not isinstance(second, Exception), second
    assert sorted([first.created, second.created]) == [False, True]
    assert first.roll.pk == second.roll.pk
    assert DiceRoll.objects.filter(fighter=agnes).count() == 1
