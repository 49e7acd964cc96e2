"""combat/services/post_game/apply.py on PostgreSQL: each Trauma outcome applied to the roster.

Dice are typed in (RULING T-7), so each outcome is known: Troop Survival Rolls (RULING T-2), ELITE D66 results from
the Trauma Table (TRAUMA_TABLE.md), rerolls (T-5), Battle Scars and Unfit For Duty (T-4, T-8), lost Battlekit (T-6);
the Apply once, in one transaction, with its history and its query budget.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Game, GamePlayer
from campaigns.tests.history import events_of, last_context
from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.revert import post_game_revert
from combat.services.post_game.rolls import post_game_roll
from combat.tests.post_game_helpers import (
    arsenal,
    casualty,
    enter,
    full_game,
    game_with,
    kit,
    rolls_of,
    roster_snapshot,
)
from rosters.models import Fighter, Injury, Item

pytestmark = pytest.mark.django_db


pytestmark = pytest.mark.django_db


# -- Troops -----------------------------------------------------------------------------------------------------


def test_a_troop_dies_on_a_2_with_all_its_battlekit(after, fighters, player, warband):
    troop = fighters["troop"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[troop.pk], by=player)

    made = enter(after, troop, 2, by=player)

    assert made.created
    state = casualty(after, troop)
    assert state.outcome.removed
    assert state.outcome.reason == "dead"
    assert "RULING T-2" in state.explanation
    post_game_apply(player=after.player, by=player)
    troop.refresh_from_db()
    assert troop.status == Fighter.Status.DEAD
    assert kit(troop) == []  # RULING T-6: lost, nothing to the Arsenal
    assert "Rifle" not in arsenal(warband)


def test_a_troop_fights_on_from_3(after, fighters, player):
    troop = fighters["troop"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[troop.pk], by=player)
    enter(after, troop, 3, by=player)

    post_game_apply(player=after.player, by=player)

    troop.refresh_from_db()
    assert troop.status == Fighter.Status.ACTIVE
    assert kit(troop) == ["Rifle"]


def test_the_odds_are_shown_before_the_survival_roll(after, fighters):
    state = casualty(after, fighters["troop"])
    assert state.headline_odds == "1 in 3 this fighter is lost"


# -- ELITE results ------------------------------------------------------------------------------------------------


def test_an_elite_hand_wound_is_an_injury_and_a_scar(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)

    enter(after, marcus, 1, 4, by=player)
    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.status == Fighter.Status.ACTIVE
    assert marcus.battle_scars == 1
    injury = Injury.objects.get(fighter=marcus)
    assert (injury.code, injury.name, injury.d66, injury.game_id) == (
        "hand_wound",
        "Hand Wound",
        14,
        after.game.pk,
    )
    assert marcus.xp == 4  # +1 for taking part and surviving


def test_dead_removes_the_elite_and_loses_all_its_battlekit(after, fighters, player, warband):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 1, by=player)

    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.status == Fighter.Status.DEAD
    assert marcus.xp == 3  # no XP for a fighter removed from the roster
    assert kit(marcus) == []  # even the Reliquary: RULING T-6
    assert arsenal(warband) == []


def test_third_scar_is_unfit_for_duty_with_battlekit_to_the_arsenal(after, fighters, player, warband):
    ada = fighters["ada"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[ada.pk], by=player)
    enter(after, ada, 1, 4, by=player)

    state = casualty(after, ada)
    assert state.outcome.reason == "unfit_for_duty"
    assert "RULING T-4" in state.explanation
    post_game_apply(player=after.player, by=player)

    ada.refresh_from_db()
    assert ada.status == Fighter.Status.UNFIT_FOR_DUTY
    assert ada.battle_scars == 3
    assert arsenal(warband) == ["Heavy Flamer", "Shield"]
    assert kit(ada) == ["Blessed Icon"]  # cannot be removed from the model: it leaves with her
    assert Injury.objects.filter(fighter=ada, code="hand_wound").exists()


def test_robbed_loses_the_battlekit_that_can_be_lost_without_a_scar(after, fighters, player, warband):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 3, 6, by=player)

    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.status == Fighter.Status.ACTIVE
    assert marcus.battle_scars == 0
    assert kit(marcus) == ["Reliquary"]
    assert arsenal(warband) == []
    assert not Injury.objects.filter(fighter=marcus).exists()


def test_muscle_damage_loses_heavy_battlekit(after, fighters, player, warband):
    ada = fighters["ada"]
    ada.battle_scars = 0
    ada.save()
    post_game_set_out_of_action(player=after.player, fighter_ids=[ada.pk], by=player)
    enter(after, ada, 3, 4, by=player)

    post_game_apply(player=after.player, by=player)

    assert kit(ada) == ["Blessed Icon", "Shield"]
    assert arsenal(warband) == []
    assert Injury.objects.filter(fighter=ada, code="muscle_damage").exists()


def test_minor_wound_misses_the_next_game_and_is_not_an_injury(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 3, 5, by=player)

    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.misses_next_game
    assert marcus.battle_scars == 1
    assert not Injury.objects.filter(fighter=marcus).exists()


def test_a_result_it_already_has_is_rolled_again_and_both_rolls_are_kept(after, fighters, player):
    marcus = fighters["marcus"]
    Injury.objects.create(fighter=marcus, code="hand_wound", name="Hand Wound")
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)

    enter(after, marcus, 1, 4, by=player)
    state = casualty(after, marcus)
    assert state.outcome is None
    assert (state.needed.purpose, state.needed.sequence) == ("trauma", 2)  # RULING T-5
    enter(after, marcus, 3, 1, by=player)

    state = casualty(after, marcus)
    assert state.outcome.rolls == (14, 31)
    assert "RULING T-5" in state.explanation
    post_game_apply(player=after.player, by=player)
    assert sorted(Injury.objects.filter(fighter=marcus).values_list("code", flat=True)) == [
        "hand_wound",
        "leg_wound",
    ]
    assert [roll.dice_roll.faces for roll in rolls_of(marcus)] == [[1, 4], [3, 1]]


def test_a_second_lost_an_eye_blinds_without_a_reroll(after, fighters, player):
    marcus = fighters["marcus"]
    Injury.objects.create(fighter=marcus, code="lost_an_eye", name="Lost an Eye")
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)

    enter(after, marcus, 1, 5, by=player)
    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.status == Fighter.Status.BLINDED
    assert kit(marcus) == []
    assert Injury.objects.filter(fighter=marcus).count() == 1


def test_a_sniper_priest_treats_lost_an_eye_as_full_recovery(
    warband, make_fighter, campaign, rival_warband, player
):
    priest = make_fighter(warband, "Father Ignatius", elite=True, fighter_type="Sniper Priest")
    after = game_with([priest], campaign=campaign, warband=warband, rival_warband=rival_warband)

    enter(after, priest, 1, 5, by=player)
    post_game_apply(player=after.player, by=player)

    priest.refresh_from_db()
    assert priest.battle_scars == 0
    assert not Injury.objects.filter(fighter=priest).exists()


def test_head_wound_stops_xp_and_bitter_lessons_then_gives_none(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 2, 2, by=player)
    post_game_record_experience(
        player=after.player, by=player, answers={marcus.pk: ExperienceAnswer(glorious_deeds=2)}
    )
    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    assert not marcus.can_gain_xp
    assert marcus.xp == 3  # Head Wound: no XP, not even Glorious Deeds

    # Next game: Bitter Lessons rolls no D3 for a fighter that cannot gain XP (RULING T-9).
    after2 = game_with(
        [marcus],
        campaign=after.game.campaign,
        warband=after.player.warband,
        rival_warband=after.rival.warband,
        number=2,
    )
    enter(after2, marcus, 6, 5, by=player)
    state = casualty(after2, marcus)
    assert state.needed is None
    assert state.outcome.xp_gained == 0
    assert "RULING T-9" in state.explanation
    post_game_apply(player=after2.player, by=player)
    marcus.refresh_from_db()
    assert marcus.xp == 3


def test_bitter_lessons_rolls_a_d3_stored_in_the_dice_log(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 6, 5, by=player)
    state = casualty(after, marcus)
    assert state.waiting_for == "d3"
    assert (state.needed.purpose, state.needed.sides) == ("bitter_lessons", 3)

    enter(after, marcus, 2, by=player)
    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.xp == 3 + 1 + 2
    assert DiceRoll.objects.filter(fighter=marcus, purpose="bitter_lessons", faces=[2], sides=3).exists()


# -- Apply: once, in one transaction, with history; the game page's status -------------------------------------------


def test_apply_marks_the_post_game_done_and_records_why(after, fighters, player):
    assert after.player.post_game == GamePlayer.PostGame.PENDING
    full_game(after, fighters, player)
    after.refresh()
    assert after.player.post_game == GamePlayer.PostGame.IN_PROGRESS
    assert after.game.status == Game.Status.POST_GAME

    post_game = post_game_apply(player=after.player, by=player)

    after.refresh()
    assert after.player.post_game == GamePlayer.PostGame.DONE
    assert post_game.status == PostGame.Status.APPLIED
    context = last_context(fighters["marcus"])
    assert context["action"] == "post_game.apply"
    assert context["game"] == after.game.pk
    assert context["warband"] == after.player.warband_id
    assert context["step"] == "apply"
    assert context["user"] == player.pk
    assert sorted(context["roll"]) == sorted(DiceRoll.objects.values_list("pk", flat=True))
    assert "applied" in context["reason"]
    injury = Injury.objects.get(fighter=fighters["marcus"])
    assert events_of(injury, "insert")[0].pgh_context.metadata["action"] == "post_game.apply"


def test_a_second_apply_is_refused(after, fighters, player):
    full_game(after, fighters, player)
    post_game_apply(player=after.player, by=player)
    before = roster_snapshot(after.player.warband)

    with pytest.raises(PostGameError, match="already applied"):
        post_game_apply(player=after.player, by=player)

    assert roster_snapshot(after.player.warband) == before


def test_no_roll_after_the_apply(after, fighters, player):
    full_game(after, fighters, player)
    post_game_apply(player=after.player, by=player)
    with pytest.raises(PostGameError, match="already applied"):
        post_game_roll(
            player=after.player, fighter_id=fighters["troop"].pk, purpose="survival", sequence=2, by=player
        )


def test_apply_is_refused_until_every_roll_is_made(after, fighters, player):
    enter(after, fighters["troop"], 1, by=player)
    before = roster_snapshot(after.player.warband)

    with pytest.raises(PostGameError, match="Brother Marcus still needs its Trauma roll"):
        post_game_apply(player=after.player, by=player)

    assert roster_snapshot(after.player.warband) == before


def test_no_post_game_while_the_game_is_played(after, fighters, player):
    Game.objects.filter(pk=after.game.pk).update(status=Game.Status.IN_PROGRESS)
    with pytest.raises(PostGameError, match="still being played"):
        enter(after, fighters["troop"], 3, by=player)


def test_applying_ten_fighters_takes_at_most_21_queries(
    warband, rival_warband, campaign, make_fighter, player
):
    out = []
    for index in range(10):
        fighter = make_fighter(
            warband, f"Fighter {index}", elite=index >= 4, battle_scars=2 if index == 9 else 0
        )
        for kit_index in range(3):
            Item.objects.create(warband=warband, fighter=fighter, name=f"Kit {index}.{kit_index}")
        out.append(fighter)
    after = game_with(out, campaign=campaign, warband=warband, rival_warband=rival_warband)
    faces = {0: [1], 1: [2], 2: [3], 3: [6], 4: [1, 4], 5: [1, 1], 6: [3, 6], 7: [3, 4], 8: [4, 4], 9: [2, 5]}
    for index, fighter in enumerate(out):
        enter(after, fighter, *faces[index], by=player)

    with CaptureQueriesContext(connection) as queries:
        post_game_apply(player=after.player, by=player)

    # The locked rows (the other warbands' post-game states read with them) and the state read once, the writes (the
    # new rows in one statement), the post-game marked done on rows it holds locked (model validation asks no
    # query per CheckConstraint: campaigns/checks.py).
    assert len(queries) <= 21, "\n".join(query["sql"][:160] for query in queries.captured_queries)
    statuses = dict(Fighter.objects.filter(pk__in=[f.pk for f in out]).values_list("name", "status"))
    assert statuses["Fighter 0"] == "dead"
    assert statuses["Fighter 5"] == "dead"
    assert statuses["Fighter 9"] == "unfit_for_duty"


def test_a_fighter_recruited_after_the_game_did_not_take_part(after, fighters, warband, make_fighter, player):
    recruit = make_fighter(warband, "Recruit", elite=True, xp=0)  # joins after Game 1 was recorded
    full_game(after, fighters, player)

    post_game_apply(player=after.player, by=player)

    recruit.refresh_from_db()
    assert recruit.xp == 0


def test_a_post_game_that_changes_nothing_still_applies(
    campaign, warband, rival_warband, make_fighter, player
):
    make_fighter(warband, "Yeoman Kell")  # a Troop that took part and stayed on its feet: no XP, no roll
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    before = roster_snapshot(warband, rival_warband)

    post_game = post_game_apply(player=after.player, by=player)

    assert post_game.status == PostGame.Status.APPLIED
    assert roster_snapshot(warband, rival_warband) == before
    post_game_revert(player=after.player, by=player)
    assert roster_snapshot(warband, rival_warband) == before
