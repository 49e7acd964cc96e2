"""Loading a Trauma Table: names, versions and titles of shipped and house tables, and errors that name the row
(seed 003, TRAUMA_TABLE.md, docs/engine.md, `trauma_table.py`)."""

import pytest

from combat.rules import TraumaTable

ROWS = TraumaTable.default().to_rows()


def document(**fields):
    return {"format": 1, "name": "club", "version": "2", "rows": ROWS, **fields}


def test_the_shipped_table_is_trench_crusade_1_0_with_the_1_0_2_changes():
    table = TraumaTable.default()
    assert (table.name, table.version, table.title) == (
        "trench-crusade-1.0",
        "1.0.2",
        "Trench Crusade campaign rules v1.0, with the 1.0.2 changes",
    )


def test_a_house_table_from_rows_is_called_house_version_1_and_titled_by_its_name():
    table = TraumaTable.from_rows(ROWS)
    assert (table.name, table.version, table.title) == ("house", "1", "house")
    named = TraumaTable.from_rows(ROWS, name="club", version="3")
    assert (named.name, named.version, named.title) == ("club", "3", "club")


def test_a_document_gives_its_title_or_its_name():
    assert TraumaTable.from_document(document(title="Club table")).title == "Club table"
    assert TraumaTable.from_document(document()).title == "club"


def test_equal_tables_hash_alike():
    first, second = TraumaTable.from_rows(ROWS), TraumaTable.from_rows(ROWS)
    assert hash(first) == hash(second)
    assert {first: "cached"}[second] == "cached"


def test_a_documents_bad_row_is_named_by_its_index():
    rows = [*ROWS[:2], {**ROWS[2], "low": 14}]
    with pytest.raises(ValueError, match=r"^row 2 \('severe_nerve_damage'\): low 14 is above high 13$"):
        TraumaTable.from_document(document(rows=rows))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([], r"^a Trauma Table document must be a mapping, got list$"),
        ({"format": 1, "name": "club", "version": ""}, r"^a Trauma Table document needs a version, got ''$"),
        ({"format": 1, "name": "club", "version": "2", "rows": "x"}, "^a Trauma Table document needs a list of rows, got 'x'$"),
    ],
)  # fmt: skip
def test_a_bad_document_is_refused_with_a_reason(bad, message):
    with pytest.raises(ValueError, match=message):
        TraumaTable.from_document(bad)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("x", r"^row 0 must be a mapping of low, high, code, name, effect, scar, injury, got 'x'$"),
        ({"low": 11}, r"^row 0 has no high, code, name, effect, scar, injury: \{'low': 11\}$"),
        ({**ROWS[0], "odd": 1, "even": 2}, r"^row 0 has unknown fields even, odd$"),
        ({**ROWS[0], "effect": 3}, r"^row 0 \('dead'\): effect must be text, got 3$"),
    ],
)
def test_a_bad_row_is_refused_with_a_reason(row, message):
    # The bad row stands in for the first row of a whole table, so its own problem is the only one listed
    # (the validator lists every problem of the rows it is given: a lone row would also leave gaps).
    with pytest.raises(ValueError, match=message):
        TraumaTable.from_rows([row, *ROWS[1:]])


def test_rows_must_be_a_list_of_rows():
    with pytest.raises(ValueError, match="^rows must be a list of row mappings, got dict$"):
        TraumaTable.from_rows({"low": 11})


def test_a_gap_lists_every_missing_d66():
    with pytest.raises(ValueError, match="^no row covers D66 65, 66: the table has a gap$"):
        TraumaTable.from_rows(ROWS[:-2])
