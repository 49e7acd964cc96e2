"""The post-game Trauma Step through combat/services.py on PostgreSQL: each Trauma outcome applied to the roster.

Dice are typed in (RULING T-7), so each outcome is known: Troop Survival Rolls (RULING T-2), ELITE D66 results from
the Trauma Table (TRAUMA_TABLE.md), rerolls (T-5), Battle Scars and Unfit For Duty (T-4, T-8), lost Battlekit (T-6).
"""

import pytest
from django.db import connection
from django.db.models import RestrictedError
from django.test.utils import CaptureQueriesContext

from campaigns.models import Game, GamePlayer, OutOfAction
from campaigns.tests.history import events_of, last_context
from combat.models import DiceRoll, PostGame, PostGameRoll
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.services.post_game.revert import post_game_revert
from combat.services.post_game.rolls import post_game_roll
from combat.tests.post_game_helpers import casualty, enter, record_game, roll, rolls_of, roster_snapshot
from rosters.models import Fighter, Injury, Item

pytestmark = pytest.mark.django_db


@pytest.fixture
def fighters(warband, make_fighter):
    """Three of the player's fighters: a Troop and two ELITE, with Battlekit."""
    troop = make_fighter(warband, "Yeoman Kell", fighter_type="Yeoman")
    marcus = make_fighter(warband, "Brother Marcus", elite=True, fighter_type="Trench Cleric", xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, fighter_type="War Prophet", xp=5, battle_scars=2)
    for fighter, name, extra in [
        (troop, "Rifle", {}),
        (marcus, "Trench Club", {}),
        (marcus, "Reliquary", {"removable": False}),
        (ada, "Heavy Flamer", {"keywords": ["HEAVY"]}),
        (ada, "Shield", {}),
        (ada, "Blessed Icon", {"removable": False}),
    ]:
        Item.objects.create(warband=warband, fighter=fighter, name=name, **extra)
    return {"troop": troop, "marcus": marcus, "ada": ada}


def game_with(fighters_out, *, campaign, warband, rival_warband, number=1):
    return record_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        out_of_action=fighters_out,
        number=number,
    )


@pytest.fixture
def after(campaign, warband, rival_warband, fighters):
    return game_with(list(fighters.values()), campaign=campaign, warband=warband, rival_warband=rival_warband)


def kit(fighter):
    return sorted(Item.objects.filter(fighter=fighter).values_list("name", flat=True))


def arsenal(warband):
    return sorted(Item.objects.filter(warband=warband, fighter__isnull=True).values_list("name", flat=True))


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


def test_captured_and_ransomed_moves_ducats_and_counts_as_full_recovery(
    after, fighters, player, warband, rival_warband
):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    assert casualty(after, marcus).waiting_for == "ransom"
    with pytest.raises(PostGameError, match="ransom"):
        post_game_apply(player=after.player, by=player)

    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=20, by=player)
    post_game_apply(player=after.player, by=player)

    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    marcus.refresh_from_db()
    assert (warband.strongbox, rival_warband.strongbox) == (30, 50)
    assert marcus.status == Fighter.Status.ACTIVE
    assert marcus.battle_scars == 0  # RULING T-8: a paid ransom counts as Full Recovery
    assert kit(marcus) == ["Reliquary", "Trench Club"]


def test_the_apply_says_whose_ransom_moved_each_strongbox_in_its_history_context(
    after, fighters, player, warband, rival_warband
):
    marcus, ada = fighters["marcus"], fighters["ada"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk, ada.pk], by=player)
    enter(after, marcus, 1, 2, by=player)  # Captured
    enter(after, ada, 1, 2, by=player)  # Captured
    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=20, by=player)
    post_game_answer_ransom(player=after.player, fighter_id=ada.pk, paid=True, ransom=5, by=player)

    post_game_apply(player=after.player, by=player)

    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    assert (warband.strongbox, rival_warband.strongbox) == (25, 55)
    expected = {
        str(warband.pk): "ransom for Brother Marcus and Sister Ada",
        str(rival_warband.pk): "ransom for Brother Marcus and Sister Ada (from Iron Sepulchre)",
    }
    # The same context on both Strongbox changes, for the history feed (rosters.history) to read.
    for paying_or_receiving in (warband, rival_warband):
        context = last_context(paying_or_receiving)
        assert context["action"] == "post_game.apply"
        assert context["ransoms"] == expected


