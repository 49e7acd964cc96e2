"""Tests for combat/rules/campaign_advancement.py's skill charts, each built inside its test, and the stepping rule
at the chart's low end (RULING X-3)."""

import pytest

from combat.rules import CampaignTableError, SkillChart, SkillEntry, explain_skill_roll, skill_for

ENTRIES = (SkillEntry(2, "shadow_step", "Shadow Step"), SkillEntry(3, "cat_like", "Cat-like"))


def test_x_3_a_known_skill_steps_down_to_2_the_lowest_number_of_a_chart():
    chart = SkillChart.from_rows([{"roll": 2, "code": "shadow_step", "name": "Shadow Step"},
                                  {"roll": 4, "code": "sprinter", "name": "Sprinter"}])  # fmt: skip
    known = frozenset({"sprinter"})
    assert skill_for(chart, 4, known=known) == SkillEntry(2, "shadow_step", "Shadow Step")
    assert skill_for(chart, 3, known=known) == SkillEntry(2, "shadow_step", "Shadow Step")
    assert explain_skill_roll(chart, 4, known=known) == (
        "4 is Sprinter, already known → 2, Shadow Step (the next lower number holding a skill it lacks) (RULING X-3)."
    )


def test_a_chart_built_from_entries_is_checked_and_reads_each_roll():
    chart = SkillChart(ENTRIES[::-1])
    assert (chart.name, chart.entries, chart.at(2), chart.at(12)) == ("", ENTRIES, ENTRIES[0], None)
    assert skill_for(chart, 3) == ENTRIES[1]
    with pytest.raises(CampaignTableError) as refused:
        SkillChart([*ENTRIES, SkillEntry(3, "dodge", "Dodge")])
    assert refused.value.problems == ("Two rows have the roll 3 (Cat-like; Dodge): a roll holds one skill.",)


def test_a_chart_from_rows_has_no_name_unless_given_one():
    rows = [{"roll": entry.roll, "code": entry.code, "name": entry.name} for entry in ENTRIES]
    assert SkillChart.from_rows(rows) == SkillChart(ENTRIES, name="")
    assert SkillChart.from_rows(rows).name == ""


@pytest.mark.parametrize("known", [["cat_like"], ("cat_like",), "cat_like", None])
def test_x_3_the_known_skills_must_be_a_set_of_codes(known):
    with pytest.raises(ValueError, match=r"^known must be a set of skill codes, got "):
        skill_for(SkillChart(ENTRIES), 3, known=known)
