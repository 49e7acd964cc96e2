"""Tests for combat/rules/experience.py: the XP a fighter earns from a game (CAMPAIGN_PHASE.md step 2, RULING X-4;
TRAUMA_TABLE.md 22 and 65; RULING T-9). The campaign rulings' check (test_campaign.py) finds X-4's tests here."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from combat.rules import (
    EXPERIENCE_REASONS,
    Casualty,
    ExperienceAward,
    ScriptedDice,
    post_game_experience,
    trauma_step,
)


def award(**fields) -> ExperienceAward:
    values = {"elite": True, "took_part": True, "survived": True, "can_gain_xp": True, **fields}
    return post_game_experience(**values)


@st.composite
def experience_inputs(draw) -> dict:
    """Any valid input: a D3 of Bitter Lessons only for an ELITE fighter that took part and survived."""
    elite = draw(st.booleans())
    took_part = draw(st.booleans())
    survived = draw(st.sampled_from((True, False, None)))
    rolled_bitter_lessons = elite and took_part and survived is True
    return {
        "elite": elite,
        "took_part": took_part,
        "survived": survived,
        "can_gain_xp": draw(st.booleans()),
        "glorious_deeds": draw(st.integers(0, 20)),
        "bitter_lessons": draw(st.integers(0, 3)) if rolled_bitter_lessons else 0,
        "adjustment": draw(st.integers(-20, 20)),
    }


# --- the rule, case by case (RULING X-4) --------------------------------------------------------------------------


def test_an_elite_fighter_that_took_part_and_survived_gains_1_xp():
    result = award()

    assert result == ExperienceAward(1, 0, 0, 0, 1, "earned", ("X-4",))


def test_glorious_deeds_bitter_lessons_and_the_adjustment_add_to_the_1_xp():
    result = award(glorious_deeds=2, bitter_lessons=3, adjustment=-1)

    # RULING X-4: two Glorious Deeds give the same +1 as one.
    assert (result.base, result.glorious_deeds, result.bitter_lessons, result.adjustment) == (1, 1, 3, -1)
    assert result.total == 1 + 1 + 3 - 1
    assert result.earned == 5
    assert result.reason == "earned"


def test_x_4_an_elite_model_gains_1_for_taking_part_and_1_more_for_any_glorious_deeds():
    assert award().total == 1
    for deeds in (1, 2, 5):
        result = award(glorious_deeds=deeds)
        assert (result.base, result.glorious_deeds, result.total) == (1, 1, 2)
        assert result.rulings == ("X-4",)


def test_x_4_an_elite_model_taken_out_of_action_that_survives_still_gains_its_xp():
    # 41 is Full Recovery: taken Out of Action, it survives, so it took part and survived.
    (outcome,) = trauma_step([Casualty("hero", elite=True)], ScriptedDice([4, 1]))

    result = post_game_experience(
        elite=True,
        took_part=True,
        survived=outcome.survived,
        can_gain_xp=outcome.can_gain_xp,
        glorious_deeds=3,
    )

    assert (result.base, result.glorious_deeds, result.total) == (1, 1, 2)


def test_x_4_a_troop_gains_no_xp_whatever_its_glorious_deeds():
    for deeds in (0, 1, 4):
        result = award(elite=False, glorious_deeds=deeds)
        assert result == ExperienceAward(0, 0, 0, 0, 0, "earned", ("X-4",))


def test_x_4_a_troops_only_xp_is_the_organisers_adjustment():
    result = award(elite=False, glorious_deeds=2, adjustment=1)

    assert (result.base, result.glorious_deeds, result.adjustment, result.total) == (0, 0, 1, 1)
    assert result.earned == 0


def test_a_troop_with_nothing_to_count_earns_nothing():
    result = award(elite=False)

    assert (result.total, result.reason) == (0, "earned")


def test_a_fighter_removed_from_the_roster_gains_nothing_not_even_the_organisers_adjustment():
    result = award(survived=False, glorious_deeds=3, adjustment=2)

    assert result == ExperienceAward(0, 0, 0, 0, 0, "removed")


def test_a_fighter_that_did_not_take_part_gains_only_the_organisers_adjustment():
    result = award(took_part=False, glorious_deeds=2, adjustment=1)

    assert result == ExperienceAward(0, 0, 0, 1, 1, "did_not_take_part")


def test_until_its_trauma_step_is_settled_only_the_adjustment_counts():
    result = award(survived=None, glorious_deeds=2, adjustment=-2)

    assert result == ExperienceAward(0, 0, 0, -2, -2, "pending")


def test_a_head_wound_stops_every_xp_but_the_organisers_adjustment():
    # TRAUMA_TABLE.md 22 Head Wound: "can no longer gain XP" (also when suffered in this very game).
    result = award(can_gain_xp=False, glorious_deeds=2, adjustment=1)

    assert result == ExperienceAward(0, 0, 0, 1, 1, "cannot_gain_xp", ("T-9",))


def test_the_d3_of_bitter_lessons_counts_nothing_for_a_fighter_that_cannot_gain_xp():
    # RULING T-9: the engine rolls no D3 then; one passed in anyway is not counted.
    result = award(can_gain_xp=False, bitter_lessons=2)

    assert (result.bitter_lessons, result.total, result.rulings) == (0, 0, ("T-9",))


def test_a_bitter_lessons_outcome_of_the_trauma_step_gives_its_d3_and_the_1_xp():
    # 65 is Bitter Lessons (TRAUMA_TABLE.md), then its D3 rolls a 2.
    (outcome,) = trauma_step([Casualty("hero", elite=True)], ScriptedDice([6, 5, 2]))

    result = post_game_experience(
        elite=outcome.elite,
        took_part=True,
        survived=outcome.survived,
        can_gain_xp=outcome.can_gain_xp,
        bitter_lessons=outcome.xp_gained,
    )

    assert (result.base, result.bitter_lessons, result.total) == (1, 2, 3)
    assert "X-4" in result.rulings


def test_a_head_wound_outcome_of_the_trauma_step_earns_no_xp_that_game():
    # 22 is Head Wound: the fighter survives but can no longer gain XP, so not even its +1.
    (outcome,) = trauma_step([Casualty("hero", elite=True)], ScriptedDice([2, 2]))

    result = post_game_experience(
        elite=True,
        took_part=True,
        survived=outcome.survived,
        can_gain_xp=outcome.can_gain_xp,
        glorious_deeds=1,
    )

    assert (result.total, result.reason) == (0, "cannot_gain_xp")


# --- bad input names the value ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"elite": 1}, "elite must be True or False, got 1"),
        ({"took_part": "yes"}, "took_part must be True or False, got 'yes'"),
        ({"survived": 0}, "survived must be True or False, got 0"),
        ({"can_gain_xp": None}, "can_gain_xp must be True or False, got None"),
        ({"glorious_deeds": -1}, "glorious_deeds must be 0 or more, got -1"),
        ({"glorious_deeds": 1.5}, "glorious_deeds must be 0 or more, got 1.5"),
        ({"bitter_lessons": 4}, "bitter_lessons must be a D3 result, 0 to 3, got 4"),
        ({"bitter_lessons": -1}, "bitter_lessons must be a D3 result, 0 to 3, got -1"),
        ({"adjustment": "2"}, "adjustment must be a whole number, got '2'"),
        ({"adjustment": True}, "adjustment must be a whole number, got True"),
        ({"elite": False, "bitter_lessons": 2}, "bitter_lessons 2 needs an ELITE fighter"),
        ({"survived": False, "bitter_lessons": 1}, "bitter_lessons 1 needs an ELITE fighter"),
        ({"took_part": False, "bitter_lessons": 3}, "bitter_lessons 3 needs an ELITE fighter"),
    ],
)
def test_bad_input_is_refused_naming_the_value(fields, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        award(**fields)


def test_an_award_whose_total_is_not_the_sum_of_its_parts_is_refused():
    with pytest.raises(ValueError, match="total must be the sum of the parts \\(3\\), got 4"):
        ExperienceAward(1, 2, 0, 0, 4, "earned")
    with pytest.raises(ValueError, match="reason must be one of"):
        ExperienceAward(0, 0, 0, 0, 0, "lucky")


# --- properties ---------------------------------------------------------------------------------------------------


@given(experience_inputs())
def test_the_total_is_the_sum_of_the_parts(inputs):
    result = post_game_experience(**inputs)

    assert result.total == result.base + result.glorious_deeds + result.bitter_lessons + result.adjustment
    assert result.reason in EXPERIENCE_REASONS


@given(experience_inputs())
def test_the_total_is_never_negative_unless_the_adjustment_makes_it_so(inputs):
    result = post_game_experience(**inputs)

    assert result.earned >= 0
    if inputs["adjustment"] >= 0:
        assert result.total >= 0


@given(experience_inputs())
def test_a_fighter_that_cannot_gain_xp_gains_nothing_but_the_organisers_adjustment(inputs):
    inputs["can_gain_xp"] = False

    result = post_game_experience(**inputs)

    assert result.earned == 0
    assert result.total == (0 if inputs["survived"] is False else inputs["adjustment"])


@given(experience_inputs())
def test_a_fighter_removed_from_the_roster_gains_nothing_at_all(inputs):
    inputs["survived"], inputs["bitter_lessons"] = False, 0

    assert post_game_experience(**inputs) == ExperienceAward(0, 0, 0, 0, 0, "removed")


@given(experience_inputs())
def test_only_an_elite_fighter_that_took_part_survived_and_can_gain_xp_gets_the_1_xp(inputs):
    result = post_game_experience(**inputs)

    deserves = (
        inputs["elite"] and inputs["took_part"] and inputs["survived"] is True and inputs["can_gain_xp"]
    )
    assert result.base == (1 if deserves else 0)


@given(experience_inputs(), st.integers(-20, 20))
def test_the_adjustment_moves_the_total_by_exactly_itself_unless_the_fighter_is_removed(inputs, adjustment):
    assume(inputs["survived"] is not False)
    without = post_game_experience(**{**inputs, "adjustment": 0})

    result = post_game_experience(**{**inputs, "adjustment": adjustment})

    assert result.total - without.total == adjustment
    assert result.earned == without.earned


@given(experience_inputs(), st.integers(1, 5))
def test_more_glorious_deeds_never_give_less_xp(inputs, more):
    fewer = post_game_experience(**inputs)

    result = post_game_experience(**{**inputs, "glorious_deeds": inputs["glorious_deeds"] + more})

    assert result.total >= fewer.total
    if fewer.reason == "earned":
        # RULING X-4: only an ELITE model's first Glorious Deed adds XP, and only 1.
        first_deed = inputs["elite"] and inputs["glorious_deeds"] == 0
        assert result.total == fewer.total + (1 if first_deed else 0)


@given(experience_inputs())
def test_x_4_the_game_gives_at_most_1_xp_for_glorious_deeds_and_a_troop_nothing(inputs):
    result = post_game_experience(**inputs)

    assert result.glorious_deeds in (0, 1)
    assert result.glorious_deeds == (1 if result.base and inputs["glorious_deeds"] else 0)
    if not inputs["elite"]:
        assert result.earned == 0
    assert result.earned <= 2 + inputs["bitter_lessons"]


@given(experience_inputs())
def test_the_same_input_always_gives_the_same_award(inputs):
    assert post_game_experience(**inputs) == post_game_experience(**inputs)
