"""Tests for combat/rules/odds.py: exact odds by enumeration, checked against brute force and against dice."""

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.rules import (
    Casualty,
    Combatant,
    RandomDice,
    ScriptedDice,
    damage_odds,
    format_odds,
    hit_distribution,
    inflict_damage,
    pass_odds,
    roll_test,
    trauma_fate_odds,
    trauma_odds,
    trauma_step,
)
from combat.tests.rules.strategies import casualties, combatants


def test_hit_distribution_is_exact():
    assert hit_distribution(dice_count=2, stat=5) == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    assert hit_distribution(dice_count=1, stat=3) == {0: Fraction(7, 10), 1: Fraction(3, 10)}
    assert hit_distribution(dice_count=0, stat=7) == {0: Fraction(1)}
    assert hit_distribution(dice_count=3, stat=10)[3] == 1


def test_a_confusion_test_passes_unless_both_dice_miss():
    assert pass_odds(dice_count=2, stat=4) == 1 - Fraction(6, 10) ** 2


@pytest.mark.parametrize(("dice_count", "stat"), [(-1, 5), (2, 0), (2, 11)])
def test_odds_refuse_a_bad_pool_or_stat(dice_count, stat):
    with pytest.raises(ValueError, match=f"got {dice_count if dice_count < 0 else stat}"):
        hit_distribution(dice_count=dice_count, stat=stat)


@pytest.mark.parametrize(
    "target",
    [
        Combatant(endurance=3, health=1),  # Fidus
        Combatant(endurance=2, health=2, harm=3),  # at the Harm Limit: Excess Harm Injures (RULING D-2)
        Combatant(endurance=1, health=3, harm=1, injuries=1, harm_limit=None),
    ],
)
def test_damage_odds_match_every_face_of_the_dice(target):
    dice_count, stat = 3, 6
    counts = Counter()
    for faces in itertools.product(range(1, 11), repeat=dice_count):
        outcome = inflict_damage(
            target, roll_test(ScriptedDice(faces), dice_count=dice_count, stat=stat).hits
        )
        counts[outcome.row] += 1
        counts["incapacitated_after"] += outcome.incapacitated
    total = 10**dice_count
    expected = {key: Fraction(counts[key], total) for key in ("incapacitated", "injury", "harm", "none")}
    expected["incapacitated_after"] = Fraction(counts["incapacitated_after"], total)
    assert damage_odds(target, dice_count=dice_count, stat=stat) == expected


def test_damage_odds_for_brick_hitting_fidus_with_four_dice():
    odds = damage_odds(Combatant(endurance=3, health=1), dice_count=4, stat=6)
    # 6+ Hits are impossible with 4 dice, so the table's first row never applies; 3 or 4 Hits Injure and Incapacitate.
    assert odds["incapacitated"] == 0
    assert odds["injury"] == odds["incapacitated_after"]
    assert odds["none"] == Fraction(4, 10) ** 4


def test_damage_odds_refuse_an_incapacitated_target():
    with pytest.raises(ValueError, match="already Incapacitated"):
        damage_odds(Combatant(endurance=3, injuries=1, incapacitated=True), dice_count=2, stat=5)


def test_trauma_odds_of_a_fresh_elite_model():
    odds = trauma_odds(Casualty("hero", elite=True))
    assert odds["dead"] == Fraction(1, 36)
    assert odds["full_recovery"] == Fraction(15, 36)  # 41-46, 51-56, 61-63
    assert odds["removed"] == Fraction(1, 36)  # only Dead: no Scar can be the third


def test_trauma_odds_of_an_elite_model_on_its_last_scar():
    odds = trauma_odds(Casualty("hero", elite=True, scars=2))
    # Dead, and the 15 results with a Scar (13-16, 21-26, 31-35) make it Unfit For Duty.
    assert odds["removed"] == Fraction(16, 36)
    assert odds["captured"] == Fraction(1, 36)


def test_trauma_odds_apply_the_reroll_rule():
    odds = trauma_odds(Casualty("hero", elite=True, injuries={"hand_wound", "leg_wound"}))
    assert odds["hand_wound"] == 0
    assert odds["leg_wound"] == 0
    assert odds["dead"] == Fraction(1, 34)
    assert odds["full_recovery"] == Fraction(15, 34)