def test_a_ransom_of_nothing_and_an_unpaid_one_move_no_strongbox_and_say_no_ransom(
    after, fighters, player, warband
):
    marcus, ada = fighters["marcus"], fighters["ada"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk, ada.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    enter(after, ada, 1, 2, by=player)
    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=0, by=player)
    post_game_answer_ransom(player=after.player, fighter_id=ada.pk, paid=False, by=player)

    post_game_apply(player=after.player, by=player)

    context = last_context(marcus)  # ransomed for nothing: Full Recovery, and +1 XP for surviving
    assert context["action"] == "post_game.apply"
    assert "ransoms" not in context
    warband.refresh_from_db()
    assert warband.strongbox == 50


def test_captured_and_not_ransomed_is_executed(after, fighters, player, warband, rival_warband):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)

    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=False, by=player)
    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    warband.refresh_from_db()
    assert marcus.status == Fighter.Status.EXECUTED
    assert kit(marcus) == []
    assert warband.strongbox == 50


def test_a_ransom_larger_than_the_strongbox_is_refused_and_changes_nothing(after, fighters, player, warband):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)

    with pytest.raises(PostGameError, match="holds only 50 ducats"):
        post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=51, by=player)

    assert casualty(after, marcus).waiting_for == "ransom"
    warband.refresh_from_db()
    assert warband.strongbox == 50


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


# -- Experience -------------------------------------------------------------------------------------------------


def test_experience_counts_part_taken_glorious_deeds_and_the_organisers_adjustment(
    warband, make_fighter, campaign, rival_warband, player, organiser
):
    champion = make_fighter(warband, "Champion", elite=True, xp=1)
    benched = make_fighter(warband, "Benched", elite=True, xp=1)
    troop = make_fighter(warband, "Troop", xp=0)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_record_experience(
        player=after.player,
        by=player,
        answers={
            champion.pk: ExperienceAnswer(glorious_deeds=2, xp_adjustment=5),  # not the organiser: ignored
            benched.pk: ExperienceAnswer(took_part=False, glorious_deeds=1),
            troop.pk: ExperienceAnswer(glorious_deeds=1),
        },
    )
    post_game_record_experience(
        player=after.player,
        by=organiser,
        answers={champion.pk: ExperienceAnswer(glorious_deeds=2, xp_adjustment=-1)},
        adjust=True,
    )

    post_game_apply(player=after.player, by=player)

    for fighter in (champion, benched, troop):
        fighter.refresh_from_db()
    assert champion.xp == 1 + 1 + 2 - 1
    assert benched.xp == 1
    assert troop.xp == 1  # Glorious Deeds count for a Troop; the +1 is for ELITE fighters


def test_the_experience_step_shows_the_engines_award_in_words(
    warband, make_fighter, campaign, rival_warband, player, organiser
):
    champion = make_fighter(warband, "Champion", elite=True, xp=1)
    benched = make_fighter(warband, "Benched", elite=True, xp=1)
    wounded = make_fighter(warband, "Wounded", elite=True, xp=2, can_gain_xp=False)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_record_experience(
        player=after.player,
        by=organiser,
        answers={
            champion.pk: ExperienceAnswer(glorious_deeds=2, xp_adjustment=-1),
            benched.pk: ExperienceAnswer(took_part=False, glorious_deeds=1),
            wounded.pk: ExperienceAnswer(glorious_deeds=3, xp_adjustment=1),
        },
        adjust=True,
    )

    lines = {line.fighter.name: line for line in after.state().xp}

    assert (lines["Champion"].award.base, lines["Champion"].award.glorious_deeds) == (1, 2)
    assert lines["Champion"].xp_after == 1 + 1 + 2 - 1
    assert lines["Champion"].words == (
        "+1 for taking part and surviving as ELITE; +2 for Glorious Deeds The organiser adjusted it by -1."
    )
    assert (lines["Benched"].award.reason, lines["Benched"].total) == ("did_not_take_part", 0)
    assert lines["Benched"].deeds_entered == 1  # typed in, not counted
    assert lines["Benched"].words == "Did not take part: no XP."
    assert (lines["Wounded"].award.reason, lines["Wounded"].total) == ("cannot_gain_xp", 1)
    assert lines["Wounded"].words == (
        "no XP: it can no longer gain XP (Head Wound; RULING T-9) The organiser adjusted it by +1."
    )


def test_a_bitter_lessons_d66_says_what_it_is_while_its_d3_waits(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 6, 5, by=player)

    state = casualty(after, marcus)

    assert state.waiting_for == "d3"
    assert state.explanation == (
        "Brother Marcus: D66 65, Bitter Lessons — gains D3 extra XP; no Injury and no Scar. Roll the D3."
    )
    # Its Experience waits for the D3 too: only the organiser's adjustment would count so far.
    line = next(line for line in after.state().xp if line.id == marcus.pk)
    assert (line.survived, line.award.reason, line.total) == (None, "pending", 0)


