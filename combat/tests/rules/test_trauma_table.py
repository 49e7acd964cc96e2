"""Tests for combat/rules/trauma_table.py and trauma_table_checks.py (TRAUMA_TABLE.md, RULING T-3): the Trauma
Table as data, loading it, and the one check that lists every problem of a set of rows."""

import json
from importlib import resources

import pytest

from combat.rules import Casualty, ScriptedDice, TraumaTable, trauma_step

TABLE = TraumaTable.default()


# --- the table as data -------------------------------------------------------------------------------------------


def test_the_default_table_is_trench_crusade_v1_0_with_the_1_0_2_changes():
    assert TABLE.name == "trench-crusade-1.0"
    assert TABLE.version == "1.0.2"
    assert "Trench Crusade" in TABLE.title
    assert len(TABLE.entries) == 22
    assert TraumaTable.named() == TraumaTable.names() == ("trench-crusade-1.0",)
    assert TraumaTable.named("trench-crusade-1.0") is TABLE


@pytest.mark.parametrize("name", TraumaTable.names())
def test_every_shipped_table_file_is_versioned_and_valid(name):
    folder = resources.files("combat.rules").joinpath("data", "trauma_tables")
    documents = [
        json.loads(path.read_text(encoding="utf-8"))
        for path in folder.iterdir()
        if path.name.endswith(".json")
    ]
    document = next(document for document in documents if document["name"] == name)
    assert document["format"] == 1
    assert document["version"]
    assert TraumaTable.from_document(document) == TraumaTable.named(name)


@pytest.mark.parametrize(
    ("roll", "code"),
    [(11, "dead"), (12, "captured"), (15, "lost_an_eye"), (34, "muscle_damage"), (35, "minor_wound"),
     (36, "robbed"), (41, "full_recovery"), (52, "full_recovery"), (63, "full_recovery"), (64, "hardened"),
     (65, "bitter_lessons"), (66, "prominent_scar")],
)  # fmt: skip
def test_the_default_table_reads_as_trauma_table_md(roll, code):
    assert TABLE.lookup(roll).code == code


def test_scars_and_injuries_follow_trauma_table_md():
    scarred = {entry.code for entry in TABLE.entries if entry.scar}
    kept = {entry.code for entry in TABLE.entries if entry.injury}
    assert scarred == kept | {"minor_wound"}
    assert "robbed" not in scarred
    assert not {"dead", "captured", "full_recovery", "hardened", "bitter_lessons", "prominent_scar"} & scarred


@pytest.mark.parametrize("number", [10, 17, 20, 67, 70, 0, -11, 3.4, "34", None])
def test_lookup_refuses_a_number_that_is_not_a_d66_result(number):
    with pytest.raises(ValueError, match="not a D66 result"):
        TABLE.lookup(number)


def test_an_unknown_table_name_is_refused():
    with pytest.raises(ValueError, match="no shipped Trauma Table is named 'mordheim'"):
        TraumaTable.named("mordheim")


def test_a_house_table_copied_from_the_default_works_alike():
    house = TraumaTable.from_rows(TABLE.to_rows(), name="our-house", version="2")
    assert house.entries == TABLE.entries
    assert house.name == "our-house"


def _rows_with(**changes):
    rows = TABLE.to_rows()
    for index, fields in changes.items():
        rows[int(index.removeprefix("row"))].update(fields)
    return rows


def test_a_table_with_a_gap_is_refused_naming_the_gap():
    rows = [row for row in TABLE.to_rows() if row["code"] != "robbed"]
    with pytest.raises(ValueError, match="no row covers D66 36: the table has a gap"):
        TraumaTable.from_rows(rows)


def test_a_table_with_an_overlap_is_refused_naming_the_roll():
    rows = _rows_with(row18={"low": 36})  # Full Recovery 36-63 meets Robbed on 36
    with pytest.raises(
        ValueError, match="D66 36 is in two rows: 'robbed' \\(36\\) and 'full_recovery' \\(36-63\\)"
    ):
        TraumaTable.from_rows(rows)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"low": 10}, "low must be a D66 result .* got 10"),
        ({"high": 67}, "high must be a D66 result .* got 67"),
        ({"high": 17}, "got 17"),
        ({"code": "Dead!"}, "got 'Dead!'"),
        ({"code": "removed"}, "code 'removed' is reserved"),
        ({"scar": "yes"}, "scar must be true or false, got 'yes'"),
        ({"name": " "}, "name must not be empty"),
        ({"notes": "x"}, "unknown fields notes"),
    ],
)
def test_a_bad_row_is_refused_naming_the_value(change, message):
    with pytest.raises(ValueError, match=message):
        TraumaTable.from_rows(_rows_with(row0=change))


def test_a_row_missing_a_field_or_a_row_that_is_not_a_mapping_is_refused():
    rows = TABLE.to_rows()
    del rows[3]["injury"]
    with pytest.raises(ValueError, match="row 3 has no injury"):
        TraumaTable.from_rows(rows)
    with pytest.raises(ValueError, match="row 0 must be a mapping"):
        TraumaTable.from_rows([[11, 11]])
    with pytest.raises(ValueError, match="rows must be a list"):
        TraumaTable.from_rows("dead")


def test_a_code_whose_rows_disagree_on_scar_is_refused():
    rows = _rows_with(row1={"code": "dead"})
    rows[1]["scar"] = True
    with pytest.raises(ValueError, match="code 'dead' has rows 11 and 12 that disagree"):
        TraumaTable.from_rows(rows)


def test_a_document_needs_its_format_name_and_version():
    with pytest.raises(ValueError, match="unknown Trauma Table format 2"):
        TraumaTable.from_document({"format": 2, "name": "x", "version": "1", "rows": []})
    with pytest.raises(ValueError, match="needs a version"):
        TraumaTable.from_document({"format": 1, "name": "x", "rows": TABLE.to_rows()})


def test_a_house_table_keeps_the_special_results_by_code():
    # Swap Dead (11) and Prominent Scar (66): the consequences follow the code, not the number.
    rows = _rows_with(
        row0={"code": "prominent_scar", "name": "Prominent Scar"}, row21={"code": "dead", "name": "Dead"}
    )
    house = TraumaTable.from_rows(rows)
    outcome = trauma_step([Casualty("hero", elite=True)], ScriptedDice([6, 6]), table=house)[0]
    assert outcome.removed
    assert outcome.reason == "dead"
