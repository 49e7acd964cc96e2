"""Tests for combat/rules/damage.py (seed 000): the Damage table, Harm, Injury, Incapacitation, Harsh Lessons
(Confusion: test_confusion.py). The rulings D-1 to D-11 are pinned in test_rulings.py."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import (
    Combatant,
    FriendlyModel,
    HarshLessons,
    confusion_tests_due,
    explain_damage,
    harm_bonus_dice,
    incapacitating_damage,
    inflict_damage,
    recover_harm,
)
from combat.tests.rules.strategies import combatants

# --- the worked examples of 000 "Damage Examples" ---------------------------------------------------------------


def test_example_one_brick_inflicts_4_damage_on_fidus_who_is_incapacitated():
    # "Brick [...] scored 4 Hits [...] this inflicts 4 Damage [...] Fidus' Endurance, which is 3 [...] the second
    # result on the table applies [...] so Fidus suffers an Injury and 1 Harm. A Good Boy only has 1 Health, so as
    # soon as Sam marks the first Injury Box, the model is Incapacitated".
    fidus = Combatant(endurance=3, health=1, name="Fidus")
    outcome = inflict_damage(fidus, 4)
    assert outcome.row == "injury"
    assert outcome.injuries_suffered == 1
    assert outcome.incapacitated
    assert outcome.after.incapacitated
    assert outcome.after.injuries == 1
    assert outcome.harm_suffered == 0  # moot once Incapacitated (RULING D-3)
    assert explain_damage(outcome) == (
        "Damage 4 ≥ Endurance 3: one Injury and 1 Harm — Fidus has 1 Health, so Fidus is Incapacitated "
        "and the Harm is moot (RULINGS D-3, D-8)."
    )


def test_example_one_fidus_friends_within_3_inches_make_confusion_tests():
    # "If she has any other Friendly models within 3", she'll have to make Confusion Tests for them."
    sequence = confusion_tests_due(
        incapacitated="fidus", friends_within_3=[FriendlyModel("sam-guard", intelligence=5)]
    )
    assert [friend.id for friend in sequence.remaining] == ["sam-guard"]
    assert not sequence.done


def test_example_two_double_joe_inflicts_2_damage_on_brick_who_takes_1_harm():
    # "she only scored 2 Hits [...] using Brick's Endurance of 6, sees that the third result applies [...] This
    # means Brick takes 1 Harm; not enough to take him out of the fight".
    brick = Combatant(endurance=6, health=2, name="Brick")
    outcome = inflict_damage(brick, 2)
    assert outcome.row == "harm"
    assert outcome.harm_suffered == 1
    assert outcome.injuries_suffered == 0
    assert not outcome.incapacitated
    assert outcome.after.harm == 1
    assert explain_damage(outcome) == "Damage 2 < Endurance 6: 1 Harm — Brick now has 1 Harm."


# --- the table -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "row"), [(1, "harm"), (3, "harm"), (4, "injury"), (7, "injury"), (8, "incapacitated")]
)
def test_the_table_row_follows_damage_against_endurance(damage, row):
    assert inflict_damage(Combatant(endurance=4, health=3), damage).row == row


def test_at_least_double_endurance_incapacitates_at_once():
    model = Combatant(endurance=3, health=3, harm=1)
    outcome = inflict_damage(model, 6)
    assert outcome.row == "incapacitated"
    assert outcome.incapacitated
    assert (outcome.harm_suffered, outcome.excess_harm, outcome.injuries_suffered) == (0, 0, 0)
    assert outcome.after.harm == 1
    assert explain_damage(outcome, name="Brick") == (
        "Damage 6 ≥ double Endurance 3: Brick is Incapacitated (Damage Resolution table)."
    )


def test_an_injury_that_leaves_health_to_spare_adds_the_harm():
    outcome = inflict_damage(Combatant(endurance=3, health=3, harm=1, name="Brick"), 3)
    assert outcome.after.injuries == 1
    assert outcome.after.harm == 2
    assert not outcome.incapacitated
    assert explain_damage(outcome) == (
        "Damage 3 ≥ Endurance 3: one Injury and 1 Harm — Brick now has 2 Harm and 1 of 3 Injuries."
    )


def test_excess_harm_is_explained_with_its_ruling():
    outcome = inflict_damage(Combatant(endurance=5, health=3, harm=3, name="Brick"), 1)
    assert explain_damage(outcome) == (
        "Damage 1 < Endurance 5: 1 Harm — Brick is already at the Harm Limit of 3, so the Excess Harm is an Injury "
        "(RULING D-2); Brick now has 3 Harm and 1 of 3 Injuries."
    )
    assert outcome.rulings == ("D-2",)


def test_incapacitation_by_injuries_of_a_model_with_more_health_is_explained():
    outcome = inflict_damage(Combatant(endurance=2, health=2, harm=3, injuries=0, name="Brick"), 2)
    assert outcome.injuries_suffered == 2
    assert explain_damage(outcome) == (
        "Damage 2 ≥ Endurance 2: one Injury and 1 Harm — Brick is already at the Harm Limit of 3, so the Excess Harm"
        " is a second Injury (RULING D-2); Brick's 2 Injuries reach Health 2, so Brick is Incapacitated (RULING D-8)."
    )


def test_no_damage_is_explained():
    assert explain_damage(inflict_damage(Combatant(endurance=3), 0)) == (
        "No Damage: nothing happens, not even Harm (RULING D-5)."
    )


@pytest.mark.parametrize("damage", [-1, -10])
def test_negative_damage_is_refused_naming_the_value(damage):
    with pytest.raises(ValueError, match=f"damage must be 0 or more, got {damage}"):
        inflict_damage(Combatant(endurance=3), damage)


@pytest.mark.parametrize("damage", [1.5, "3", None, True])
def test_damage_that_is_not_a_whole_number_is_refused(damage):
    with pytest.raises(ValueError, match="damage must be 0 or more"):
        inflict_damage(Combatant(endurance=3), damage)


def test_damage_to_a_model_already_incapacitated_is_refused():
    fidus = Combatant(endurance=3, injuries=1, incapacitated=True, name="Fidus")
    with pytest.raises(ValueError, match="Fidus is already Incapacitated"):
        inflict_damage(fidus, 2)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"endurance": 0}, "endurance must be 1 or more, got 0"),
        ({"endurance": 3, "health": 0}, "health must be 1 or more, got 0"),
        ({"endurance": 3, "harm": -1}, "harm must be 0 or more, got -1"),
        ({"endurance": 3, "harm": 4}, "harm 4 is above the Harm Limit 3"),
        ({"endurance": 3, "injuries": 2, "health": 1}, "injuries 2 are more than health 1"),
        ({"endurance": 3, "injuries": 1, "health": 1}, "injuries 1 equal health 1"),
        ({"endurance": 3, "fatigue": 3}, "fatigue must be 0 to 2, got 3"),
        ({"endurance": 3, "harm_limit": -1}, "harm_limit must be 0 or more, got -1"),
    ],
)
def test_an_impossible_combatant_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        Combatant(**fields)


def test_harm_gives_the_attacker_bonus_dice():
    # 000 "Harm": "the Attacking model gains a number of Bonus Dice equal to the amount of Harm on the Target".
    assert harm_bonus_dice(Combatant(endurance=3, harm=2)) == 2
    assert harm_bonus_dice(Combatant(endurance=3)) == 0


def test_double_the_endurance_is_the_least_damage_that_incapacitates_outright():
    # 000 "Damage Resolution", RULING D-1: "at least double the model's Endurance. The model is Incapacitated."
    brick = Combatant(endurance=6, health=3)
    assert incapacitating_damage(brick) == 12
    assert inflict_damage(brick, incapacitating_damage(brick)).row == "incapacitated"
    assert inflict_damage(brick, incapacitating_damage(brick) - 1).row == "injury"


def test_recovering_harm_lowers_it_but_not_below_zero():
    # 000 "Harm": "When a model Recovers Harm, adjust its Harm Token accordingly."
    model = Combatant(endurance=3, harm=2)
    assert recover_harm(model, 1).harm == 1
    assert recover_harm(model, 5).harm == 0
    with pytest.raises(ValueError, match="amount must be 0 or more, got -1"):
        recover_harm(model, -1)


# --- Harsh Lessons ----------------------------------------------------------------------------------------------


def test_harsh_lessons_gives_1_xp_for_the_first_incapacitated_champion_of_a_crew():
    lessons = HarshLessons()
    champion = Combatant(endurance=4, health=2, injuries=2, champion=True, incapacitated=True)
    assert lessons.award("raiders", champion) == 1
    assert lessons.award("raiders", champion) == 0
    assert lessons.award("settlers", champion) == 1
    assert lessons.crews == frozenset({"raiders", "settlers"})


def test_harsh_lessons_ignores_grunts_and_models_still_standing():
    lessons = HarshLessons()
    grunt = Combatant(endurance=3, injuries=1, incapacitated=True)
    standing_champion = Combatant(endurance=4, health=2, champion=True)
    assert lessons.award("raiders", grunt) == 0
    assert lessons.award("raiders", standing_champion) == 0
    assert not lessons.has_earned("raiders")


def test_harsh_lessons_can_be_rebuilt_from_what_the_game_recorded():
    lessons = HarshLessons(earned=["raiders"])
    champion = Combatant(endurance=4, injuries=1, champion=True, incapacitated=True)
    assert lessons.award("raiders", champion) == 0
    assert lessons.has_earned("raiders")


def test_harsh_lessons_follows_an_incapacitation_from_inflict_damage():
    champion = Combatant(endurance=3, health=1, champion=True, name="Brick")
    outcome = inflict_damage(champion, 3)
    assert HarshLessons().award("raiders", outcome.after) == 1


# --- properties --------------------------------------------------------------------------------------------------


@given(combatants(), st.integers(0, 20))
def test_harm_never_exceeds_the_harm_limit(target, damage):
    after = inflict_damage(target, damage).after
    if target.harm_limit is not None:
        assert after.harm <= target.harm_limit


@given(combatants(), st.integers(0, 20))
def test_injuries_never_exceed_health(target, damage):
    assert inflict_damage(target, damage).after.injuries <= target.health


@given(combatants(), st.integers(0, 20))
def test_the_outcome_adds_up(target, damage):
    outcome = inflict_damage(target, damage)
    after = outcome.after
    assert after.injuries - target.injuries == outcome.injuries_suffered
    assert after.harm - target.harm == outcome.harm_suffered
    assert outcome.excess_harm <= outcome.injuries_suffered
    assert outcome.incapacitated == after.incapacitated
    assert outcome.incapacitated == (outcome.row == "incapacitated" or after.injuries == target.health)
    assert (after.endurance, after.health, after.fatigue, after.champion) == (
        target.endurance,
        target.health,
        target.fatigue,
        target.champion,
    )
    assert explain_damage(outcome).endswith(".")


@given(combatants(), st.lists(st.integers(0, 12), max_size=6))
def test_a_run_of_damage_keeps_every_combatant_valid(target, amounts):
    for amount in amounts:
        if target.incapacitated:
            break
        target = inflict_damage(target, amount).after
        # Rebuilding it runs every check a Combatant has.
        Combatant(
            endurance=target.endurance,
            health=target.health,
            harm=target.harm,
            harm_limit=target.harm_limit,
            injuries=target.injuries,
            fatigue=target.fatigue,
            champion=target.champion,
            incapacitated=target.incapacitated,
        )
