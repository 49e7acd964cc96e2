"""Tests for combat/rules/campaign_promotion.py: the Promotion Pool, its assignment, its rolls and their exact odds
(CAMPAIGN_PHASE.md "Promotions (Troops becoming ELITE)"; RULINGS P-1 to P-6)."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat import rules
from combat.rules import (
    AUTOMATIC_AFTER,
    MAX_ELITE,
    Promotion,
    PromotionResult,
    ScriptedDice,
    check_promotion_dice,
    dice_until_automatic,
    hired_not_promoted,
    promote,
    promotion_chance,
    promotion_dice_problems,
    promotion_odds,
    promotion_pool,
    roll_promotions,
)
from combat.rules.campaign_promotion import (
    PoolInputs,
    PoolModel,
    may_take_promotion_dice,
    promotion_pool_inputs,
)

from .strategies import DrawnDice

# --- the pool (P-1, P-5) --------------------------------------------------------------------------------------


def test_p_1_the_pool_is_1_plus_a_win_plus_each_glorious_deed_plus_extra_dice():
    assert promotion_pool(won=False, glorious_deeds=0, elite_count=2) == 1
    assert promotion_pool(won=True, glorious_deeds=0, elite_count=2) == 2
    assert promotion_pool(won=True, glorious_deeds=3, elite_count=2, extra=1) == 6


def test_p_5_six_elite_models_roll_no_promotion_dice():
    assert MAX_ELITE == 6
    assert promotion_pool(won=True, glorious_deeds=4, elite_count=6, extra=2) == 0
    assert promotion_pool(won=True, glorious_deeds=4, elite_count=7) == 0
    assert promotion_pool(won=False, glorious_deeds=0, elite_count=5) == 1


def test_the_pool_refuses_bad_counts_naming_them():
    with pytest.raises(ValueError, match="glorious_deeds must be 0 or more, got -1"):
        promotion_pool(won=False, glorious_deeds=-1, elite_count=0)
    with pytest.raises(ValueError, match="won must be True or False, got 1"):
        promotion_pool(won=1, glorious_deeds=0, elite_count=0)
    with pytest.raises(ValueError, match="extra must be 0 or more, got -3"):
        promotion_pool(won=False, glorious_deeds=0, elite_count=0, extra=-3)


# --- the assignment (P-2) -------------------------------------------------------------------------------------

ELIGIBLE = {"ash": False, "bo": True, "cy": False}  # bo performed a Glorious Deed


def test_p_2_at_most_2_dice_a_model_3_after_a_glorious_deed_until_each_has_2():
    check_promotion_dice({"ash": 2, "bo": 3}, pool=5, eligible=ELIGIBLE)
    check_promotion_dice({"ash": 1}, pool=5, eligible=ELIGIBLE)  # dice need not all be assigned
    with pytest.raises(
        ValueError, match=r"'ash' has 3 Promotion Dice but may have 2 without a Glorious Deed"
    ):
        check_promotion_dice({"ash": 3, "bo": 1}, pool=5, eligible=ELIGIBLE)
    with pytest.raises(ValueError, match=r"'bo' has 4 Promotion Dice but may have 3 with its Glorious Deed"):
        check_promotion_dice({"bo": 4}, pool=5, eligible=ELIGIBLE)


def test_p_2_once_each_has_2_no_model_may_have_2_dice_more_than_another():
    check_promotion_dice({"ash": 3, "bo": 3, "cy": 2}, pool=8, eligible=ELIGIBLE)
    check_promotion_dice({"ash": 3, "bo": 3, "cy": 3}, pool=9, eligible=ELIGIBLE)
    with pytest.raises(ValueError, match=r"'ash' has 4 Promotion Dice, 2 or more than another model's 2"):
        check_promotion_dice({"ash": 4, "bo": 2, "cy": 2}, pool=8, eligible=ELIGIBLE)


def test_p_2_assigning_to_a_model_that_is_not_eligible_is_an_error():
    with pytest.raises(ValueError, match="'dee' may not be promoted, so it cannot be given Promotion Dice"):
        check_promotion_dice({"dee": 1}, pool=3, eligible=ELIGIBLE)


def test_the_assignment_may_not_pass_the_pool_nor_give_negative_dice():
    assert promotion_dice_problems({"ash": 2, "bo": 2}, pool=3, eligible=ELIGIBLE) == (
        "4 Promotion Dice are assigned but the pool has 3",
    )
    with pytest.raises(ValueError, match="'ash' must be given 0 dice or more, got -1"):
        check_promotion_dice({"ash": -1}, pool=3, eligible=ELIGIBLE)
    with pytest.raises(ValueError, match="pool must be 0 or more, got -1"):
        check_promotion_dice({}, pool=-1, eligible=ELIGIBLE)
    with pytest.raises(
        ValueError, match="assignment and eligible must be mappings of model ids, got list and dict"
    ):
        check_promotion_dice(["ash"], pool=1, eligible=ELIGIBLE)
    with pytest.raises(ValueError, match=r"eligible\['ash'\] must be True or False"):
        check_promotion_dice({}, pool=1, eligible={"ash": "no"})


def test_every_breach_is_named_at_once():
    assert promotion_dice_problems({"ash": 3, "bo": 4, "dee": 1}, pool=5, eligible=ELIGIBLE) == (
        "'dee' may not be promoted, so it cannot be given Promotion Dice (RULING P-2)",
        "7 Promotion Dice are assigned but the pool has 5",
        "'ash' has 3 Promotion Dice but may have 2 without a Glorious Deed until every eligible model has 2 "
        "(RULING P-2)",
        "'bo' has 4 Promotion Dice but may have 3 with its Glorious Deed until every eligible model has 2 "
        "(RULING P-2)",
    )


# --- the rolls (P-3, P-4) -------------------------------------------------------------------------------------


def test_p_3_the_first_6_promotes_and_the_dice_left_are_not_rolled():
    dice = ScriptedDice([3, 6, 6])
    result = roll_promotions(["ash", "bo", "bo"], dice, failed_before=0)
    assert result == PromotionResult(promoted="bo", rolls=(("ash", 3), ("bo", 6)), failed_after=0)
    assert dice.remaining == (6,)


def test_no_6_promotes_no_one_and_adds_every_failure_to_the_tally():
    result = roll_promotions(["ash", "ash"], ScriptedDice([1, 5]), failed_before=1)
    assert result == PromotionResult(promoted=None, rolls=(("ash", 1), ("ash", 5)), failed_after=3)


def test_p_4_after_5_failures_in_a_row_the_next_die_succeeds_without_a_roll():
    dice = ScriptedDice([2, 2])
    result = roll_promotions(["ash", "bo", "cy"], dice, failed_before=3)
    assert result == PromotionResult(
        promoted="cy", rolls=(("ash", 2), ("bo", 2), ("cy", None)), failed_after=0
    )
    assert len(dice.log) == 2  # the automatic success is not rolled
    assert roll_promotions(["bo"], ScriptedDice([]), failed_before=5) == PromotionResult(
        "bo", (("bo", None),), 0
    )


def test_p_6_the_success_of_a_head_wounded_elite_model_ends_the_rolling_like_a_promotion():
    # The engine says who succeeded; whether that promotes or restores XP gain is the caller's (RULING P-6).
    result = roll_promotions(["hero", "ash"], ScriptedDice([6, 6]), failed_before=0)
    assert result == PromotionResult("hero", (("hero", 6),), 0)


def test_the_tally_is_0_to_5_and_the_order_is_model_ids():
    with pytest.raises(ValueError, match="failed_before must be 0 to 5, got 6"):
        roll_promotions(["ash"], ScriptedDice([1]), failed_before=6)
    with pytest.raises(ValueError, match="order must be a sequence of model ids"):
        roll_promotions("ash", ScriptedDice([1]), failed_before=0)


@given(st.data(), st.lists(st.sampled_from(["ash", "bo", "cy"]), max_size=9), st.integers(0, 5))
def test_a_promotion_roll_never_promotes_two_models(data, order, failed_before):
    dice = DrawnDice(data)
    result = roll_promotions(order, dice, failed_before=failed_before)
    successes = [face for _, face in result.rolls if face is None or face == 6]
    assert len(successes) <= 1
    if result.promoted is None:
        assert len(result.rolls) == len(order)
        assert result.failed_after == failed_before + len(order) <= 5
    else:
        assert successes == [result.rolls[-1][1]]  # the success is the last die: nothing is rolled after it
        assert result.promoted == result.rolls[-1][0]
        assert result.failed_after == 0
    assert [model for model, _ in result.rolls] == order[: len(result.rolls)]
    assert [face for _, face in result.rolls if face is not None] == dice.faces


def test_p_7_a_promoted_model_gains_the_elite_keyword_and_starts_at_0_xp():
    assert promote(keywords={"TROOP", "ANOINTED"}) == Promotion(
        keywords=frozenset({"TROOP", "ANOINTED", "ELITE"}), xp=0
    )
    assert promote(keywords=[]) == Promotion(frozenset({"ELITE"}), 0)
    with pytest.raises(ValueError, match="a model with the ELITE keyword is not promoted"):
        promote(keywords=["elite"])  # a Head-Wounded ELITE model's success restores XP gain (P-6)
    with pytest.raises(ValueError, match="keywords must be a collection of keywords, got 'TROOP'"):
        promote(keywords="TROOP")


# --- the exact odds -------------------------------------------------------------------------------------------


def test_the_chance_of_a_promotion_counts_the_automatic_success():
    assert promotion_chance(dice=0, failed_before=0) == 0
    assert promotion_chance(dice=1, failed_before=0) == Fraction(1, 6)
    assert promotion_chance(dice=2, failed_before=0) == Fraction(11, 36)
    assert promotion_chance(dice=3, failed_before=3) == 1  # the third die is rolled at a tally of 5
    assert promotion_chance(dice=1, failed_before=5) == 1
    assert promotion_chance(dice=2, failed_before=3) == Fraction(11, 36)


def test_each_models_chance_follows_the_rolling_order():
    assert promotion_odds(["ash", "bo", "ash"], failed_before=3) == {
        "ash": Fraction(1, 6) + Fraction(25, 36),
        "bo": Fraction(5, 36),
    }
    assert promotion_odds([], failed_before=0) == {}
    with pytest.raises(ValueError, match="dice must be 0 or more, got -1"):
        promotion_chance(dice=-1, failed_before=0)


def _brute_force(order, failed_before):
    """Every face of every die, each way equally likely, through roll_promotions itself."""
    odds = dict.fromkeys(order, Fraction(0))
    ways = list(product(range(1, 7), repeat=len(order)))
    for faces in ways:
        promoted = roll_promotions(order, ScriptedDice(faces), failed_before=failed_before).promoted
        if promoted is not None:
            odds[promoted] += Fraction(1, len(ways))
    return odds


# Enumerating every face is slow on a busy machine: no per-example deadline.
@settings(deadline=None)
@given(st.lists(st.sampled_from(["ash", "bo", "cy"]), max_size=4), st.integers(0, 5))
def test_the_odds_agree_with_every_face_of_the_dice(order, failed_before):
    odds = promotion_odds(order, failed_before=failed_before)
    assert odds == _brute_force(order, failed_before)
    assert sum(odds.values(), Fraction(0)) == promotion_chance(dice=len(order), failed_before=failed_before)
    assert 0 <= promotion_chance(dice=len(order), failed_before=failed_before) <= 1


# --- the automatic success, counted from now (P-4) -------------------------------------------------------------


def test_p_4_the_die_that_promotes_without_a_roll_is_counted_from_the_tally():
    assert AUTOMATIC_AFTER == 5
    assert dice_until_automatic(failed_before=5) == 1
    assert dice_until_automatic(failed_before=4) == 2
    assert dice_until_automatic(failed_before=0) == 6


@pytest.mark.parametrize("tally", [-1, 6, "3", None])
def test_p_4_a_tally_outside_0_to_5_is_refused_when_counting_to_the_automatic_success(tally):
    with pytest.raises(ValueError, match="failed_before"):
        dice_until_automatic(failed_before=tally)


@given(st.integers(min_value=0, max_value=5))
def test_p_4_the_counted_die_is_the_first_automatic_success_of_roll_promotions(tally):
    until = dice_until_automatic(failed_before=tally)
    # Every die rolled before it fails: the engine gives the automatic success on exactly that die.
    result = roll_promotions(["m"] * until, ScriptedDice([1] * (until - 1)), failed_before=tally)
    assert result.rolls[-1] == ("m", None)
    assert len(result.rolls) == until


@pytest.mark.parametrize(
    ("keywords", "hired"),
    [
        (["MERCENARY"], True),
        (["PILGRIM", " ally "], True),  # read as the roster keeps keywords: any case, spaces trimmed
        (["PILGRIM"], False),
        ([], False),
        (["MERCENARY-HUNTER"], False),  # a keyword of its own, not MERCENARY
    ],
)
def test_allies_and_mercenaries_are_never_promoted(keywords, hired):
    # CAMPAIGN_PHASE.md, Promotions: "Some fighter types can never be promoted ..., nor can allies and mercenaries."
    assert hired_not_promoted(keywords) is hired


# Who may take Promotion Dice and what the pool counts (CAMPAIGN_PHASE.md, "Promotions"; RULINGS P-1, P-5, P-6).


@pytest.mark.parametrize(
    ("model", "may"),
    [
        (
            {"elite": False, "can_gain_xp": True},
            True,
        ),  # "Dice are assigned to the Troops that may be promoted"
        ({"elite": True, "can_gain_xp": True}, False),  # already ELITE
        ({"elite": True, "can_gain_xp": False}, True),  # RULING P-6: a Head-Wounded ELITE model
        ({"elite": False, "can_gain_xp": True, "never_promoted": True}, False),  # "can never be promoted"
        ({"elite": False, "can_gain_xp": True, "keywords": ["mercenary"]}, False),  # "nor ... mercenaries"
        ({"elite": False, "can_gain_xp": True, "keywords": ["ALLY"]}, False),  # "nor can allies"
        ({"elite": False, "can_gain_xp": True, "dismissed": True}, False),  # leaves the warband
        ({"elite": True, "can_gain_xp": False, "dismissed": True}, False),
        ({"elite": False, "can_gain_xp": False, "keywords": ["HEAVY"]}, True),
    ],
)
def test_who_may_take_promotion_dice(model, may):
    assert may_take_promotion_dice(**model) is may


@pytest.mark.parametrize("name", ["elite", "can_gain_xp", "never_promoted", "dismissed"])
def test_who_may_take_promotion_dice_refuses_an_answer_that_is_not_true_or_false(name):
    model = {"elite": False, "can_gain_xp": True, name: 0}
    with pytest.raises(ValueError, match=f"{name} must be True or False, got 0"):
        may_take_promotion_dice(**model)


def test_p_5_a_dismissed_or_removed_elite_model_does_not_count_toward_the_6():
    """RULING P-5: "With 6 ELITE models on the roster no Promotion Dice are rolled"; one dismissed (or removed by
    its Trauma Step) leaves 5 on the roster, so the pool is rolled."""
    six = [PoolModel(elite=True) for _ in range(6)]
    assert promotion_pool_inputs(six) == PoolInputs(glorious_deeds=0, elite_count=6)
    one_dismissed = [*six[:5], PoolModel(elite=True, dismissed=True)]
    assert promotion_pool_inputs(one_dismissed).elite_count == 5
    one_removed = [*six[:5], PoolModel(elite=True, removed=True)]
    assert promotion_pool_inputs(one_removed).elite_count == 5
    inputs = promotion_pool_inputs(one_dismissed)
    assert (
        rules.promotion_pool(won=False, glorious_deeds=inputs.glorious_deeds, elite_count=inputs.elite_count)
        == 1
    )


def test_p_1_every_glorious_deed_of_the_warband_counts_whatever_became_of_the_model():
    """RULING P-1: "+1 per Glorious Deed of the warband"; a Troop's Deeds count here, not in its XP (X-4)."""
    models = [
        PoolModel(elite=False, glorious_deeds=2),
        PoolModel(elite=True, glorious_deeds=1),
        PoolModel(elite=False, glorious_deeds=1, removed=True),
        PoolModel(elite=True, glorious_deeds=1, dismissed=True),
        PoolModel(elite=False),
    ]
    assert promotion_pool_inputs(models) == PoolInputs(glorious_deeds=5, elite_count=1)
    assert promotion_pool_inputs([]) == PoolInputs(glorious_deeds=0, elite_count=0)


def test_the_pool_models_refuse_bad_input():
    with pytest.raises(ValueError, match="glorious_deeds must be 0 or more, got -1"):
        PoolModel(elite=False, glorious_deeds=-1)
    for name in ("elite", "removed", "dismissed"):
        fields = {"elite": False, name: "yes"}
        with pytest.raises(ValueError, match=f"{name} must be True or False"):
            PoolModel(**fields)
    with pytest.raises(ValueError, match="the Promotion Pool counts PoolModel values"):
        promotion_pool_inputs([{"elite": True}])
