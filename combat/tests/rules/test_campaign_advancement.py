"""Tests for combat/rules/campaign_advancement.py: XP, Skill Advancement Rolls and skill charts
(CAMPAIGN_PHASE.md "Experience and Advancement"; RULINGS X-1 to X-3)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat import rules
from combat.rules import (
    ADVANCEMENT_XP,
    LIMITED_POTENTIAL_XP,
    CampaignTableError,
    SkillChart,
    SkillEntry,
    XpGain,
    explain_skill_roll,
    gain_xp,
    skill_for,
)
from combat.rules.campaign_advancement import skill_roll_total

# A house Stealth & Speed chart: the names are campaign data, made up here; 12 holds no skill.
ROWS = [
    {"roll": 2, "code": "shadow_step", "name": "Shadow Step"},
    {"roll": 3, "code": "cat_like", "name": "Cat-like"},
    {"roll": 4, "code": "sprinter", "name": "Sprinter"},
    {"roll": 5, "code": "lurker", "name": "Lurker"},
    {"roll": 6, "code": "scout", "name": "Scout"},
    {"roll": 7, "code": "sure_footed", "name": "Sure-footed"},
    {"roll": 8, "code": "quick_reflexes", "name": "Quick Reflexes"},
    {"roll": 9, "code": "infiltrator", "name": "Infiltrator"},
    {"roll": 10, "code": "dodge", "name": "Dodge"},
    {"roll": 11, "code": "patron_skill", "name": "Patron Skill"},
]
CHART = SkillChart.from_rows(ROWS, name="stealth_and_speed")
CODES = tuple(row["code"] for row in ROWS)


# --- XP and Skill Advancement Rolls (X-1, X-2) ---------------------------------------------------------------


def test_reaching_2_4_7_10_14_and_18_xp_each_gives_one_skill_advancement_roll():
    assert ADVANCEMENT_XP == (2, 4, 7, 10, 14, 18)
    assert gain_xp(0, 1) == XpGain(xp=1, advancements=0)
    assert gain_xp(1, 1) == XpGain(xp=2, advancements=1)
    assert gain_xp(2, 1) == XpGain(xp=3, advancements=0)  # 2 was reached before: not due again
    assert gain_xp(17, 3) == XpGain(xp=20, advancements=1)
    assert gain_xp(18, 10) == XpGain(xp=28, advancements=0)  # nothing past 18


def test_x_1_several_skill_advancement_rolls_can_be_due_at_once():
    assert gain_xp(1, 6) == XpGain(xp=7, advancements=3)  # 2, 4 and 7
    assert gain_xp(0, 18) == XpGain(xp=18, advancements=6)
    assert gain_xp(6, 0) == XpGain(xp=6, advancements=0)


def test_x_2_limited_potential_caps_xp_at_7():
    assert LIMITED_POTENTIAL_XP == 7
    assert gain_xp(6, 3, limited_potential=True) == XpGain(xp=7, advancements=1)
    assert gain_xp(7, 2, limited_potential=True) == XpGain(
        xp=7, advancements=0
    )  # XP beyond it is not recorded
    assert gain_xp(0, 30, limited_potential=True) == XpGain(xp=7, advancements=3)
    with pytest.raises(ValueError, match="xp 9 is past 7"):
        gain_xp(9, 1, limited_potential=True)


@given(st.lists(st.integers(0, 6), max_size=12))
def test_xp_never_passes_7_for_limited_potential_so_at_most_3_rolls(gains):
    xp, rolls = 0, 0
    for gained in gains:
        result = gain_xp(xp, gained, limited_potential=True)
        assert result.xp <= 7
        xp, rolls = result.xp, rolls + result.advancements
    assert xp == min(sum(gains), 7)
    assert rolls <= 3
    assert rolls == sum(1 for mark in ADVANCEMENT_XP if mark <= xp)


@given(st.integers(0, 30), st.integers(0, 15), st.integers(0, 15), st.booleans())
def test_two_gains_make_the_rolls_of_one_gain_of_their_sum(xp, first, second, limited):
    xp = min(xp, 7) if limited else xp
    one = gain_xp(xp, first, limited_potential=limited)
    two = gain_xp(one.xp, second, limited_potential=limited)
    both = gain_xp(xp, first + second, limited_potential=limited)
    assert two.xp == both.xp
    assert one.advancements + two.advancements == both.advancements


def test_bad_xp_is_refused_naming_the_value():
    with pytest.raises(ValueError, match="xp must be 0 or more, got -1"):
        gain_xp(-1, 1)
    with pytest.raises(ValueError, match="gained must be 0 or more, got -2"):
        gain_xp(0, -2)
    with pytest.raises(ValueError, match="limited_potential must be True or False, got 'yes'"):
        gain_xp(0, 1, limited_potential="yes")


# --- Skill charts and the stepping rule (X-3) -----------------------------------------------------------------


def test_a_roll_finds_the_skill_of_its_number():
    assert skill_for(CHART, 8) == SkillEntry(8, "quick_reflexes", "Quick Reflexes")
    assert explain_skill_roll(CHART, 8) == "8 is Quick Reflexes."


def test_x_3_a_known_skill_moves_to_the_next_lower_then_the_next_higher():
    known = frozenset({"quick_reflexes"})
    assert skill_for(CHART, 8, known=known) == SkillEntry(7, "sure_footed", "Sure-footed")
    assert explain_skill_roll(CHART, 8, known=known) == (
        "8 is Quick Reflexes, already known → 7, Sure-footed (RULING X-3)."
    )
    known = frozenset({"quick_reflexes", "sure_footed", "scout"})
    assert skill_for(CHART, 8, known=known) == SkillEntry(5, "lurker", "Lurker")
    assert explain_skill_roll(CHART, 8, known=known) == (
        "8 is Quick Reflexes, already known → 5, Lurker (the next lower number holding a skill it lacks) "
        "(RULING X-3)."
    )
    # Nothing lower that it lacks: the next higher one.
    known = frozenset({"shadow_step", "cat_like", "sprinter"})
    assert skill_for(CHART, 3, known=known) == SkillEntry(5, "lurker", "Lurker")
    assert explain_skill_roll(CHART, 3, known=known) == (
        "3 is Cat-like, already known → 5, Lurker (nothing lower holds a skill it lacks, so the next higher) "
        "(RULING X-3)."
    )


def test_x_3_a_number_holding_no_skill_is_treated_like_a_known_skill_and_a_full_chart_finds_nothing():
    assert skill_for(CHART, 12) == SkillEntry(11, "patron_skill", "Patron Skill")
    assert explain_skill_roll(CHART, 12) == "12 holds no skill on this chart → 11, Patron Skill (RULING X-3)."
    everything = frozenset(CODES)
    assert skill_for(CHART, 6, known=everything) is None
    assert explain_skill_roll(CHART, 6, known=everything) == (
        "6 is Scout, already known, and it knows every skill of this chart: the roll finds nothing here "
        "(RULING X-3)."
    )


@given(st.integers(2, 12), st.sets(st.sampled_from(CODES)))
def test_the_stepping_rule_finds_the_nearest_lacking_skill_below_before_any_above(roll, known):
    found = skill_for(CHART, roll, known=frozenset(known))
    lacking = {entry.roll for entry in CHART.entries if entry.code not in known}
    if not lacking:
        assert found is None
        return
    assert found.code not in known
    below = [number for number in lacking if number <= roll]
    assert found.roll == (max(below) if below else min(lacking))


def test_a_skill_roll_is_2d6_and_known_is_a_set_of_codes():
    with pytest.raises(ValueError, match="a Skill Advancement Roll is 2D6, 2 to 12, got 13"):
        skill_for(CHART, 13)
    with pytest.raises(ValueError, match="known must be a set of skill codes, got 'dodge'"):
        skill_for(CHART, 7, known="dodge")
    with pytest.raises(ValueError, match="chart must be a SkillChart"):
        skill_for(ROWS, 7)


def test_a_chart_is_equal_to_the_same_rows_and_reads_each_number():
    assert SkillChart.from_rows(reversed(ROWS), name="stealth_and_speed") == CHART
    assert hash(SkillChart.from_rows(ROWS, name="stealth_and_speed")) == hash(CHART)
    assert CHART.at(12) is None
    assert CHART.at(2) == SkillEntry(2, "shadow_step", "Shadow Step")
    assert repr(CHART) == "SkillChart(name='stealth_and_speed', skills=10)"


def test_skill_chart_problems_name_a_repeated_roll_or_code_a_roll_outside_2_to_12_and_missing_fields():
    rows = [
        {"roll": 8, "code": "quick_reflexes", "name": "Quick Reflexes"},
        {"roll": 8, "code": "dodge", "name": "Dodge"},
        {"roll": 9, "code": "quick_reflexes", "name": "Quick Reflexes Again"},
        {"roll": 13, "code": "sprinter", "name": "Sprinter"},
        {"roll": 4, "name": "Lurker"},
    ]
    assert SkillChart.problems(rows) == (
        "Row 4 (Sprinter): roll 13 is not a 2D6 result (2 to 12).",
        "Row 5 (Lurker) has no code.",
        "Two rows have the roll 8 (Quick Reflexes; Dodge): a roll holds one skill.",
        "Two rows have the code quick_reflexes (Quick Reflexes, roll 8; Quick Reflexes Again, roll 9): give each "
        "skill its own code.",
    )
    with pytest.raises(CampaignTableError) as refused:
        SkillChart.from_rows(rows)
    assert refused.value.problems == SkillChart.problems(rows)
    assert "row 3 ('sprinter'): roll must be 2 to 12, got 13" in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_a_sound_chart_has_no_problem():
    assert SkillChart.problems(ROWS) == ()


def test_a_patron_skill_result_stepped_past_says_why_not_already_known():
    # CAMPAIGN_PHASE.md: 'A "Patron Skill" result lets the player pick any one skill of the warband's Patron,
    # never one the model already has.' With no list (or none of it left), RULING X-3 steps past the result.
    from combat.rules import skill_roll_known

    no_list = skill_roll_known(CHART, known=frozenset(), patron=frozenset())
    assert explain_skill_roll(CHART, 11, known=no_list, patron=frozenset()) == (
        "11 is Patron Skill, but the warband's Patron has no skill list → 10, Dodge (RULING X-3)."
    )
    all_known = skill_roll_known(CHART, known=frozenset({"blessed"}), patron=frozenset({"blessed"}))
    assert explain_skill_roll(CHART, 11, known=all_known, patron=frozenset({"blessed"})) == (
        "11 is Patron Skill, but it already knows every skill of its Patron → 10, Dodge (RULING X-3)."
    )
    # Without the Patron's list given, the sentence is as before.
    assert explain_skill_roll(CHART, 11, known=no_list).startswith("11 is Patron Skill, already known")


# A Troop's XP and the roster's XP limit (RULINGS ).


def test_ruling_X_4_a_troops_xp_makes_no_skill_advancement_roll_due():
    """CAMPAIGN_PHASE.md: "Troops gain no XP"; the organiser's adjustment may still give a Troop XP, which reaches
    no threshold of X-1 for it."""
    assert rules.gain_xp(0, 2, elite=False) == rules.XpGain(2, 0)
    assert rules.advancement_marks(0, 2, elite=False) == ()
    assert rules.advancement_marks(3, 5, elite=False) == ()
    assert rules.gain_xp(0, 2) == rules.XpGain(2, 1)
    assert rules.advancement_marks(0, 2, elite=True) == (2,)
    assert rules.gain_xp(5, 9, limited_potential=True, elite=False) == rules.XpGain(7, 0)
    with pytest.raises(ValueError, match="elite must be True or False, got 1"):
        rules.gain_xp(0, 1, elite=1)


@given(xp=st.integers(0, 30), gained=st.integers(0, 30), limited=st.booleans())
def test_a_troop_and_an_elite_model_reach_the_same_xp_but_only_the_elite_rolls(xp, gained, limited):
    if limited and xp > rules.LIMITED_POTENTIAL_XP:
        return
    elite = rules.gain_xp(xp, gained, limited_potential=limited)
    troop = rules.gain_xp(xp, gained, limited_potential=limited, elite=False)
    assert troop.xp == elite.xp
    assert troop.advancements == 0
    assert len(rules.advancement_marks(xp, gained, limited_potential=limited)) == elite.advancements


@pytest.mark.parametrize(
    ("xp", "limited", "problem"),
    [
        (0, False, None),
        (7, True, None),
        (8, True, "Limited Potential: never past 7 XP (RULING X-2)"),
        (8, False, None),
        (40, False, None),
        (-1, False, "XP cannot go below 0"),
        (-1, True, "XP cannot go below 0"),
    ],
)
def test_ruling_X_2_the_xp_a_model_may_hold(xp, limited, problem):
    assert rules.xp_limit_problem(xp, limited_potential=limited) == problem


def test_the_xp_limit_refuses_bad_input():
    with pytest.raises(ValueError, match="xp must be a whole number"):
        rules.xp_limit_problem(7.0, limited_potential=True)
    with pytest.raises(ValueError, match="limited_potential must be True or False"):
        rules.xp_limit_problem(7, limited_potential=None)


def test_the_marks_refuse_an_elite_answer_that_is_not_true_or_false():
    with pytest.raises(ValueError, match="^elite must be True or False, got 1$"):
        rules.advancement_marks(0, 2, elite=1)


# CAMPAIGN_PHASE.md, "Experience and Advancement": a Skill Advancement Roll is 2D6, added.
@pytest.mark.parametrize(("faces", "total"), [((1, 1), 2), ((6, 6), 12), ((3, 4), 7), ([2, 5], 7)])
def test_a_skill_advancement_roll_is_2d6_added(faces, total):
    assert skill_roll_total(faces) == total


@pytest.mark.parametrize("faces", [(), (4,), (1, 2, 3), (0, 3), (3, 7), (True, 2), (2.0, 3), ("3", 4)])
def test_a_skill_advancement_roll_is_two_faces_of_1_to_6(faces):
    with pytest.raises(ValueError, match="2D6|a die's face is 1 to 6"):
        skill_roll_total(faces)


@given(st.integers(1, 6), st.integers(1, 6))
def test_every_skill_advancement_total_is_a_number_of_a_skill_chart(first, second):
    assert skill_roll_total((first, second)) in range(2, 13)