def test_trauma_odds_count_a_second_lost_an_eye_as_removed():
    odds = trauma_odds(Casualty("hero", elite=True, injuries={"lost_an_eye"}))
    assert odds["lost_an_eye"] == Fraction(1, 36)
    assert odds["removed"] == Fraction(2, 36)
    fates = trauma_fate_odds(Casualty("hero", elite=True, injuries={"lost_an_eye"}))
    assert fates["blinded"] == Fraction(1, 36)


def test_trauma_odds_of_a_troop():
    assert trauma_odds(Casualty("t", elite=False)) == {"survived": Fraction(2, 3), "removed": Fraction(1, 3)}
    assert trauma_fate_odds(Casualty("t", elite=False)) == {"stays": Fraction(2, 3), "dead": Fraction(1, 3)}


# --- properties --------------------------------------------------------------------------------------------------


@given(st.integers(0, 25), st.integers(1, 10))
def test_hit_odds_always_sum_to_exactly_1(dice_count, stat):
    odds = hit_distribution(dice_count=dice_count, stat=stat)
    assert sum(odds.values()) == 1
    assert all(isinstance(chance, Fraction) for chance in odds.values())


@given(combatants(), st.integers(0, 15), st.integers(1, 10))
def test_damage_odds_always_sum_to_exactly_1(target, dice_count, stat):
    odds = damage_odds(target, dice_count=dice_count, stat=stat)
    assert sum(odds[row] for row in ("incapacitated", "injury", "harm", "none")) == 1
    assert odds["incapacitated"] <= odds["incapacitated_after"] <= 1


@given(casualties())
def test_trauma_odds_always_sum_to_exactly_1(casualty):
    odds = trauma_odds(casualty)
    if casualty.elite:
        assert sum(chance for code, chance in odds.items() if code != "removed") == 1
        assert 0 <= odds["removed"] <= 1
    else:
        assert odds["survived"] + odds["removed"] == 1
    assert sum(trauma_fate_odds(casualty).values()) == 1


SAMPLES = 3000


@settings(max_examples=10, deadline=None, derandomize=True)
@given(casualties(elite=True, id="hero"))
def test_random_dice_trauma_frequencies_agree_with_trauma_odds(casualty):
    # A loose statistical bound: every frequency within 5 standard deviations (plus one sample) of its exact
    # odds, over a fixed number of samples from seeded dice.
    dice = RandomDice(random.Random(20260101))
    codes = Counter()
    removed = 0
    for _ in range(SAMPLES):
        (outcome,) = trauma_step([casualty], dice)
        codes[outcome.entry.code] += 1
        removed += outcome.removed
    odds = trauma_odds(casualty)
    observed = {**{code: codes[code] for code in odds if code != "removed"}, "removed": removed}
    for key, chance in odds.items():
        bound = 5 * math.sqrt(chance * (1 - chance) / SAMPLES) + 1 / SAMPLES
        assert abs(observed[key] / SAMPLES - chance) <= bound, key


# --- plain odds ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chance", "words"),
    [
        (Fraction(1, 3), "1 in 3"),
        (Fraction(1, 36), "1 in 36"),
        (Fraction(14, 100), "14%"),
        (Fraction(17, 36), "47%"),
        (Fraction(1, 8) * 5, "63%"),  # 62.5% rounds half up
        (Fraction(3, 1000), "under 1%"),
        (Fraction(997, 1000), "over 99%"),
        (Fraction(0), "no chance"),
        (1, "certain"),
    ],
)
def test_format_odds_writes_a_chance_in_plain_words(chance, words):
    assert format_odds(chance) == words


def test_format_odds_has_a_percent_and_a_fraction_style():
    assert format_odds(Fraction(1, 3), style="percent") == "33%"
    assert format_odds(Fraction(17, 36), style="fraction") == "17/36"


@pytest.mark.parametrize("chance", [Fraction(3, 2), Fraction(-1, 2), 0.5, 2, True])
def test_format_odds_refuses_what_is_not_a_chance(chance):
    with pytest.raises(ValueError, match=f"got {chance!r}".replace("(", "\\(").replace(")", "\\)")):
        format_odds(chance)
    with pytest.raises(ValueError, match="got 'words'"):
        format_odds(Fraction(1, 2), style="words")
