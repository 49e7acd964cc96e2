"""Tests for the Advancement step's engine additions in combat/rules/campaign_advancement.py: the thresholds a gain
reaches (RULING X-1, X-2), a skill chart's exact odds with RULING X-3's stepping, and Patron Skill results."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import (
    ADVANCEMENT_XP,
    SkillChart,
    advancement_marks,
    gain_xp,
    offers_patron_skill,
    skill_for,
    skill_odds,
    skill_roll_known,
)

# A made-up Wildcard chart (campaign data): 2 and 12 are Patron Skill results, 3 to 5 hold nothing.
WILDCARD = SkillChart.from_rows(
    [
        {"roll": 2, "code": "patron_skill", "name": "Patron Skill"},
        {"roll": 6, "code": "lucky_medal", "name": "Lucky Medal"},
        {"roll": 8, "code": "grim_humour", "name": "Grim Humour"},
        {"roll": 10, "code": "field_surgeon", "name": "Field Surgeon"},
        {"roll": 12, "code": "patron_skill_again", "name": "Patron Skill (again)"},
    ],
    name="Wildcard",
)
PATRON = frozenset({"candle_of_vigil", "ashen_blessing"})


def _chance(*totals: int) -> Fraction:
    return sum((Fraction(6 - abs(total - 7), 36) for total in totals), Fraction(0))


def test_ruling_x_1_a_gain_that_jumps_two_thresholds_reaches_both():
    assert advancement_marks(1, 3) == (2, 4)
    assert advancement_marks(2, 1) == ()  # 2 was reached before this post-battle
    assert advancement_marks(3, 1) == (4,)


def test_ruling_x_2_a_limited_potential_model_reaches_nothing_past_7():
    assert advancement_marks(6, 5, limited_potential=True) == (7,)
    assert advancement_marks(6, 5) == (7, 10)


@given(xp=st.integers(0, 30), gained=st.integers(0, 12), limited=st.booleans())
def test_the_marks_are_as_many_as_the_rolls_gain_xp_makes_due(xp, gained, limited):
    if limited and xp > 7:
        with pytest.raises(ValueError, match="Limited Potential"):
            advancement_marks(xp, gained, limited_potential=limited)
        return
    marks = advancement_marks(xp, gained, limited_potential=limited)
    assert len(marks) == gain_xp(xp, gained, limited_potential=limited).advancements
    assert all(mark in ADVANCEMENT_XP for mark in marks)


def test_ruling_x_3_the_odds_step_past_known_skills_and_past_numbers_holding_none():
    odds = skill_odds(WILDCARD, known=frozenset({"grim_humour"}))
    # 8 (known) steps down to 6; 7 and 9 hold nothing, so they step down past 8 to 6 too; 3-5 step down to 2.
    assert odds["lucky_medal"] == _chance(6, 7, 8, 9)
    assert odds["patron_skill"] == _chance(2, 3, 4, 5)
    assert odds["field_surgeon"] == _chance(10, 11)
    assert odds["patron_skill_again"] == _chance(12)
    assert "grim_humour" not in odds
    assert sum(odds.values()) == 1


def test_with_every_skill_of_the_chart_known_the_roll_finds_nothing():
    every = frozenset(entry.code for entry in WILDCARD.entries)
    assert skill_odds(WILDCARD, known=every) == {None: Fraction(1)}


@given(known=st.frozensets(st.sampled_from([entry.code for entry in WILDCARD.entries])))
def test_the_odds_are_the_2d6_spread_over_what_skill_for_finds(known):
    odds = skill_odds(WILDCARD, known=known)
    for total in range(2, 13):
        found = skill_for(WILDCARD, total, known=known)
        assert (found.code if found else None) in odds
    assert sum(odds.values()) == 1
    assert not set(odds) & known


def test_a_patron_skill_result_is_a_row_whose_code_says_so():
    assert offers_patron_skill(WILDCARD.at(2))
    assert offers_patron_skill(WILDCARD.at(12))
    assert not offers_patron_skill(WILDCARD.at(6))
    assert not offers_patron_skill(None)


def test_a_patron_skill_result_counts_as_known_once_every_patron_skill_is_known():
    assert skill_roll_known(WILDCARD, known=frozenset({"ashen_blessing"}), patron=PATRON) == {
        "ashen_blessing"
    }
    every = skill_roll_known(WILDCARD, known=PATRON, patron=PATRON)
    assert every == PATRON | {"patron_skill", "patron_skill_again"}
    # So a 2 steps up past the Patron Skill result to the first skill it lacks (RULING X-3).
    assert skill_for(WILDCARD, 2, known=every).code == "lucky_medal"


def test_a_patron_skill_result_gives_nothing_when_the_warband_has_no_patron_list():
    assert skill_roll_known(WILDCARD, known=frozenset(), patron=frozenset()) == {
        "patron_skill",
        "patron_skill_again",
    }


def test_bad_input_is_refused_with_the_value_named():
    with pytest.raises(ValueError, match="chart must be a SkillChart"):
        skill_odds("wildcard")
    with pytest.raises(ValueError, match="known must be a set"):
        skill_odds(WILDCARD, known="grim_humour")
    with pytest.raises(ValueError, match="known must be a set"):
        skill_roll_known(WILDCARD, known=frozenset(), patron=["a"])
