"""Two tabs rolling the same game's scenario at once, in real threads with their own connections: the game's row is
locked for the roll (combat/services/scenario.py), so it is rolled once and the second tab is given that roll."""

import threading

import pytest
from django.db import connections

from combat.models import DiceRoll, GameScenario
from combat.services.scenario import game_scenario_roll
from combat.tests.scenario_helpers import make_game, save_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_rolls_at_once_roll_once(campaign, organiser, player, player2, warband, rival_warband):
    save_table(campaign, organiser)
    game = make_game(campaign, warband, rival_warband)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def roll(by, face):
        try:
            barrier.wait(timeout=10)
            results.append(game_scenario_roll(game=game, by=by, face=face))
        except Exception as error:  # reported in the test thread below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=roll, args=args) for args in ((player, 2), (player2, 3))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not errors, errors
    assert sorted(rolled for _roll, rolled in results) == [False, True]
    assert GameScenario.objects.count() == 1
    assert DiceRoll.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert {roll.scenario for roll, _rolled in results} == {game.scenario}
