"""combat/services/post_game/exploration.py: the Exploration Dice stored once, the winner's one reroll, the
modifier before the roll, the Location found once per warband, the choice between two, the loot into the
Strongbox (with a ransom, one change), Apply and Revert leaving the rows exactly as they were."""

import pytest

from campaigns.models import GamePlayer
from campaigns.tests.history import last_context
from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.exploration import (
    post_game_choose_location,
    post_game_exploration_decline,
    post_game_exploration_modifier,
    post_game_exploration_reroll,
    post_game_exploration_roll,
)
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.services.post_game.revert import post_game_revert
from combat.tests.exploration_helpers import exploration_rolls, exploration_snapshot, save_tables
from combat.tests.post_game_helpers import enter, game_with, record_game, roster_snapshot
from rosters.models import FoundLocation

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(campaign, organiser):
    save_tables(campaign, organiser)


@pytest.fixture
def game(campaign, warband, rival_warband, tables):
    """Game 1: nobody taken Out of Action; the player's warband lost it."""
    return record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)


def _won(after):
    GamePlayer.objects.filter(pk=after.player.pk).update(result=GamePlayer.Result.WIN)
    return after.refresh()


def _live(after) -> PostGame:
    return PostGame.objects.get(player=after.player)


# -- the Exploration Dice --------------------------------------------------------------------------------------------


def test_the_dice_are_stored_before_they_are_shown_and_never_rolled_twice(game, player):
    made = post_game_exploration_roll(player=game.player, faces=[3, 4, 2], by=player)

    assert made.created
    dice = made.roll.dice_roll
    assert (made.roll.fighter, made.roll.purpose, made.roll.sequence) == (None, "exploration", 1)
    assert (dice.faces, dice.sides, dice.source) == ([3, 4, 2], 6, DiceRoll.Source.ENTERED)
    assert dice.label == "Iron Sepulchre: Exploration Dice 3D6 3-4-2"
    again = post_game_exploration_roll(player=game.player, by=player)  # a second tab, by the server
    assert not again.created
    assert again.roll == made.roll
    assert DiceRoll.objects.count() == 1
    exploration = game.state().exploration
    assert (exploration.faces, exploration.score, exploration.loot) == ((3, 4, 2), 9, 90)
    assert exploration.location.code == "field_shrine"
    assert exploration.done  # the loser has no reroll


def test_the_server_rolls_as_many_dice_as_the_battles_fought_give(game, player):
    made = post_game_exploration_roll(player=game.player, by=player)

    faces = made.roll.dice_roll.faces
    assert len(faces) == 3  # RULING E-1: 1 battle fought, 3 dice
    assert all(1 <= face <= 6 for face in faces)
    assert made.roll.dice_roll.source == DiceRoll.Source.SERVER


@pytest.mark.parametrize(
    ("faces", "words"),
    [([3, 4], "2 dice entered: after 1 battle the Exploration takes 3 D6"), ([3, 4, 7], "cannot be right")],
)
def test_a_wrong_roll_is_refused_and_nothing_is_stored(game, player, faces, words):
    with pytest.raises(PostGameError, match=words):
        post_game_exploration_roll(player=game.player, faces=faces, by=player)

    assert not DiceRoll.objects.exists()
    assert not PostGame.objects.exists()


def test_the_modifier_is_entered_before_the_roll_and_counts(game, player):
    post_game_exploration_modifier(player=game.player, modifier=2, by=player)
    assert game.state().exploration.modifier == 2

    post_game_exploration_roll(player=game.player, faces=[3, 4, 1], modifier=3, by=player)

    exploration = game.state().exploration
    assert (exploration.modifier, exploration.score) == (3, 11)
    assert exploration.score_words == "3 dice, 3+4+1 = 8, +3 = 11"
    with pytest.raises(PostGameError, match="entered before the roll"):
        post_game_exploration_modifier(player=game.player, modifier=0, by=player)
    assert _live(game).exploration_modifier == 3


@pytest.mark.parametrize("modifier", [13, -13, "2", 1.5])
def test_a_modifier_out_of_range_is_refused(game, player, modifier):
    with pytest.raises(PostGameError, match="from -12 to \\+12"):
        post_game_exploration_modifier(player=game.player, modifier=modifier, by=player)
    with pytest.raises(PostGameError, match="from -12 to \\+12"):
        post_game_exploration_roll(player=game.player, faces=[1, 1, 1], modifier=modifier, by=player)
    assert not DiceRoll.objects.exists()


def test_the_score_never_falls_below_zero(game, player):
    post_game_exploration_roll(player=game.player, faces=[1, 1, 2], modifier=-6, by=player)

    exploration = game.state().exploration
    assert (exploration.score, exploration.loot) == (0, 0)
    assert "never below 0" in exploration.score_words


