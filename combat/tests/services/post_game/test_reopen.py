"""combat/services/post_game/reopen.py: fix one fighter after Apply, the rest of the post-game standing."""

import pytest

from campaigns.models import OutOfAction
from combat.models import DiceRoll, PostGame, PostGameFighter
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.fixes import post_game_correct_roll
from combat.services.post_game.reopen import (
    post_game_reopen_fighter,
    post_game_reopened_out_of_action,
    post_game_settle_fighter,
)
from combat.tests.post_game_helpers import game_with
from combat.tests.services.post_game.fix_helpers import comparable, dice_of, type_script, typed_right
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def script(fighters):
    return [(fighters["troop"], (3,)), (fighters["marcus"], (1, 4)), (fighters["ada"], (2, 4))]


def test_reopen_leaves_the_fighter_as_before_and_the_rest_standing(
    after, fighters, player, script, warband, rival_warband
):
    before = comparable(warband, rival_warband)
    type_script(after, script, by=player)
    post_game_apply(player=after.player, by=player)
    applied = comparable(warband, rival_warband)

    live = post_game_reopen_fighter(player=after.player, fighter_id=fighters["ada"].pk, by=player)

    assert live.status == PostGame.Status.APPLIED
    now = comparable(warband, rival_warband)
    ada, marcus = fighters["ada"].pk, fighters["marcus"].pk
    assert now["fighters"][ada] == before["fighters"][ada]  # Ada's row as before the post-game
    assert now["fighters"][marcus] == applied["fighters"][marcus]  # Marcus's Hand Wound stands
    assert (marcus, "hand_wound", 14) in now["injuries"]
    assert not [injury for injury in now["injuries"] if injury[0] == ada]
    assert PostGameFighter.objects.get(fighter_id=ada).reopened


def test_a_reopened_fighter_taken_off_the_list_then_settled(
    after, fighters, player, script, warband, rival_warband
):
    """A wrong Out of Action mark: Ada was never taken Out of Action. Her rolls stop counting, kept in the log."""
    ada = fighters["ada"]
    expected = typed_right(
        after,
        script[:2],
        by=player,
        warbands=[warband, rival_warband],
        before_apply=lambda: OutOfAction.objects.filter(fighter=ada).delete(),
    )
    type_script(after, script, by=player)
    post_game_apply(player=after.player, by=player)
    post_game_reopen_fighter(player=after.player, fighter_id=ada.pk, by=player)

    post_game_reopened_out_of_action(player=after.player, fighter_id=ada.pk, out=False, by=player)
    roll = dice_of(ada, "trauma")
    assert (roll.status, roll.status_reason) == (DiceRoll.Status.UNDONE, "taken off the Out of Action list")
    post_game_settle_fighter(player=after.player, fighter_id=ada.pk, by=player)

    assert comparable(warband, rival_warband) == expected
    assert Fighter.objects.get(pk=ada.pk).status == "active"
    assert not PostGameFighter.objects.get(fighter=ada).reopened


def test_put_back_on_the_list_the_same_rolls_count_again(
    after, fighters, player, script, warband, rival_warband
):
    ada = fighters["ada"]
    type_script(after, script, by=player)
    post_game_apply(player=after.player, by=player)
    applied = comparable(warband, rival_warband)
    post_game_reopen_fighter(player=after.player, fighter_id=ada.pk, by=player)
    post_game_reopened_out_of_action(player=after.player, fighter_id=ada.pk, out=False, by=player)

    post_game_reopened_out_of_action(player=after.player, fighter_id=ada.pk, out=True, by=player)
    post_game_settle_fighter(player=after.player, fighter_id=ada.pk, by=player)

    assert dice_of(ada, "trauma").counts
    assert DiceRoll.objects.count() == 3  # never a new roll for a stored one
    assert comparable(warband, rival_warband)["fighters"] == applied["fighters"]


def test_a_reopened_fighters_typed_die_corrected_then_settled(
    after, fighters, player, script, warband, rival_warband
):
    right = [script[0], script[1], (fighters["ada"], (4, 4))]
    expected = typed_right(after, right, by=player, warbands=[warband, rival_warband])
    type_script(after, script, by=player)
    post_game_apply(player=after.player, by=player)
    post_game_reopen_fighter(player=after.player, fighter_id=fighters["ada"].pk, by=player)

    post_game_correct_roll(
        player=after.player,
        roll_id=dice_of(fighters["ada"], "trauma").pk,
        faces=[4, 4],
        reason="typo",
        by=player,
    )
    assert Fighter.objects.get(pk=fighters["ada"].pk).battle_scars == 2  # still left out until Settle
    post_game_settle_fighter(player=after.player, fighter_id=fighters["ada"].pk, by=player)

    assert comparable(warband, rival_warband) == expected


def test_reopen_is_refused_before_apply_twice_and_after_the_next_game(
    after, fighters, player, script, warband
):
    type_script(after, script, by=player)
    with pytest.raises(PostGameError, match="is not applied"):
        post_game_reopen_fighter(player=after.player, fighter_id=fighters["ada"].pk, by=player)
    post_game_apply(player=after.player, by=player)
    post_game_reopen_fighter(player=after.player, fighter_id=fighters["ada"].pk, by=player)
    with pytest.raises(PostGameError, match="already reopened"):
        post_game_reopen_fighter(player=after.player, fighter_id=fighters["ada"].pk, by=player)
    with pytest.raises(PostGameError, match="Reopen Brother Marcus first"):
        post_game_reopened_out_of_action(
            player=after.player, fighter_id=fighters["marcus"].pk, out=False, by=player
        )
    game_with([], campaign=after.game.campaign, warband=warband, rival_warband=after.rival.warband, number=2)
    with pytest.raises(PostGameError, match="played again"):
        post_game_settle_fighter(player=after.player, fighter_id=fighters["ada"].pk, by=player)
