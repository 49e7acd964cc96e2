"""Tests for combat/rules/trauma_table_checks.py: every problem of a set of rows, in plain words (TRAUMA_TABLE.md,
RULINGS T-3 and T-5), as the house-table editor lists them and `TraumaTable.from_rows` carries them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import TraumaTable, TraumaTableError, trauma_table_problems

TABLE = TraumaTable.default()


def _rows(**changes):
    rows = TABLE.to_rows()
    for index, fields in changes.items():
        rows[int(index.removeprefix("row"))].update(fields)
    return rows


def test_the_default_table_has_no_problem():
    assert TraumaTable.problems(TABLE.to_rows()) == ()
    assert trauma_table_problems(TABLE.to_rows()) == ()


def test_ruling_T_3_every_d66_result_needs_a_row_so_a_gap_is_named_roll_by_roll():
    rows = [row for row in TABLE.to_rows() if row["code"] not in ("robbed", "prominent_scar")]
    assert TraumaTable.problems(rows) == ("The table has a gap: no row covers D66 36, 66.",)


def test_ruling_T_3_a_d66_result_reads_one_row_so_each_overlapping_roll_is_named():
    rows = _rows(row3={"high": 16})  # Hand Wound 14-16 meets Lost an Eye (15) and Chest Wound (16)
    assert TraumaTable.problems(rows) == (
        "Rows overlap: D66 15 is in both Hand Wound and Lost an Eye.",
        "Rows overlap: D66 16 is in both Hand Wound and Chest Wound.",
    )


def test_ruling_T_3_a_range_end_must_be_a_d66_result_with_digits_1_to_6():
    rows = _rows(row0={"low": 10}, row21={"high": 67}, row5={"high": 17})
    assert TraumaTable.problems(rows) == (
        "Row 1 (Dead): low 10 is not a D66 result (two digits, each 1 to 6, so 16 is followed by 21).",
        "Row 6 (Chest Wound): high 17 is not a D66 result (two digits, each 1 to 6, so 16 is followed by 21).",
        "Row 22 (Prominent Scar): high 67 is not a D66 result (two digits, each 1 to 6, so 16 is followed by 21).",
    )


def test_a_range_runs_from_its_low_end_to_its_high_end():
    rows = _rows(row18={"low": 63, "high": 41})
    assert TraumaTable.problems(rows) == (
        "Row 19 (Full Recovery): low 63 is above high 41.",
        # The row's range is not sound, so whether it fills the gap is for its fix to tell: no gap is claimed.
    )


def test_ruling_T_5_two_rows_with_the_same_code_are_refused():
    # The editor took two rows of one code, one result under two numbers.
    rows = _rows(row20={"code": "hardened"})  # Bitter Lessons (65) given Hardened's code
    assert TraumaTable.problems(rows) == (
        "Two rows have the code hardened (Hardened, 64; Bitter Lessons, 65): give each result its own code.",
    )
    with pytest.raises(TraumaTableError, match="code 'hardened' has rows 64 and 65; each code is on one row"):
        TraumaTable.from_rows(rows)


def test_two_rows_of_one_code_that_disagree_on_scar_say_so_too():
    rows = _rows(row1={"code": "dead", "scar": True})
    assert TraumaTable.problems(rows) == (
        "Two rows have the code dead (Dead, 11; Captured, 12) and they disagree on Battle Scar or Injury: give each "
        "result its own code.",
    )


def test_a_code_is_lower_case_and_not_one_the_odds_keep_for_themselves():
    rows = _rows(row0={"code": "Dead!"}, row1={"code": "survived"})
    assert TraumaTable.problems(rows) == (
        "Row 1 (Dead): code must be lower-case letters, digits and underscores, starting with a letter, got 'Dead!'.",
        "Row 2 (Captured): code 'survived' is reserved for the odds; choose another.",
    )


def test_a_row_needs_a_name_text_effect_and_yes_or_no_for_scar_and_injury():
    rows = _rows(row0={"name": " "}, row1={"effect": None, "scar": "yes", "injury": 1}, row2={"name": 7})
    assert TraumaTable.problems(rows) == (
        "Row 1: the result needs a name.",
        "Row 2 (Captured): the effect must be text.",
        "Row 2 (Captured): scar must be yes or no.",
        "Row 2 (Captured): injury must be yes or no.",
        "Row 3: the result needs a name, in words.",
    )


def test_missing_and_unknown_fields_and_rows_that_are_not_rows_are_named():
    rows = TABLE.to_rows()
    del rows[3]["injury"]
    rows[4]["notes"] = "x"
    rows[5] = [16, 16]
    assert TraumaTable.problems(rows) == (
        "Row 4 (Hand Wound) has no injury.",
        "Row 5 (Lost an Eye) has unknown fields notes.",
        "Row 6 is not a row of low, high, code, name, effect, scar, injury.",
    )


@pytest.mark.parametrize("value", ["rows", {"low": 11}, None, 42])
def test_something_that_is_not_a_list_of_rows_is_one_problem(value):
    assert TraumaTable.problems(value) == ("A Trauma Table is a list of rows.",)


def test_an_empty_table_is_one_problem():
    assert TraumaTable.problems([]) == ("The table has no rows.",)


def test_every_problem_is_listed_at_once_not_only_the_first():
    rows = _rows(row0={"low": 10}, row1={"name": ""}, row3={"high": 15}, row20={"code": "hardened"})
    problems = TraumaTable.problems(rows)
    assert problems == (
        "Row 1 (Dead): low 10 is not a D66 result (two digits, each 1 to 6, so 16 is followed by 21).",
        "Row 2: the result needs a name.",
        "Rows overlap: D66 15 is in both Hand Wound and Lost an Eye.",
        "Two rows have the code hardened (Hardened, 64; Bitter Lessons, 65): give each result its own code.",
    )
    with pytest.raises(TraumaTableError) as error:
        TraumaTable.from_rows(rows)
    assert error.value.problems == problems
    assert isinstance(error.value, ValueError)


def test_the_caller_names_the_rows_as_its_page_shows_them():
    rows = _rows(row0={"low": 10})
    labels = [f"Line {index + 3}" for index in range(len(rows))]
    assert TraumaTable.problems(rows, labels=labels)[0].startswith("Line 3 (Dead): low 10")


@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=21),
            st.sampled_from(["low", "high", "code", "name", "scar", "injury"]),
            st.one_of(st.integers(min_value=0, max_value=70), st.sampled_from(["", "x", "dead", True, None])),
        ),
        max_size=4,
    )
)
def test_rows_are_a_table_exactly_when_they_have_no_problem(changes):
    rows = TABLE.to_rows()
    for index, name, value in changes:
        rows[index][name] = value
    problems = TraumaTable.problems(rows)
    if problems:
        with pytest.raises(TraumaTableError) as error:
            TraumaTable.from_rows(rows)
        assert error.value.problems == problems
    else:
        assert TraumaTable.from_rows(rows).to_rows() == sorted(
            rows, key=lambda row: (row["low"], row["high"])
        )
