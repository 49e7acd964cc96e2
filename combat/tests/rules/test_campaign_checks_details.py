"""Tests for combat/rules/campaign_checks.py: the terse detail a developer reads and the names a repeat is told by
(CAMPAIGN_PHASE.md: tables of names are campaign data; RULINGS X-3, E-4)."""

import pytest

from combat.rules import CampaignTableError, LocationTable, SkillChart


def _refused(rows):
    with pytest.raises(CampaignTableError) as refused:
        SkillChart.from_rows(rows)
    return refused.value.problems, str(refused.value)


def test_the_detail_names_a_row_by_its_code_only_when_the_code_is_text():
    problems, detail = _refused(
        [
            {"roll": 13, "code": 5, "name": "Dodge"},
            {"roll": 13, "code": "", "name": "Sprint"},
            {"roll": 12, "code": "lurker", "name": ""},
        ]
    )
    assert problems == (
        "Row 1 (Dodge): roll 13 is not a 2D6 result (2 to 12).",
        "Row 1 (Dodge): code must be lower-case letters, digits and underscores, starting with a letter, got 5.",
        "Row 2 (Sprint): roll 13 is not a 2D6 result (2 to 12).",
        "Row 2 (Sprint): code must be lower-case letters, digits and underscores, starting with a letter, got ''.",
        "Row 3: it needs a name.",
    )
    assert detail == (
        "row 0: roll must be 2 to 12, got 13; "
        "row 0: code must be lower-case letters, digits and underscores, starting with a letter, got 5; "
        "row 1: roll must be 2 to 12, got 13; "
        "row 1: code must be lower-case letters, digits and underscores, starting with a letter, got ''; "
        "row 2 ('lurker'): name must not be empty"
    )


def test_x_3_a_repeat_names_a_row_without_a_name_by_its_code():
    problems, _ = _refused(
        [
            {"roll": 8, "code": "dodge", "name": ""},
            {"roll": 8, "code": "sprint", "name": "Sprint"},
            {"roll": 9, "code": "lurker", "name": 4},
            {"roll": 9, "code": "scout", "name": "  "},
        ]
    )
    assert problems == (
        "Row 1: it needs a name.",
        "Row 3: it needs a name, in words.",
        "Row 4: it needs a name.",
        "Two rows have the roll 8 ('dodge'; Sprint): a roll holds one skill.",
        "Two rows have the roll 9 ('lurker'; 'scout'): a roll holds one skill.",
    )


def test_a_number_wrong_in_itself_does_not_hide_the_repeats_after_it():
    problems, _ = _refused(
        [
            {"roll": 1, "code": "dodge", "name": "Dodge"},
            {"roll": 8, "code": "sprint", "name": "Sprint"},
            {"roll": 8, "code": "scout", "name": "Scout"},
        ]
    )
    assert problems == (
        "Row 1 (Dodge): roll 1 is not a 2D6 result (2 to 12).",
        "Two rows have the roll 8 (Sprint; Scout): a roll holds one skill.",
    )


def test_missing_and_unknown_fields_are_listed_whole_in_both_words():
    rows = [{"score": 3, "cost": 5, "note": ""}, {"score": 4, "code": "well", "name": "Well", "a": 1, "b": 2}]
    with pytest.raises(CampaignTableError) as refused:
        LocationTable.from_rows(rows)
    assert refused.value.problems == (
        "Row 1 has no code, name.",
        "Row 1 has unknown fields cost, note.",
        "Row 2 (Well) has unknown fields a, b.",
    )
    assert str(refused.value) == (
        "row 0 has no code, name: {'score': 3, 'cost': 5, 'note': ''}; "
        "row 0 has unknown fields cost, note; "
        "row 1 ('well') has unknown fields a, b"
    )


def test_an_empty_chart_is_told_in_both_words():
    problems, detail = _refused([])
    assert (problems, detail) == (("The skill chart has no rows.",), "the skill chart has no rows")
