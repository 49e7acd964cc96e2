"""Tests for combat/rules/campaign_promotion.py at the edges of its inputs: an empty pool, a model given no dice,
model ids that are not ids, the exact odds as fractions (RULINGS P-1 to P-5)."""

from fractions import Fraction

import pytest

from combat.rules import (
    PromotionResult,
    ScriptedDice,
    check_promotion_dice,
    promotion_chance,
    promotion_dice_problems,
    promotion_odds,
    promotion_pool,
    roll_promotions,
)

ELIGIBLE = {"ash": False, "bo": True, "cy": False}  # bo performed a Glorious Deed


def test_p_5_the_elite_count_must_be_a_count_naming_it():
    with pytest.raises(ValueError, match=r"^elite_count must be 0 or more, got -1$"):
        promotion_pool(won=True, glorious_deeds=0, elite_count=-1)
    assert promotion_pool(won=False, glorious_deeds=0, elite_count=0) == 1


def test_p_2_an_empty_pool_and_a_model_given_no_dice_are_no_breach():
    assert promotion_dice_problems({}, pool=0, eligible=ELIGIBLE) == ()
    assert promotion_dice_problems({"ash": 0, "bo": 0}, pool=0, eligible=ELIGIBLE) == ()
    # 0 dice for a model that may not be promoted assigns it nothing: no breach either (RULING P-2).
    assert promotion_dice_problems({"dee": 0, "ash": 1}, pool=1, eligible=ELIGIBLE) == ()
    check_promotion_dice({"ash": 0}, pool=0, eligible=ELIGIBLE)
    assert promotion_dice_problems({"ash": 1}, pool=0, eligible=ELIGIBLE) == (
        "1 Promotion Dice are assigned but the pool has 0",
    )


def test_p_2_every_breach_is_joined_into_one_message():
    with pytest.raises(ValueError, match=r"^'dee' may not be promoted") as refused:
        check_promotion_dice({"ash": 3, "dee": 1}, pool=2, eligible=ELIGIBLE)
    assert str(refused.value) == (
        "'dee' may not be promoted, so it cannot be given Promotion Dice (RULING P-2); "
        "3 Promotion Dice are assigned but the pool has 2; "
        "'ash' has 3 Promotion Dice but may have 2 without a Glorious Deed until every eligible model has 2 "
        "(RULING P-2)"
    )


@pytest.mark.parametrize("order", [[""], ["ash", 5], "ash"])
def test_p_3_each_die_is_rolled_for_a_model_id_so_anything_else_is_refused(order):
    with pytest.raises(ValueError, match=r"^order must be a sequence of model ids, one per die, got "):
        roll_promotions(order, ScriptedDice([1, 1, 1]), failed_before=0)
    with pytest.raises(ValueError, match=r"^order must be a sequence of model ids, one per die, got "):
        promotion_odds(order, failed_before=0)


def test_p_4_the_chance_is_an_exact_fraction_even_with_no_dice():
    chance = promotion_chance(dice=0, failed_before=4)
    assert (type(chance), chance) == (Fraction, Fraction(0))
    assert roll_promotions([], ScriptedDice([]), failed_before=4) == PromotionResult(None, (), 4)
