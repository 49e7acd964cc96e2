"""Tests for combat/rules/campaign_checks.py: every problem of a skill chart or Location table, in plain words for
an editor and tersely for a developer (CAMPAIGN_PHASE.md: tables of names are campaign data; RULINGS X-3, E-4)."""

import pytest

from combat.rules import CampaignTableError, LocationTable, SkillChart


def test_rows_that_are_not_a_list_or_have_no_rows_say_so():
    assert SkillChart.problems({"roll": 2}) == ("A skill chart is a list of rows.",)
    assert SkillChart.problems(7) == ("A skill chart is a list of rows.",)
    assert SkillChart.problems([]) == ("The skill chart has no rows.",)
    with pytest.raises(CampaignTableError, match="rows must be a list of row mappings, got str"):
        SkillChart.from_rows("roll,code,name")


def test_each_row_names_what_it_lacks_or_has_too_many():
    rows = [
        "8,quick_reflexes",
        {"roll": 8},
        {"roll": 9, "code": "dodge", "name": "Dodge", "cost": 5},
        {"roll": 10, "code": "sprinter", "name": 4},
    ]
    assert SkillChart.problems(rows) == (
        "Row 1 is not a row of roll, code, name.",
        "Row 2 has no code, name.",
        "Row 3 (Dodge) has unknown fields cost.",
        "Row 4: it needs a name, in words.",
    )
    with pytest.raises(CampaignTableError) as refused:
        SkillChart.from_rows(rows)
    assert str(refused.value) == (
        "row 0 must be a mapping of roll, code, name, got '8,quick_reflexes'; "
        "row 1 has no code, name: {'roll': 8}; "
        "row 2 ('dodge') has unknown fields cost; "
        "row 3 ('sprinter'): name must be text, got 4"
    )


def test_a_number_or_code_wrong_in_itself_is_told_once_not_again_as_a_repeat():
    rows = [
        {"roll": 13, "code": "Dodge", "name": "Dodge"},
        {"roll": 13, "code": "Dodge", "name": "Dodge Again"},
    ]
    assert SkillChart.problems(rows) == (
        "Row 1 (Dodge): roll 13 is not a 2D6 result (2 to 12).",
        "Row 1 (Dodge): code must be lower-case letters, digits and underscores, starting with a letter, got "
        "'Dodge'.",
        "Row 2 (Dodge Again): roll 13 is not a 2D6 result (2 to 12).",
        "Row 2 (Dodge Again): code must be lower-case letters, digits and underscores, starting with a letter, got "
        "'Dodge'.",
    )


def test_a_roll_or_score_must_be_a_whole_number_not_a_flag_or_text():
    assert SkillChart.problems([{"roll": True, "code": "dodge", "name": "Dodge"}]) == (
        "Row 1 (Dodge): roll True is not a 2D6 result (2 to 12).",
    )
    assert LocationTable.problems([{"score": "7", "code": "well", "name": "Well"}]) == (
        "Row 1 (Well): score '7' is not an Exploration Score (a whole number, 0 or more).",
    )


def test_the_error_is_a_value_error_carrying_every_problem():
    rows = [{"roll": 2, "code": "a", "name": "A"}, {"roll": 2, "code": "a", "name": "B"}]
    with pytest.raises(ValueError, match="roll 2 is on two rows; each roll is on one row") as refused:
        SkillChart.from_rows(rows)
    assert refused.value.problems == SkillChart.problems(rows)
    assert len(refused.value.problems) == 2


def test_a_chart_or_table_built_from_other_values_is_refused_naming_them():
    with pytest.raises(
        ValueError, match=r"a SkillChart is made of SkillEntry values, got \(\(8, 'dodge', 'Dodge'\),\)"
    ):
        SkillChart([(8, "dodge", "Dodge")])
    with pytest.raises(ValueError, match="a LocationTable is made of Location values"):
        LocationTable([{"score": 7, "code": "well", "name": "Well"}])