def test_before_the_roll_the_page_has_the_odds_of_each_location(game):
    exploration = game.state().exploration

    assert not exploration.done
    # 3D6 make 9 and 12 in 25 of their 216 ways each, 14 in 15 of them (RULING E-1: 1 battle, 3 dice).
    assert [(chance.location.code, chance.words) for chance in exploration.odds] == [
        ("field_shrine", "12%"),
        ("ration_cache", "12%"),
        ("shell_crater", "7%"),
    ]
    assert {chance.location.table for chance in exploration.odds} == {"common"}  # RULING E-1: 1 battle


# -- the winner's reroll -----------------------------------------------------------------------------------------


def test_the_winner_rerolls_one_die_once_and_the_new_face_stands(game, player):
    after = _won(game)
    post_game_exploration_roll(player=after.player, faces=[1, 4, 2], by=player)
    assert after.state().exploration.reroll_open
    assert "reroll one of the Exploration Dice" in " ".join(after.state().blockers)

    made = post_game_exploration_reroll(player=after.player, die=1, faces=[5], by=player)

    assert made.created
    assert made.roll.purpose == "exploration_reroll"
    again = post_game_exploration_reroll(player=after.player, die=1, by=player)  # a double click
    assert not again.created
    assert again.roll == made.roll
    with pytest.raises(PostGameError, match="rerolled already"):
        post_game_exploration_reroll(player=after.player, die=2, faces=[6], by=player)
    with pytest.raises(PostGameError, match="rerolled already"):
        post_game_exploration_decline(player=after.player, by=player)
    exploration = after.state().exploration
    assert exploration.faces == (5, 4, 2)
    assert exploration.score_words == "3 dice, 5+4+2 (die 1 rerolled: 1 → 5) = 11"
    assert exploration.done
    assert DiceRoll.objects.count() == 2


def test_the_loser_has_no_reroll(game, player):
    post_game_exploration_roll(player=game.player, faces=[1, 4, 2], by=player)

    with pytest.raises(PostGameError, match="Only the winner .* Iron Sepulchre lost"):
        post_game_exploration_reroll(player=game.player, die=1, faces=[6], by=player)
    with pytest.raises(PostGameError, match="Only the winner"):
        post_game_exploration_decline(player=game.player, by=player)
    assert DiceRoll.objects.count() == 1
    assert _live(game).exploration_reroll_die is None


def test_the_winner_may_decline_and_the_dice_stand(game, player):
    after = _won(game)
    post_game_exploration_roll(player=after.player, faces=[1, 4, 2], by=player)

    post_game_exploration_decline(player=after.player, by=player)

    assert after.state().exploration.done
    with pytest.raises(PostGameError, match="declined"):
        post_game_exploration_reroll(player=after.player, die=1, faces=[6], by=player)
    assert DiceRoll.objects.count() == 1


@pytest.mark.parametrize("die", [0, 4, "1"])
def test_a_reroll_of_a_die_that_is_not_there_is_refused(game, player, die):
    after = _won(game)
    post_game_exploration_roll(player=after.player, faces=[1, 4, 2], by=player)

    with pytest.raises(PostGameError, match="Pick one of the 3 Exploration Dice"):
        post_game_exploration_reroll(player=after.player, die=die, faces=[6], by=player)
    assert DiceRoll.objects.count() == 1


# -- the Locations -----------------------------------------------------------------------------------------------


def _game(number, *, campaign, warband, rival_warband):
    return record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=number)


