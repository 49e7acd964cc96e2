"""Corrections for the Exploration Dice (combat/services/post_game/fixes.py): the typed dice corrected,
a server roll voided; the score, the Location and the loot worked out again, applied again when nothing is left to
answer, reopened when a choice between two Locations is needed now, refused when the loot is spent."""

import pytest

from campaigns.models import GamePlayer
from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.exploration import post_game_choose_location, post_game_exploration_roll
from combat.services.post_game.fixes import post_game_correct_roll, post_game_void_roll
from combat.tests.exploration_helpers import exploration_rolls, save_tables
from combat.tests.post_game_helpers import record_game
from rosters.models import FoundLocation, Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def third(campaign, warband, rival_warband, organiser):
    """Game 3 of Iron Sepulchre: 4 Exploration Dice, Common or Rare (RULING E-1)."""
    save_tables(campaign, organiser)
    for number in (1, 2):
        record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=number)
    return record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=3)


def _dice(after) -> DiceRoll:
    return exploration_rolls(PostGame.objects.get(player=after.player))[0].dice_roll


def test_typed_dice_corrected_while_open_give_the_new_score(third, player):
    post_game_exploration_roll(player=third.player, faces=[5, 6, 4, 2], by=player)
    old = _dice(third)

    fix = post_game_correct_roll(
        player=third.player, roll_id=old.pk, faces=[5, 6, 4, 1], reason="misread a die", by=player
    )

    old.refresh_from_db()
    assert old.status == DiceRoll.Status.CORRECTED
    assert old.faces == [5, 6, 4, 2]
    assert fix.new.faces == [5, 6, 4, 1]
    assert fix.new.label == "Iron Sepulchre: Exploration Dice 4D6 5-6-4-1 (corrected from 5-6-4-2)"
    exploration = third.state().exploration
    assert exploration.score == 16
    assert exploration.found == ()
    assert exploration.loot == 160


def test_a_correction_after_apply_applies_again_with_the_new_location(third, player, warband):
    post_game_exploration_roll(player=third.player, faces=[5, 6, 4, 2], by=player)
    post_game_apply(player=third.player, by=player)
    assert FoundLocation.objects.get().code == "drowned_chapel"

    fix = post_game_correct_roll(
        player=third.player, roll_id=_dice(third).pk, faces=[2, 3, 2, 2], reason="typo", by=player
    )

    assert fix.applied_again
    assert not fix.reopened
    assert list(FoundLocation.objects.values_list("code", "score")) == [("field_shrine", 9)]
    warband.refresh_from_db()
    assert warband.strongbox == 50 + 90  # exactly as if 2-3-2-2 had been typed from the start
    summary = PostGame.objects.get(player=third.player).summary
    assert summary["exploration"].startswith("Exploration: 4 dice, 2+3+2+2 = 9: found the Field Shrine")


def test_a_correction_that_now_finds_two_reopens_the_choice(third, player, warband):
    post_game_exploration_roll(player=third.player, faces=[5, 6, 4, 2], by=player)
    post_game_apply(player=third.player, by=player)

    fix = post_game_correct_roll(
        player=third.player, roll_id=_dice(third).pk, faces=[5, 4, 3, 2], reason="typo", by=player
    )

    assert fix.reopened
    assert not fix.applied_again
    third.refresh()
    assert third.player.post_game == GamePlayer.PostGame.IN_PROGRESS
    assert not FoundLocation.objects.exists()
    warband.refresh_from_db()
    assert warband.strongbox == 50
    assert third.state().current_step == "exploration"
    post_game_choose_location(player=third.player, code="shell_crater", by=player)
    post_game_apply(player=third.player, by=player)
    assert FoundLocation.objects.get().code == "shell_crater"


def test_a_correction_is_refused_once_the_loot_is_spent(third, player, warband):
    post_game_exploration_roll(player=third.player, faces=[5, 6, 4, 2], by=player)
    post_game_apply(player=third.player, by=player)
    Warband.objects.filter(pk=warband.pk).update(strongbox=20)  # 170 looted, spent since
    old = _dice(third)

    with pytest.raises(PostGameError, match="spent the Exploration's loot"):
        post_game_correct_roll(
            player=third.player, roll_id=old.pk, faces=[1, 1, 1, 1], reason="typo", by=player
        )

    old.refresh_from_db()
    assert old.status == DiceRoll.Status.COUNTED
    assert FoundLocation.objects.get().code == "drowned_chapel"
    assert DiceRoll.objects.count() == 1


def test_the_organiser_voids_a_server_roll_and_the_server_rolls_four_dice_again(third, player, organiser):
    post_game_exploration_roll(player=third.player, by=player)
    old = _dice(third)

    fix = post_game_void_roll(
        player=third.player, roll_id=old.pk, reason="die fell off the table", by=organiser
    )

    assert len(fix.new.faces) == 4
    assert fix.new.source == DiceRoll.Source.SERVER
    assert _dice(third) == fix.new
    assert third.state().exploration.faces == tuple(fix.new.faces)