def test_glorious_deeds_out_of_range_are_refused(after, fighters, player):
    with pytest.raises(PostGameError, match="Glorious Deeds"):
        post_game_record_experience(
            player=after.player,
            by=player,
            answers={fighters["marcus"].pk: ExperienceAnswer(glorious_deeds=11)},
        )


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


# -- Step 1: the Out of Action list ---------------------------------------------------------------------------------


def test_the_owner_corrects_the_out_of_action_list(after, fighters, warband, make_fighter, player):
    extra = make_fighter(warband, "Forgotten")
    post_game_set_out_of_action(player=after.player, fighter_ids=[fighters["marcus"].pk, extra.pk], by=player)

    marked = set(OutOfAction.objects.filter(player=after.player).values_list("fighter_id", flat=True))
    assert marked == {fighters["marcus"].pk, extra.pk}
    assert last_context(OutOfAction.objects.get(fighter=extra))["action"] == "post_game.out_of_action"


def test_a_fighter_already_rolled_for_stays_out_of_action(after, fighters, player):
    enter(after, fighters["troop"], 5, by=player)
    with pytest.raises(PostGameError, match="already rolled for Yeoman Kell"):
        post_game_set_out_of_action(player=after.player, fighter_ids=[fighters["marcus"].pk], by=player)
    assert OutOfAction.objects.filter(player=after.player).count() == 3


def test_a_fighter_of_another_warband_cannot_be_marked(after, rival_warband, make_fighter, player):
    stranger = make_fighter(rival_warband, "Stranger")
    with pytest.raises(PostGameError, match="not in Iron Sepulchre"):
        post_game_set_out_of_action(player=after.player, fighter_ids=[stranger.pk], by=player)


# -- Apply: once, in one transaction, with history; the game page's status -------------------------------------------


def full_game(after, fighters, player):
    enter(after, fighters["troop"], 1, by=player)
    enter(after, fighters["marcus"], 1, 4, by=player)
    enter(after, fighters["ada"], 2, 4, by=player)


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


def test_applying_ten_fighters_takes_at_most_40_queries(
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

    assert len(queries) <= 40, "\n".join(query["sql"][:160] for query in queries.captured_queries)
    statuses = dict(Fighter.objects.filter(pk__in=[f.pk for f in out]).values_list("name", "status"))
    assert statuses["Fighter 0"] == "dead"
    assert statuses["Fighter 5"] == "dead"
    assert statuses["Fighter 9"] == "unfit_for_duty"


# -- Revert ---------------------------------------------------------------------------------------------------------


def test_revert_then_the_wizard_starts_again_with_the_old_rolls_kept(after, fighters, player):
    full_game(after, fighters, player)
    applied = post_game_apply(player=after.player, by=player)

    post_game_revert(player=after.player, by=player)

    applied.refresh_from_db()
    after.refresh()
    assert applied.status == PostGame.Status.REVERTED
    assert after.player.post_game == GamePlayer.PostGame.PENDING
    assert DiceRoll.objects.count() == 3  # the old rolls stay in the dice log, tied to the reverted attempt
    state = after.state()
    assert state.post_game is None
    assert state.rolls_made == 0
    enter(after, fighters["troop"], 6, by=player)
    assert PostGame.objects.get(player=after.player, status=PostGame.Status.OPEN).attempt == 2
    assert last_context(fighters["marcus"])["action"] == "post_game.revert"


def test_revert_is_refused_once_the_warbands_next_game_is_recorded(after, fighters, player, warband):
    full_game(after, fighters, player)
    post_game_apply(player=after.player, by=player)
    game_with([], campaign=after.game.campaign, warband=warband, rival_warband=after.rival.warband, number=2)

    with pytest.raises(PostGameError, match="played Game 2 since"):
        post_game_revert(player=after.player, by=player)


def test_revert_keeps_xp_spent_since_the_apply(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 4, 4, by=player)
    post_game_apply(player=after.player, by=player)
    Fighter.objects.filter(pk=marcus.pk).update(xp=10)  # XP 4 after the Apply, then +6 on the roster

    post_game_revert(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.xp == 9  # only the Apply's +1 is taken back


def test_a_campaign_with_post_game_rolls_can_still_be_deleted(after, fighters, player, campaign):
    full_game(after, fighters, player)
    post_game_apply(player=after.player, by=player)

    campaign.delete()

    assert not DiceRoll.objects.exists()
    assert not PostGame.objects.exists()


def test_a_roll_a_post_game_used_cannot_be_deleted_on_its_own(after, fighters, player):
    made = enter(after, fighters["troop"], 4, by=player)
    with pytest.raises(RestrictedError):
        made.roll.dice_roll.delete()


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
