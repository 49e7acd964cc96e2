"""Tests for combat/rules/campaign_scenarios.py: the stage's D6 scenario table and the scenario roll that does not
give a warband the same scenario twice in a row (CAMPAIGN_PHASE.md, "The campaign around the battles"; W-1)."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat import rules
from combat.rules import DiceExhausted, ScriptedDice
from combat.rules.campaign_scenarios import (
    ScenarioTable,
    explain_scenario,
    roll_scenario,
    scenario_odds,
    scenario_stage,
    scenario_table_problems,
)

NAMES = ["Crossing", "Raid", "Hold", "Crossing", "Ambush", "Raid"]


def rows(names=NAMES):
    return [{"roll": face, "name": name} for face, name in enumerate(names, start=1)]


def table(names=NAMES, stage="early"):
    return ScenarioTable.from_rows(rows(names), stage=stage)


def test_a_full_d6_table_has_no_problems_and_finds_each_face():
    assert scenario_table_problems(rows()) == ()
    assert [table().lookup(face) for face in range(1, 7)] == NAMES
    assert table().names == ("Crossing", "Raid", "Hold", "Ambush")


def test_an_empty_table_is_no_table_yet_but_cannot_be_rolled_on():
    assert scenario_table_problems([]) == ()
    with pytest.raises(ValueError, match="no rows"):
        ScenarioTable.from_rows([], stage="mid")


def test_a_repeated_roll_a_gap_and_a_face_out_of_range_are_each_told_in_plain_words():
    bad = rows()[:4] + [{"roll": 4, "name": "Ambush"}, {"roll": 7, "name": "Siege"}]
    assert scenario_table_problems(bad) == (
        "Rows 4 and 5 both have roll 4: a face of the die finds one scenario.",
        "Row 6 (Siege): roll 7 is not a face of the D6 (1 to 6).",
        "No row for roll 5, 6: every face of the D6 needs a scenario (a gap would find nothing).",
    )


def test_a_row_of_the_wrong_shape_is_told():
    assert scenario_table_problems("roll,name") == ("A scenario table is a list of rows.",)
    problems = scenario_table_problems(
        [{"roll": "1", "name": "A"}, {"roll": 2}, {"roll": 3, "name": " ", "vp": 1}, "x"]
    )
    assert problems == (
        "Row 1 (A): the roll must be a whole number, got '1'.",
        "Row 2 has no name.",
        "Row 3 has unknown fields vp.",
        "Row 4 is not a row of roll and name.",
    )


def test_from_rows_refuses_bad_rows_and_an_unknown_stage():
    with pytest.raises(ValueError, match="roll 7"):
        ScenarioTable.from_rows(rows()[:5] + [{"roll": 7, "name": "X"}], stage="early")
    with pytest.raises(ValueError, match="'late'"):
        ScenarioTable.from_rows(rows(), stage="late")
    with pytest.raises(ValueError, match="got 0"):
        table().lookup(0)


def test_the_lower_stage_decides_when_the_warbands_are_at_different_stages():
    # CAMPAIGN_PHASE.md: "When the two players are at different stages, the lower stage's table is used."
    assert scenario_stage(battles=[4, 3]) == "early"
    assert scenario_stage(battles=[9, 12]) == "endgame"  # RULING W-1: 9 is Endgame
    assert scenario_stage(battles=[12]) == "final"
    with pytest.raises(ValueError, match="at least one warband"):
        scenario_stage(battles=[])
    with pytest.raises(ValueError, match="13"):
        scenario_stage(battles=[13, 5])


def test_a_roll_that_finds_no_previous_scenario_stands():
    result = roll_scenario(table(), ScriptedDice([3]), avoid={"Raid"})
    assert result.faces == (3,)
    assert result.scenario == "Hold"
    assert result.kept_rule
    assert explain_scenario(result) == "D6 3: Hold."


def test_a_scenario_a_warband_played_last_is_rolled_again_whatever_its_case():
    # "a warband should not play the same scenario twice in a row (reroll)"
    result = roll_scenario(table(), ScriptedDice([1, 4, 2, 5]), avoid={" crossing", "RAID"})
    assert result.faces == (1, 4, 2, 5)
    assert result.scenario == "Ambush"
    assert result.rerolled == ("Crossing", "Crossing", "Raid")
    assert explain_scenario(result) == (
        "D6 5: Ambush. Rolled again before (1 found Crossing; 4 found Crossing; 2 found Raid): a warband does not "
        "play the same scenario twice in a row."
    )


def test_typed_dice_that_run_out_on_a_reroll_ask_for_another_die():
    with pytest.raises(DiceExhausted):
        roll_scenario(table(), ScriptedDice([1]), avoid={"Crossing"})


def test_a_table_with_nothing_left_to_roll_lets_the_first_roll_stand():
    one = table(["Siege"] * 6)
    result = roll_scenario(one, ScriptedDice([2]), avoid={"Siege"})
    assert result.scenario == "Siege"
    assert not result.kept_rule
    assert result.faces == (2,)
    assert "so the roll stands" in explain_scenario(result)
    assert scenario_odds(one, avoid={"Siege"}) == {"Siege": Fraction(1)}


def test_the_odds_before_the_roll_count_only_the_faces_that_are_kept():
    assert scenario_odds(table()) == {
        "Crossing": Fraction(1, 3),
        "Raid": Fraction(1, 3),
        "Hold": Fraction(1, 6),
        "Ambush": Fraction(1, 6),
    }
    assert scenario_odds(table(), avoid={"Crossing"}) == {
        "Crossing": 0,
        "Raid": Fraction(1, 2),
        "Hold": Fraction(1, 4),
        "Ambush": Fraction(1, 4),
    }


def test_the_names_are_exported_from_the_engine():
    assert rules.roll_scenario is roll_scenario
    assert rules.SCENARIO_DIE == 6


class SeededDice:
    """Fair dice from a seed: the property holds for any dice, and a failing seed can be replayed."""

    def __init__(self, seed):
        self.random = random.Random(seed)
        self.log = []

    def roll(self, sides):
        return self.random.randint(1, sides)


tables = st.lists(st.sampled_from(["A", "B", "C", "d", "D"]), min_size=6, max_size=6)


@given(names=tables, previous=st.sampled_from(["A", "B", "C", "D"]), seed=st.integers(0, 2**32))
def test_never_the_same_scenario_twice_in_a_row_when_the_table_has_two_or_more(names, previous, seed):
    one_table = table(names)
    result = roll_scenario(one_table, SeededDice(seed), avoid={previous})
    distinct = {name.casefold() for name in names}
    if len(distinct) >= 2 and previous.casefold() in distinct:
        assert result.scenario.casefold() != previous.casefold()
    if any(name.casefold() != previous.casefold() for name in names):
        assert result.kept_rule
        assert result.scenario.casefold() != previous.casefold()
    assert sum(scenario_odds(one_table, avoid={previous}).values()) == 1


def test_a_table_missing_face_1_is_told_and_refused_not_a_key_error():
    """ "Each stage has a D6 scenario table": face 1 is a face like any other, and a table without it finds nothing
    on a 1."""
    missing_one = rows()[1:]
    assert scenario_table_problems(missing_one) == (
        "No row for roll 1: every face of the D6 needs a scenario (a gap would find nothing).",
    )
    with pytest.raises(ValueError, match="No row for roll 1:"):
        ScenarioTable.from_rows(missing_one, stage="early")


@pytest.mark.parametrize("name", ["", "   ", 7, None])
def test_a_blank_or_missing_scenario_name_is_refused(name):
    bad = rows()
    bad[2] = {"roll": 3, "name": name}
    problems = scenario_table_problems(bad)
    assert len(problems) == 1
    assert "Row 3" in problems[0]
    with pytest.raises(ValueError, match="Row 3"):
        ScenarioTable.from_rows(bad, stage="early")


def test_a_table_keeps_its_stage_and_its_die():
    d3 = ScenarioTable.from_rows(rows(["Crossing", "Raid", "Hold"]), stage="mid", sides=3)
    assert d3 == ScenarioTable(stage="mid", sides=3, scenarios=("Crossing", "Raid", "Hold"))
    assert table(stage="endgame").stage == "endgame"


def test_when_every_scenario_is_to_be_avoided_the_odds_are_the_plain_die():
    """With nothing that keeps the rule left, the first roll stands (`roll_scenario`), so each face counts once."""
    odds = scenario_odds(table(), avoid=["Crossing", "Raid", "Hold", "Ambush"])
    assert odds == {
        "Crossing": Fraction(2, 6),
        "Raid": Fraction(2, 6),
        "Hold": Fraction(1, 6),
        "Ambush": Fraction(1, 6),
    }
    d3 = ScenarioTable.from_rows(rows(["Crossing", "Raid", "Hold"]), stage="early", sides=3)
    assert scenario_odds(d3, avoid=["Crossing", "Raid", "Hold"]) == {
        name: Fraction(1, 3) for name in d3.names
    }


def test_a_roll_gives_up_after_the_most_rolls_without_asking_for_another_die():
    """MOST_ROLLS rolls that all find a scenario to avoid mean unfair dice: refused, and no die past them asked."""
    avoided = ScenarioTable.from_rows(
        rows(["Crossing", "Crossing", "Crossing", "Crossing", "Crossing", "Raid"]), stage="early"
    )
    dice = ScriptedDice([1] * rules.campaign_scenarios.MOST_ROLLS)
    with pytest.raises(
        ValueError, match=f"{rules.campaign_scenarios.MOST_ROLLS} rolls found no usable scenario"
    ):
        roll_scenario(avoided, dice, avoid=["Crossing"])
