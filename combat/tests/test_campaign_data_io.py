"""Tests for combat/campaign_data_io.py: the rows of every kind read back from their own CSV and JSON exactly
(Hypothesis), and the limits the models set are told in plain words."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns.fields import DIGITS_ONLY
from combat.campaign_data_io import (
    CampaignDataError,
    checked_rows,
    rows_from_text,
    rows_to_csv,
    rows_to_json,
    title,
)
from combat.models.campaign_data import MAX_ROWS

# Names as a group types them: any printable text on one line (no NUL: PostgreSQL refuses it), not blank.
names = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40
).filter(lambda name: name.strip())
codes = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)


@st.composite
def skill_rows(draw):
    rolls = draw(st.lists(st.integers(2, 12), min_size=1, max_size=11, unique=True))
    chosen = draw(st.lists(codes, min_size=len(rolls), max_size=len(rolls), unique=True))
    return [
        {"roll": roll, "code": code, "name": draw(names)} for roll, code in zip(rolls, chosen, strict=True)
    ]


@st.composite
def fighter_type_rows(draw):
    chosen = draw(st.lists(names, max_size=8, unique_by=lambda name: name.strip().casefold()))
    return [
        {"name": name, "never_promoted": draw(st.booleans()), "limited_potential": draw(st.booleans())}
        for name in chosen
    ]


@given(skill_rows(), st.sampled_from(["csv", "json"]))
def test_a_skill_chart_reads_back_from_its_own_export(rows, fmt):
    clean = checked_rows("skill_chart:ranged", rows)
    text = (
        rows_to_csv("skill_chart:ranged", clean)
        if fmt == "csv"
        else rows_to_json("skill_chart:ranged", clean)
    )
    assert checked_rows("skill_chart:ranged", rows_from_text("skill_chart:ranged", text, fmt="auto")) == clean


@given(fighter_type_rows(), st.sampled_from(["csv", "json"]))
def test_fighter_types_read_back_from_their_own_export(rows, fmt):
    clean = checked_rows("fighter_types", rows)
    text = rows_to_csv("fighter_types", clean) if fmt == "csv" else rows_to_json("fighter_types", clean)
    assert checked_rows("fighter_types", rows_from_text("fighter_types", text, fmt=fmt)) == clean


def test_rows_that_are_not_a_list_are_told_with_the_kinds_own_capitals():
    with pytest.raises(CampaignDataError) as refused:
        checked_rows("location_table:common", {"score": 3})
    assert refused.value.problems == ("The Common Locations: a list of rows is needed.",)


def test_each_kind_has_its_words():
    assert title("skill_chart:melee_strength") == "the Melee & Strength skill chart"
    assert title("location_table:legendary") == "the Legendary Locations"
    assert title("fighter_types") == "the fighter types"
    assert title("patron_skills:4", warband="The Grey Legion") == "the Patron skills of The Grey Legion"


def test_too_many_rows_and_too_long_a_code_are_told():
    rows = [
        {"code": f"skill_{n}" + "x" * 40 * (n == 0), "name": f"S {n}"}
        for n in range(MAX_ROWS["patron_skills"] + 1)
    ]
    with pytest.raises(CampaignDataError) as refused:
        checked_rows("patron_skills:1", rows)
    assert refused.value.problems == (
        "A warband's Patron skills: 31 rows, at most 30.",
        "Row 1: the code is longer than 40 characters.",
    )


def test_a_csv_number_in_another_scripts_digits_is_refused_with_the_forms_words():
    """int() reads "٧" as 7; the forms refuse it (campaigns/fields.py), and so does the CSV, through the same check."""
    with pytest.raises(CampaignDataError) as refused:
        rows_from_text("skill_chart:ranged", "roll,code,name\n٧,aim,Aim\n", fmt="csv")
    assert f"Line 2: roll: {DIGITS_ONLY}" in refused.value.problems
