"""Two requests at once on the same post-game, each in its own thread with its own database connection.

Real transactions (`transaction=True`), so the row locks of `combat.services` are what keeps them apart: of two
Applies exactly one writes the roster and the other is refused; of two identical rolls, one is made.
"""

import threading

import pytest
from django.db import connection

from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.rolls import post_game_roll
from combat.tests.post_game_helpers import enter, record_game, roster_snapshot
from rosters.models import Fighter, Injury, Item

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(*calls):
    """Run the calls in threads released together; return each one's result or the exception it raised."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - the refusal is what the test looks at
            results[index] = error
        finally:
            connection.close()  # each thread has its own connection: close it, or the test database stays busy

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck (a deadlock?)"
    return results


@pytest.fixture
def ready(campaign, warband, rival_warband, make_fighter, player):
    """A post-game with every roll made, waiting for its Apply."""
    troop = make_fighter(warband, "Yeoman Kell")
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, battle_scars=2)
    Item.objects.create(warband=warband, fighter=ada, name="Shield")
    Item.objects.create(warband=warband, fighter=troop, name="Rifle")
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[troop, marcus, ada]
    )
    enter(after, troop, 1, by=player)
    enter(after, marcus, 1, 4, by=player)
    enter(after, ada, 2, 6, by=player)
    after.fighters = {"troop": troop, "marcus": marcus, "ada": ada}
    return after


def test_two_applies_at_once_apply_once_and_refuse_the_other(ready, player, organiser, warband):
    results = at_once(
        lambda: post_game_apply(player=ready.player, by=player),
        lambda: post_game_apply(player=ready.player, by=organiser),
    )

    applied = [result for result in results if isinstance(result, PostGame)]
    refused = [result for result in results if isinstance(result, PostGameError)]
    assert len(applied) == 1, results
    assert len(refused) == 1, results
    assert "already applied" in str(refused[0])
    marcus = Fighter.objects.get(pk=ready.fighters["marcus"].pk)
    assert marcus.xp == 4  # +1 once, not twice
    assert marcus.battle_scars == 1
    assert Injury.objects.filter(fighter=marcus).count() == 1
    assert Item.objects.filter(warband=warband, fighter__isnull=True).count() == 1  # Ada's Shield, once
    assert PostGame.objects.filter(player=ready.player, status=PostGame.Status.APPLIED).count() == 1


def test_the_same_roll_from_two_tabs_at_once_is_made_once(
    campaign, warband, rival_warband, make_fighter, player
):
    troop = make_fighter(warband, "Yeoman Kell")
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[troop]
    )

    def roll():
        return post_game_roll(
            player=after.player, fighter_id=troop.pk, purpose="survival", sequence=1, by=player
        )

    results = at_once(roll, roll)

    assert not any(isinstance(result, Exception) for result in results), results
    assert sorted(result.created for result in results) == [False, True]
    assert results[0].roll.pk == results[1].roll.pk
    assert DiceRoll.objects.filter(fighter=troop).count() == 1
    assert PostGame.objects.filter(player=after.player).count() == 1


def test_a_revert_racing_an_apply_leaves_a_consistent_roster(ready, player, warband, rival_warband):
    """Whatever order they run in, the roster ends either applied or exactly as before, never half of each."""
    before = roster_snapshot(warband, rival_warband)
    from combat.services.post_game.revert import post_game_revert

    results = at_once(
        lambda: post_game_apply(player=ready.player, by=player),
        lambda: post_game_revert(player=ready.player, by=player),
    )

    assert isinstance(results[0], PostGame), results
    if isinstance(results[1], PostGameError):  # the revert came first: nothing to revert yet
        assert "not applied" in str(results[1])
        assert Fighter.objects.get(pk=ready.fighters["troop"].pk).status == "dead"
    else:  # the apply came first, then the revert undid it
        assert roster_snapshot(warband, rival_warband) == before
