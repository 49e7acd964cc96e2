"""combat/services/post_game/promotions.py on PostgreSQL: the Promotion Pool (RULINGS P-1, P-5), its assignment
(P-2), the dice rolled one at a time (P-3) with the warband's tally across games (P-4), and the promotion applied
(P-7) or the XP gain restored (P-6), then reverted exactly."""

import pytest

from campaigns.models import GamePlayer
from combat.models import DiceRoll, PostGameFighter, PostGameRoll
from combat.services.campaign_data import campaign_data_save
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.promotions import PromotionDiceRefused
from combat.services.post_game.revert import post_game_revert
from combat.tests.post_game_helpers import enter, game_with, roster_snapshot
from combat.tests.promotion_helpers import assign, deeds, promotion_die, step
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def troops(warband, make_fighter):
    return {
        "tom": make_fighter(warband, "Brother Tom", fighter_type="Yeoman"),
        "kell": make_fighter(warband, "Yeoman Kell", fighter_type="Yeoman"),
        "sister": make_fighter(warband, "Sister Ines", elite=True, fighter_type="War Prophet", xp=4),
    }


@pytest.fixture
def played(campaign, warband, rival_warband, troops):
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def won(after):
    GamePlayer.objects.filter(pk=after.player.pk).update(result=GamePlayer.Result.WIN)
    return after.refresh()


# -- the pool and who may take dice (P-1, P-5, P-6) --------------------------------------------------------------


def test_p_1_the_pool_is_one_die_after_a_loss_without_glorious_deeds(played):
    read = step(played)
    assert read.pool == 1
    assert read.pool_words == "Promotion Pool: 1 = 1 die (RULING P-1)"


def test_p_1_a_win_glorious_deeds_and_extra_dice_add_to_the_pool(played, troops, player):
    won(played)
    deeds(played, player, {troops["sister"]: 2})
    assign(played, player, {}, extra=1)
    read = step(played)
    assert read.pool == 5
    assert read.pool_words == (
        "Promotion Pool: 1 + 1 for the win + 2 for Glorious Deeds + 1 from abilities = 5 dice (RULING P-1)"
    )


def test_p_5_six_elite_models_roll_no_promotion_dice(played, warband, make_fighter):
    for number in range(5):
        make_fighter(warband, f"Knight {number}", elite=True)
    read = step(played)
    assert read.elite_count == 6
    assert read.pool == 0
    assert "RULING P-5" in read.pool_words
    assert read.nothing_to_do


def test_troops_and_a_head_wounded_elite_may_take_dice_but_never_promoted_types_may_not(
    played, warband, make_fighter, campaign, organiser
):
    make_fighter(warband, "Brother Abel", elite=True, can_gain_xp=False)  # Head Wound (RULING P-6, T-9)
    make_fighter(warband, "Shrine Hound", fighter_type="War Hound")
    campaign_data_save(
        campaign=campaign,
        kind="fighter_types",
        rows=[{"name": "War Hound", "never_promoted": True, "limited_potential": False}],
        by=organiser,
    )
    read = step(played)
    names = {candidate.name: candidate.head_wounded for candidate in read.candidates}
    assert names == {"Brother Tom": False, "Yeoman Kell": False, "Brother Abel": True}


def test_allies_and_mercenaries_are_never_promoted(played, warband, make_fighter):
    # CAMPAIGN_PHASE.md, Promotions: "... nor can allies and mercenaries" (a mercenary hired with Glory carries
    # MERCENARY, combat/services/post_game/glory.py).
    make_fighter(warband, "Sellsword Grim", keywords=["MERCENARY"])
    make_fighter(warband, "Brother Lent", keywords=["ally"])
    assert {candidate.name for candidate in step(played).candidates} == {"Brother Tom", "Yeoman Kell"}


