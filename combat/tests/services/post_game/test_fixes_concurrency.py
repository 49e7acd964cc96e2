"""Races of the corrections, each call in its own thread and transaction (see test_concurrency.py): two corrections of
the same roll, one wins and the other is told who changed it; a correction racing the Apply, no double-apply and
no lost roll."""

import pytest

from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.fixes import Fix, post_game_correct_roll
from combat.tests.services.post_game.fix_helpers import comparable, dice_of, type_script, typed_right
from combat.tests.services.post_game.test_concurrency import at_once
from rosters.models import Fighter, Injury

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def typed(after, fighters, player):
    script = [(fighters["troop"], (3,)), (fighters["marcus"], (1, 4)), (fighters["ada"], (2, 4))]
    type_script(after, script, by=player)
    return after


def _correct(after, roll_id, faces, by):
    return lambda: post_game_correct_roll(
        player=after.player, roll_id=roll_id, faces=faces, reason=f"typo ({by.username})", by=by
    )


def test_two_corrections_of_the_same_roll_one_wins_the_other_is_told_who(typed, fighters, player, organiser):
    old = dice_of(fighters["marcus"], "trauma")

    results = at_once(_correct(typed, old.pk, [1, 1], player), _correct(typed, old.pk, [6, 6], organiser))

    fixes = [result for result in results if isinstance(result, Fix)]
    refused = [result for result in results if isinstance(result, PostGameError)]
    assert len(fixes) == 1, results
    assert len(refused) == 1, results
    winner = fixes[0].new.rolled_by.username
    assert f"corrected by {winner} at" in str(refused[0])
    old.refresh_from_db()
    assert old.status == DiceRoll.Status.CORRECTED
    assert DiceRoll.objects.filter(replaces__isnull=False).count() == 1
    assert dice_of(fighters["marcus"], "trauma") == fixes[0].new


def test_a_correction_racing_the_apply_applies_once_with_the_right_die(
    typed, fighters, player, organiser, warband, rival_warband
):
    old = dice_of(fighters["marcus"], "trauma")
    results = at_once(
        _correct(typed, old.pk, [1, 1], player), lambda: post_game_apply(player=typed.player, by=organiser)
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    assert PostGame.objects.filter(player=typed.player, status=PostGame.Status.APPLIED).count() == 1
    marcus = Fighter.objects.get(pk=fighters["marcus"].pk)
    assert marcus.status == "dead"  # D66 11, whichever ran first
    assert Injury.objects.filter(fighter=marcus).count() == 0
    assert DiceRoll.objects.count() == 4  # three rolls and the correction: none lost, none twice
    assert Fighter.objects.get(pk=fighters["ada"].pk).battle_scars == 3
    assert comparable(warband, rival_warband)["fighters"][marcus.pk]["status"] == "dead"


def test_typed_right_helper_is_usable_in_real_transactions(after, fighters, player, warband, rival_warband):
    script = [(fighters["troop"], (3,)), (fighters["marcus"], (1, 1)), (fighters["ada"], (2, 4))]
    expected = typed_right(after, script, by=player, warbands=[warband, rival_warband])
    assert expected["fighters"][fighters["marcus"].pk]["status"] == "dead"
    assert not DiceRoll.objects.exists()  # rolled back


def test_a_void_racing_the_apply_applies_once_with_the_replacement(after, fighters, player, organiser):
    from combat.services.post_game.fixes import post_game_void_roll
    from combat.tests.post_game_helpers import roll

    made = roll(after, fighters["troop"], by=player).roll.dice_roll
    type_script(after, [(fighters["marcus"], (4, 4)), (fighters["ada"], (4, 4))], by=player)

    results = at_once(
        lambda: post_game_void_roll(
            player=after.player, roll_id=made.pk, reason="off the table", by=organiser, faces=[1]
        ),
        lambda: post_game_apply(player=after.player, by=player),
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    assert PostGame.objects.filter(player=after.player, status=PostGame.Status.APPLIED).count() == 1
    assert Fighter.objects.get(pk=fighters["troop"].pk).status == "dead"
    made.refresh_from_db()
    assert made.status == DiceRoll.Status.VOIDED
    assert DiceRoll.objects.count() == 4
