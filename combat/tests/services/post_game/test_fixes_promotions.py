"""combat/services/post_game/fixes.py for Promotion Dice : a typed Promotion Die
corrected, the warband's chain read again from the stored faces (RULINGS P-3, P-4): a promotion that moves to a
later die, dice after the success set aside (undone, never deleted) and counted again when needed."""

import pytest

from campaigns.models import GamePlayer
from combat.models import DiceRoll, PostGameRoll
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.fixes import post_game_correct_roll
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import assign, fresh_player, promotion_die, step
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(campaign, warband, rival_warband, make_fighter):
    tom = make_fighter(warband, "Brother Tom")
    kell = make_fighter(warband, "Yeoman Kell")
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    GamePlayer.objects.filter(pk=after.player.pk).update(result=GamePlayer.Result.WIN)
    after.refresh()
    after.fighters = {"tom": tom, "kell": kell}
    return after


def die(sequence: int) -> DiceRoll:
    return (
        PostGameRoll.objects.select_related("dice_roll").get(purpose="promotion", sequence=sequence).dice_roll
    )


def correct(after, sequence, face, *, by):
    return post_game_correct_roll(
        player=fresh_player(after), roll_id=die(sequence).pk, faces=[face], reason="typo", by=by
    )


def test_a_success_corrected_into_a_failure_reopens_the_rolling(played, player):
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 6, by=player)

    fix = correct(played, 1, 2, by=player)

    assert fix.reopened
    assert fix.old.status == DiceRoll.Status.CORRECTED
    read = step(played)
    assert read.promoted is None
    assert read.dice[0].face == 2
    assert read.dice_left == 1  # Yeoman Kell's die is to roll now


def test_dice_after_a_corrected_success_are_set_aside_then_count_again(played, player):
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 2, by=player)
    promotion_die(played, kell, 6, by=player)
    kells_die = die(2)

    fix = correct(played, 1, 6, by=player)  # Brother Tom's die was a 6: the rolling ended there (RULING P-3)

    assert fix.set_aside == [kells_die.pk]
    kells_die.refresh_from_db()
    assert kells_die.status == DiceRoll.Status.UNDONE  # set aside, never deleted
    assert step(played).promoted.name == "Brother Tom"
    assert [d.sequence for d in step(played).dice] == [1]

    correct(played, 1, 1, by=player)  # and back: the promotion moves to the later die

    kells_die.refresh_from_db()
    assert kells_die.status == DiceRoll.Status.COUNTED
    read = step(played)
    assert read.promoted.name == "Yeoman Kell"
    assert [(d.sequence, d.face) for d in read.dice] == [(1, 1), (2, 6)]
    assert DiceRoll.objects.filter(purpose="promotion").count() == 4  # two struck, two counting


def test_a_correction_after_apply_moves_the_promotion_on_the_roster(played, player, warband):
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 2, by=player)
    promotion_die(played, kell, 6, by=player)
    post_game_apply(player=fresh_player(played), by=player)
    assert Fighter.objects.get(pk=kell.pk).keywords == ["ELITE"]

    fix = correct(played, 1, 6, by=player)

    assert fix.applied_again
    assert Fighter.objects.get(pk=tom.pk).keywords == ["ELITE"]
    assert Fighter.objects.get(pk=kell.pk).keywords == []


def test_a_corrected_die_before_the_automatic_success_takes_the_promotion_back(played, player, warband):
    # RULING P-4: with 4 failed before, a failed die 1 makes die 2 the automatic success; die 1 corrected to a 6
    # promotes on die 1 instead, and the automatic success is no longer given.
    warband.promotion_tally = 4
    warband.save(update_fields=["promotion_tally"])
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 2, by=player)
    promotion_die(played, kell, None, by=player)
    assert step(played).promoted.name == "Yeoman Kell"
    assert DiceRoll.objects.filter(purpose="promotion").count() == 1

    correct(played, 1, 6, by=player)

    read = step(played)
    assert read.promoted.name == "Brother Tom"
    assert [(d.sequence, d.face) for d in read.dice] == [(1, 6)]
    assert played.state().post_game.promotion_automatic_id is None