def test_a_troop_the_trauma_step_removes_takes_no_dice(campaign, warband, rival_warband, troops, player):
    after = game_with([troops["kell"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    enter(after, troops["kell"], 1, by=player)  # RULING T-2: dead
    assert [candidate.name for candidate in step(after).candidates] == ["Brother Tom"]


# -- the assignment (P-2) ----------------------------------------------------------------------------------------


def _dice_stored(after):
    return dict(
        PostGameFighter.objects.filter(post_game__player=after.player).values_list(
            "fighter__name", "promotion_dice"
        )
    )


def test_more_dice_than_the_pool_are_refused_and_nothing_changes(played, troops, player):
    with pytest.raises(PromotionDiceRefused, match="2 Promotion Dice are assigned but the pool has 1"):
        assign(played, player, {troops["tom"]: 1, troops["kell"]: 1})
    assert not any(_dice_stored(played).values())


def test_p_2_three_dice_need_a_glorious_deed(played, troops, player):
    won(played)
    assign(played, player, {}, extra=1)
    with pytest.raises(PromotionDiceRefused) as refused:
        assign(played, player, {troops["tom"]: 3}, extra=1)
    assert "Brother Tom has 3 Promotion Dice but may have 2 without a Glorious Deed" in str(refused.value)
    assert "RULING P-2" in refused.value.by_fighter[troops["tom"].pk]
    assert not any(_dice_stored(played).values())


def test_p_2_a_glorious_deed_allows_a_third_die(played, troops, player):
    won(played)
    deeds(played, player, {troops["tom"]: 1})
    assign(played, player, {troops["tom"]: 3})
    assert _dice_stored(played)["Brother Tom"] == 3
    assert step(played).passed


def test_p_2_dice_for_an_elite_that_can_gain_xp_are_refused(played, troops, player):
    with pytest.raises(PromotionDiceRefused, match="Sister Ines may not be promoted"):
        assign(played, player, {troops["sister"]: 1})


def test_extra_dice_out_of_range_are_refused(played, player):
    with pytest.raises(PromotionDiceRefused, match="from 0 to 6"):
        assign(played, player, {}, extra=7)


def test_the_assignment_cannot_change_once_a_die_is_rolled(played, troops, player):
    assign(played, player, {troops["tom"]: 1})
    promotion_die(played, troops["tom"], 2, by=player)
    with pytest.raises(PostGameError, match="rolled already"):
        assign(played, player, {troops["kell"]: 1})
    assert _dice_stored(played) == {"Brother Tom": 1, "Yeoman Kell": 0}


# -- the dice (P-3, P-4) -----------------------------------------------------------------------------------------


def test_p_3_a_six_promotes_and_ends_the_rolling(played, troops, player):
    won(played)
    assign(played, player, {troops["tom"]: 1, troops["kell"]: 1})
    promotion_die(played, troops["kell"], 6, by=player)
    read = step(played)
    assert read.promoted.name == "Yeoman Kell"
    assert (
        read.dice[0].rule
        == "Yeoman Kell rolled a 6: promoted to ELITE; no more dice are rolled (RULING P-3)."
    )
    with pytest.raises(PostGameError, match="no more Promotion Dice are rolled"):
        promotion_die(played, troops["tom"], 6, by=player)
    assert PostGameRoll.objects.filter(purpose="promotion").count() == 1


def test_the_player_picks_which_die_is_rolled_next(played, troops, player):
    won(played)
    assign(played, player, {troops["tom"]: 1, troops["kell"]: 1})
    promotion_die(played, troops["kell"], 3, by=player)
    promotion_die(played, troops["tom"], 2, by=player)
    read = step(played)
    assert [(die.candidate.name, die.face) for die in read.dice] == [("Yeoman Kell", 3), ("Brother Tom", 2)]
    assert read.promoted is None
    assert read.tally_after == 2
    assert read.dice[1].rule == "Brother Tom rolled a 2: no promotion; 2 failed in a row (RULING P-4)."


def test_a_die_for_a_model_without_dice_left_is_refused(played, troops, player):
    won(played)
    assign(played, player, {troops["tom"]: 1, troops["kell"]: 1})
    promotion_die(played, troops["tom"], 2, by=player)
    with pytest.raises(PostGameError, match="Brother Tom has no Promotion Dice left"):
        promotion_die(played, troops["tom"], 2, by=player)
    with pytest.raises(PostGameError, match="takes no Promotion Dice"):
        promotion_die(played, troops["sister"], 2, by=player)
    assert PostGameRoll.objects.filter(purpose="promotion").count() == 1


def test_a_face_out_of_range_is_refused_and_nothing_is_stored(played, troops, player):
    assign(played, player, {troops["tom"]: 1})
    with pytest.raises(PostGameError, match="cannot be right"):
        promotion_die(played, troops["tom"], 7, by=player)
    assert not DiceRoll.objects.filter(purpose="promotion").exists()


def test_two_tabs_asking_for_the_same_die_roll_it_once(played, troops, player):
    assign(played, player, {troops["tom"]: 1})
    first = promotion_die(played, troops["tom"], None, by=player, sequence=1)
    again = promotion_die(played, troops["tom"], None, by=player, sequence=1)
    assert first.created
    assert not again.created
    assert again.roll.pk == first.roll.pk
    assert DiceRoll.objects.filter(purpose="promotion").count() == 1


def test_the_chance_of_a_promotion_is_shown_before_the_roll(played, troops, player, warband):
    won(played)
    assign(played, player, {troops["tom"]: 1, troops["kell"]: 1})
    read = step(played)
    # 1 - (5/6)^2 = 11/36
    assert read.chance_words == "Chance of a promotion with the 2 dice left: 31% (RULINGS P-3 and P-4)"


def test_unrolled_dice_stop_the_apply(played, troops, player):
    assign(played, player, {troops["tom"]: 1})
    with pytest.raises(PostGameError, match="1 assigned Promotion die still to roll"):
        post_game_apply(player=played.player, by=player)


# -- Apply and Revert (P-6, P-7) ---------------------------------------------------------------------------------


def test_p_7_a_promotion_applied_then_reverted_exactly(played, troops, player, warband):
    Fighter.objects.filter(pk=troops["tom"].pk).update(xp=1, keywords=["PILGRIM"])
    warband.promotion_tally = 2
    warband.save()
    before = roster_snapshot(warband)
    assign(played.refresh(), player, {troops["tom"]: 1})
    promotion_die(played, troops["tom"], 6, by=player)
    sentences = next(c for c in played.state().changes if c.fighter.pk == troops["tom"].pk).sentences
    assert sentences == [
        "Brother Tom rolled a 6 on the first Promotion Die: promoted to ELITE, 0 XP (RULING P-7)."
    ]

    post_game_apply(player=played.player, by=player)
    tom = Fighter.objects.get(pk=troops["tom"].pk)
    assert tom.keywords == ["PILGRIM", "ELITE"]
    assert tom.xp == 0
    warband.refresh_from_db()
    assert warband.promotion_tally == 0  # RULING P-4: any success resets the tally

    post_game_revert(player=played.refresh().player, by=player)
    assert roster_snapshot(warband) == before


def test_p_6_a_head_wounded_elite_success_restores_its_xp_gain(played, warband, make_fighter, player):
    abel = make_fighter(warband, "Brother Abel", elite=True, can_gain_xp=False, xp=6)
    before = roster_snapshot(warband)
    assign(played, player, {abel: 1})
    promotion_die(played, abel, 6, by=player)
    post_game_apply(player=played.player, by=player)
    abel.refresh_from_db()
    assert abel.can_gain_xp
    assert abel.xp == 6
    assert abel.keywords == ["ELITE"]
    post_game_revert(player=played.refresh().player, by=player)
    assert roster_snapshot(warband) == before


def test_failed_dice_add_to_the_tally_and_revert_takes_them_back(played, troops, player, warband):
    won(played)
    assign(played, player, {troops["tom"]: 1, troops["kell"]: 1})
    promotion_die(played, troops["tom"], 1, by=player)
    promotion_die(played, troops["kell"], 5, by=player)
    post_game_apply(player=played.player, by=player)
    warband.refresh_from_db()
    assert warband.promotion_tally == 2
    post_game_revert(player=played.refresh().player, by=player)
    warband.refresh_from_db()
    assert warband.promotion_tally == 0


def test_p_4_the_tally_carries_across_games_and_the_sixth_die_promotes_without_a_roll(
    campaign, warband, rival_warband, troops, player
):
    first = won(game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband))
    deeds(first, player, {troops["tom"]: 1})
    assign(first, player, {troops["tom"]: 3})
    for face in (1, 2, 3):
        promotion_die(first, troops["tom"], face, by=player)
    post_game_apply(player=first.player, by=player)
    warband.refresh_from_db()
    assert warband.promotion_tally == 3

    second = won(game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband, number=2))
    deeds(second, player, {troops["kell"]: 1})
    assign(second, player, {troops["kell"]: 3})
    assert "the third die from now promotes without a roll" in step(second).tally_words
    promotion_die(second, troops["kell"], 4, by=player)
    promotion_die(second, troops["kell"], 5, by=player)
    assert step(second).tally_words == (
        "Failed Promotion Dice in a row: 5 of 5: the next die promotes without a roll (RULING P-4)"
    )
    made = promotion_die(second, troops["kell"], None, by=player)
    assert made.automatic
    assert made.roll is None
    read = step(second)
    assert read.promoted.name == "Yeoman Kell"
    assert read.dice[-1].face is None
    # Not rolled, so not stored as a die: two dice in the log for this game.
    assert DiceRoll.objects.filter(game=second.game, purpose="promotion").count() == 2
    post_game_apply(player=second.player, by=player)
    warband.refresh_from_db()
    kell = Fighter.objects.get(pk=troops["kell"].pk)
    assert warband.promotion_tally == 0
    assert kell.keywords == ["ELITE"]


def test_the_promotion_names_the_dies_place_in_the_pool_not_among_its_own_dice(played, troops, player):
    won(played)
    deeds(played, player, {troops["sister"]: 2})  # RULING P-1: 1 + 1 for the win + 2 = 4 dice
    assign(played, player, {troops["kell"]: 2, troops["tom"]: 2})
    for fighter, face in (("kell", 1), ("kell", 2), ("tom", 3), ("tom", 6)):
        promotion_die(played, troops[fighter], face, by=player)
    sentences = next(c for c in played.state().changes if c.fighter.pk == troops["tom"].pk).sentences
    # The fourth die rolled (Tom's second): "the fourth", as its dice line numbers it.
    assert sentences == [
        "Brother Tom rolled a 6 on the fourth Promotion Die: promoted to ELITE, 0 XP (RULING P-7)."
    ]


def test_a_dice_line_names_who_rolled_by_the_display_name(played, troops, player):
    from combat.selectors.post_game.rolls import logged_rolls

    player.first_name = "Pat"
    player.save()
    assign(played, player, {troops["tom"]: 1})
    promotion_die(played, troops["tom"], None, by=player)  # the server's die
    (line,) = logged_rolls(list(PostGameRoll.objects.select_related("dice_roll__rolled_by")))
    assert line.who == "rolled by the server for Pat"  # not the username, pat_player
