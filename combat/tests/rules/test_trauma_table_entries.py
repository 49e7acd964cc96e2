"""Tests for combat/rules/trauma_table.py and trauma_table_checks.py on a table built from `TraumaEntry` values (the
engine's own path, not the editor's rows), and on the order and reach of the whole-table checks (TRAUMA_TABLE.md,
RULINGS T-3 and T-5)."""

from dataclasses import replace

import pytest

from combat.rules import TraumaTable, TraumaTableError

TABLE = TraumaTable.default()


def _entry(code):
    return next(entry for entry in TABLE.entries if entry.code == code)


def _built(entries):
    with pytest.raises(TraumaTableError) as refused:
        TraumaTable(entries, name="house", version="1")
    return refused.value.problems, str(refused.value)


def _rows(**changes):
    rows = TABLE.to_rows()
    for index, fields in changes.items():
        rows[int(index.removeprefix("row"))].update(fields)
    return rows


def test_ruling_t_3_entries_with_a_gap_are_not_a_table():
    entries = [entry for entry in TABLE.entries if entry.code != "robbed"]
    assert _built(entries) == (
        ("The table has a gap: no row covers D66 36.",),
        "no row covers D66 36: the table has a gap",
    )


def test_ruling_t_3_overlapping_entries_are_named_by_their_results():
    entries = [replace(entry, low=36) if entry.code == "full_recovery" else entry for entry in TABLE.entries]
    assert _built(entries)[0] == ("Rows overlap: D66 36 is in both Robbed and Full Recovery.",)


def test_ruling_t_5_entries_sharing_a_code_are_not_a_table():
    entries = [
        replace(entry, code="hardened") if entry.code == "robbed" else entry for entry in TABLE.entries
    ]
    assert _built(entries) == (
        ("Two rows have the code hardened (Robbed, 36; Hardened, 64): give each result its own code.",),
        "code 'hardened' has rows 36 and 64; each code is on one row",
    )


def test_ruling_t_5_entries_sharing_a_code_that_disagree_on_the_battle_scar_alone_say_so():
    # Robbed (no Scar, no Injury) given Minor Wound's code (a Scar, no Injury).
    entries = [
        replace(entry, code="minor_wound") if entry.code == "robbed" else entry for entry in TABLE.entries
    ]
    assert _built(entries)[0] == (
        "Two rows have the code minor_wound (Minor Wound, 35; Robbed, 36) and they disagree on Battle Scar or "
        "Injury: give each result its own code.",
    )


def test_ruling_t_5_rows_sharing_a_code_that_disagree_on_the_injury_alone_say_so():
    # Minor Wound (a Scar, no Injury) given Chest Wound's code (a Scar and an Injury).
    words = (
        "Two rows have the code chest_wound (Chest Wound, 16; Minor Wound, 35) and they disagree on Battle Scar "
        "or Injury: give each result its own code.",
    )
    entries = [
        replace(entry, code="chest_wound") if entry.code == "minor_wound" else entry
        for entry in TABLE.entries
    ]
    assert _built(entries)[0] == words
    assert TraumaTable.problems(_rows(row16={"code": "chest_wound"})) == words


def test_ruling_t_3_rows_of_one_range_overlap_in_the_order_given():
    # Bitter Lessons moved onto Hardened's 64: the first row given holds 64, the second overlaps it.
    assert TraumaTable.problems(_rows(row20={"low": 64, "high": 64})) == (
        "Rows overlap: D66 64 is in both Hardened and Bitter Lessons.",
        "The table has a gap: no row covers D66 65.",
    )


def test_ruling_t_3_an_overlap_past_the_numbers_a_d66_cannot_give_is_still_found():
    # Chest Wound 16-21 runs over 17 to 20, which no D66 gives, onto Insomniac's 21.
    assert TraumaTable.problems(_rows(row5={"high": 21})) == (
        "Rows overlap: D66 21 is in both Chest Wound and Insomniac.",
    )


def test_ruling_t_5_a_code_wrong_in_itself_does_not_hide_the_shared_codes_after_it():
    rows = _rows(row0={"code": 5}, row20={"code": "hardened"})
    with pytest.raises(TraumaTableError) as refused:
        TraumaTable.from_rows(rows)
    assert refused.value.problems == (
        "Row 1 (Dead): code must be lower-case letters, digits and underscores, starting with a letter, got 5.",
        "Two rows have the code hardened (Hardened, 64; Bitter Lessons, 65): give each result its own code.",
    )
    # A code that is not text does not name the row in the detail.
    assert str(refused.value) == (
        "row 0: code must be lower-case letters, digits and underscores, starting with a letter, got 5; "
        "code 'hardened' has rows 64 and 65; each code is on one row"
    )


def test_the_detail_lists_every_missing_and_unknown_field_and_an_empty_name():
    rows = TABLE.to_rows()
    del rows[0]["high"], rows[0]["injury"]
    rows[1].update(notes="x", colour="red")
    rows[2]["name"] = ""
    with pytest.raises(TraumaTableError) as refused:
        TraumaTable.from_rows(rows)
    assert refused.value.problems == (
        "Row 1 (Dead) has no high, injury.",
        "Row 2 (Captured) has unknown fields colour, notes.",
        "Row 3: the result needs a name.",
    )
    assert str(refused.value) == (
        "row 0 has no high, injury: "
        + repr({key: value for key, value in TABLE.to_rows()[0].items() if key not in ("high", "injury")})
        + "; row 1 has unknown fields colour, notes; row 2 ('severe_nerve_damage'): name must not be empty"
    )


def test_an_empty_table_is_told_in_both_words():
    with pytest.raises(TraumaTableError) as refused:
        TraumaTable.from_rows([])
    assert (refused.value.problems, str(refused.value)) == (
        ("The table has no rows.",),
        "the table has no rows",
    )