def test_two_locations_found_wait_for_the_choice(campaign, warband, rival_warband, tables, player):
    """RULING E-4: with 3 battles fought, Common or Rare; 14 is on both, and the player picks one."""
    for number in (1, 2):
        _game(number, campaign=campaign, warband=warband, rival_warband=rival_warband)
    third = _game(3, campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_exploration_roll(player=third.player, faces=[5, 4, 3, 2], by=player)

    exploration = third.state().exploration
    assert [location.code for location in exploration.found] == ["shell_crater", "sunken_vault"]
    assert exploration.choice_needed
    assert not exploration.done
    assert "choose which of the two Locations" in " ".join(third.state().blockers)
    with pytest.raises(PostGameError, match="Not ready to apply"):
        post_game_apply(player=third.player, by=player)
    with pytest.raises(PostGameError, match="not among those the Exploration found"):
        post_game_choose_location(player=third.player, code="drowned_chapel", by=player)

    post_game_choose_location(player=third.player, code="sunken_vault", by=player)

    exploration = third.state().exploration
    assert exploration.location.code == "sunken_vault"
    assert exploration.done
    assert exploration.sentence == (
        "Exploration: 4 dice, 5+4+3+2 = 14: found the Sunken Vault (Rare); loot 140 ducats."
    )
    post_game_apply(player=third.player, by=player)
    found = FoundLocation.objects.get(warband=warband)
    assert (found.code, found.name, found.table, found.score, found.game) == (
        "sunken_vault",
        "Sunken Vault",
        "rare",
        14,
        third.game,
    )


def test_a_location_is_found_only_once_per_warband(campaign, warband, rival_warband, tables, player, player2):
    first = _game(1, campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_exploration_roll(player=first.player, faces=[3, 4, 2], by=player)
    post_game_apply(player=first.player, by=player)
    second = _game(2, campaign=campaign, warband=warband, rival_warband=rival_warband)

    post_game_exploration_roll(player=second.player, faces=[2, 3, 4], by=player)

    exploration = second.state().exploration
    assert exploration.found == ()
    assert exploration.location is None
    assert exploration.found_words == "no Location: the Field Shrine is found already (RULING E-4)"
    assert exploration.loot == 90  # the loot is still taken
    post_game_apply(player=second.player, by=player)
    assert FoundLocation.objects.filter(warband=warband).count() == 1
    # Another warband may find the same one.
    rival = second.rival
    post_game_exploration_roll(player=rival, faces=[3, 3, 3], by=player2)
    post_game_exploration_decline(player=rival, by=player2)
    post_game_apply(player=rival, by=player2)
    assert FoundLocation.objects.filter(code="field_shrine").count() == 2


def test_without_location_tables_the_loot_is_still_taken(campaign, warband, rival_warband, player):
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_exploration_roll(player=after.player, faces=[3, 4, 2], by=player)

    exploration = after.state().exploration
    assert exploration.missing == ("common",)
    assert exploration.found == ()
    post_game_apply(player=after.player, by=player)
    warband.refresh_from_db()
    assert warband.strongbox == 50 + 90
    assert not FoundLocation.objects.exists()


# -- Apply and Revert --------------------------------------------------------------------------------------------


def test_apply_then_revert_leaves_the_strongboxes_and_locations_exactly_as_they_were(
    game, player, warband, rival_warband
):
    before = exploration_snapshot(warband, rival_warband)
    roster_before = roster_snapshot(warband, rival_warband)
    post_game_exploration_roll(player=game.player, faces=[3, 4, 2], by=player)

    post_game_apply(player=game.player, by=player)

    applied = exploration_snapshot(warband, rival_warband)
    assert applied["warbands"][warband.pk]["strongbox"] == 50 + 90
    assert [row["code"] for row in applied["locations"].values()] == ["field_shrine"]
    live = _live(game)
    assert live.summary["exploration"] == (
        "Exploration: 3 dice, 3+4+2 = 9: found the Field Shrine (Common); loot 90 ducats."
    )
    assert live.summary["strongboxes"][0]["reason"] == "loot from the Exploration (90 ducats, score 9)"
    assert last_context(FoundLocation.objects.get())["action"] == "post_game.apply"

    post_game_revert(player=game.player, by=player)

    assert exploration_snapshot(warband, rival_warband) == before
    assert roster_snapshot(warband, rival_warband) == roster_before
    assert len(exploration_rolls(live)) == 1  # the roll stays, and counts again at the next Apply
    post_game_apply(player=game.player, by=player)
    assert exploration_snapshot(warband, rival_warband)["warbands"] == applied["warbands"]


def test_a_ransom_and_the_loot_move_the_strongbox_once(
    campaign, warband, rival_warband, tables, make_fighter, player
):
    captive = make_fighter(warband, "Deacon Vos", elite=True, xp=2)
    after = game_with([captive], campaign=campaign, warband=warband, rival_warband=rival_warband)
    enter(after, captive, 1, 2, by=player)  # Captured
    post_game_answer_ransom(player=after.player, fighter_id=captive.pk, paid=True, ransom=15, by=player)
    post_game_exploration_roll(player=after.player, faces=[3, 4, 2], by=player)

    state = after.state()
    own = [box for box in state.strongboxes if box.warband.pk == warband.pk]
    assert len(own) == 1
    assert (own[0].delta, own[0].loot) == (-15 + 90, 90)
    assert own[0].reason == "ransom paid (15 ducats) and loot from the Exploration (90 ducats, score 9)"
    post_game_apply(player=after.player, by=player)
    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    assert (warband.strongbox, rival_warband.strongbox) == (50 - 15 + 90, 30 + 15)
    assert last_context(warband)["ransoms"][str(warband.pk)] == (
        "ransom for Deacon Vos and loot from the Exploration"
    )


def test_a_revert_is_refused_once_the_loot_is_spent(game, player, warband):
    post_game_exploration_roll(player=game.player, faces=[6, 6, 6], by=player)
    post_game_apply(player=game.player, by=player)
    type(warband).objects.filter(pk=warband.pk).update(strongbox=100)  # 180 looted, most of it spent since

    with pytest.raises(PostGameError, match="spent the Exploration's loot"):
        post_game_revert(player=game.player, by=player)

    warband.refresh_from_db()
    assert warband.strongbox == 100
    assert _live(game).status == PostGame.Status.APPLIED
