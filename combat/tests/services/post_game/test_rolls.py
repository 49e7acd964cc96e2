"""combat/services/post_game/rolls.py: rolls stored once, in the order the rules ask, checked against the die."""

import pytest

from combat.models import DiceRoll, PostGameRoll
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.rolls import post_game_roll
from combat.tests.post_game_helpers import (
    enter,
    roll,
)

pytestmark = pytest.mark.django_db


pytestmark = pytest.mark.django_db


# -- Rolls: stored once, in order, checked ------------------------------------------------------------------------


def test_the_same_roll_asked_twice_is_rolled_once(after, fighters, player):
    troop = fighters["troop"]
    first = post_game_roll(
        player=after.player, fighter_id=troop.pk, purpose="survival", sequence=1, by=player
    )
    second = post_game_roll(
        player=after.player, fighter_id=troop.pk, purpose="survival", sequence=1, by=player
    )

    assert first.created
    assert not second.created
    assert first.roll.pk == second.roll.pk
    assert DiceRoll.objects.filter(fighter=troop).count() == 1


def test_a_server_roll_is_stored_with_who_when_and_what_for(after, fighters, player):
    troop = fighters["troop"]
    made = roll(after, troop, by=player)

    dice = made.roll.dice_roll
    assert dice.source == DiceRoll.Source.SERVER
    assert dice.rolled_by == player
    assert dice.sides == 6
    assert len(dice.faces) == 1
    assert 1 <= dice.faces[0] <= 6
    assert dice.purpose == "survival"
    assert dice.campaign_id == after.game.campaign_id
    assert dice.game_id == after.game.pk
    assert dice.label.startswith("Yeoman Kell: Survival Roll D6")


def test_elite_fighters_wait_for_the_troops(after, fighters, player):
    with pytest.raises(PostGameError, match="RULING T-1"):
        post_game_roll(
            player=after.player,
            fighter_id=fighters["marcus"].pk,
            purpose="trauma",
            sequence=1,
            faces=[1, 4],
            by=player,
        )
    assert not DiceRoll.objects.exists()


@pytest.mark.parametrize(
    ("purpose", "faces", "message"),
    [
        ("survival", [7], "a D6 shows 1 to 6, got 7"),
        ("survival", [0], "a D6 shows 1 to 6, got 0"),
        ("survival", [3, 4], "enter one die"),
    ],
)
def test_a_face_that_does_not_fit_the_die_is_refused(after, fighters, player, purpose, faces, message):
    with pytest.raises(PostGameError, match=message):
        post_game_roll(
            player=after.player,
            fighter_id=fighters["troop"].pk,
            purpose=purpose,
            sequence=1,
            faces=faces,
            by=player,
        )
    assert not DiceRoll.objects.exists()
    assert not PostGameRoll.objects.exists()


def test_a_d66_needs_both_dice(after, fighters, player):
    enter(after, fighters["troop"], 4, by=player)
    with pytest.raises(PostGameError, match="two D6"):
        post_game_roll(
            player=after.player,
            fighter_id=fighters["marcus"].pk,
            purpose="trauma",
            sequence=1,
            faces=[1],
            by=player,
        )


def test_a_roll_out_of_order_is_refused(after, fighters, player):
    with pytest.raises(PostGameError, match="out of date"):
        post_game_roll(
            player=after.player,
            fighter_id=fighters["troop"].pk,
            purpose="survival",
            sequence=2,
            faces=[3],
            by=player,
        )


def test_a_fighter_not_out_of_action_gets_no_roll(after, warband, make_fighter, player):
    bystander = make_fighter(warband, "Bystander")
    with pytest.raises(PostGameError, match="not taken Out of Action"):
        post_game_roll(
            player=after.player, fighter_id=bystander.pk, purpose="survival", sequence=1, by=player
        )
