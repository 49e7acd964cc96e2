"""Tests for combat/rules/campaign_exploration.py's Location tables and checked inputs, each table built inside its
test (RULINGS E-3, E-4): a score of 0 is a score, a table's key names the table a Location is found on,
and what is not a table, a set of found codes or a list of faces is refused in plain words."""

from fractions import Fraction

import pytest

from combat.rules import (
    CampaignTableError,
    Location,
    LocationTable,
    exploration_score,
    find_locations,
    location_odds,
    score_odds,
)

ROWS = [
    {"score": 0, "code": "empty_trench", "name": "Empty Trench"},
    {"score": 2, "code": "dead_mans_cache", "name": "Dead Man's Cache"},
]


def _common():
    # Its name is not its key in `tables`: the key is what find_locations and location_odds report (RULING E-4).
    return LocationTable.from_rows(ROWS, name="Common Locations")


def test_e_3_a_score_of_0_is_an_exploration_score_so_a_location_may_sit_on_it():
    assert LocationTable.problems(ROWS) == ()
    assert find_locations(0, tables={"common": _common()}, allowed=("common",)) == (
        Location(0, "empty_trench", "Empty Trench", "common"),
    )


def test_e_4_a_location_found_is_on_the_table_of_its_key():
    tables = {"common": _common()}
    assert find_locations(2, tables=tables, allowed=("common",)) == (
        Location(2, "dead_mans_cache", "Dead Man's Cache", "common"),
    )
    assert location_odds(dice=1, tables=tables, allowed=("common",), modifier=-4) == {
        Location(0, "empty_trench", "Empty Trench", "common"): Fraction(4, 6),
        Location(2, "dead_mans_cache", "Dead Man's Cache", "common"): Fraction(1, 6),
    }


def test_a_location_table_built_from_locations_is_checked_and_reads_each_score():
    table = LocationTable([Location(2, "well", "Well", ""), Location(5, "crypt", "Crypt", "")])
    assert (table.name, table.at(2), table.at(5), table.at(3)) == (
        "",
        Location(2, "well", "Well", ""),
        Location(5, "crypt", "Crypt", ""),
        None,
    )
    with pytest.raises(CampaignTableError) as refused:
        LocationTable([Location(2, "well", "Well", ""), Location(2, "crypt", "Crypt", "")])
    assert refused.value.problems == ("Two rows have the score 2 (Well; Crypt): a score holds one Location.",)


def test_a_location_table_from_rows_has_no_name_unless_given_one():
    table = LocationTable.from_rows(ROWS)
    assert (table.name, table.locations) == (
        "",
        (
            Location(0, "empty_trench", "Empty Trench", ""),
            Location(2, "dead_mans_cache", "Dead Man's Cache", ""),
        ),
    )


@pytest.mark.parametrize("rows", ["score,code,name", {"score": 2, "code": "well", "name": "Well"}, 7])
def test_rows_that_are_not_a_list_are_one_problem_when_building_a_table(rows):
    with pytest.raises(CampaignTableError) as refused:
        LocationTable.from_rows(rows)
    assert refused.value.problems == ("A Location table is a list of rows.",)


def test_tables_and_found_must_be_what_find_locations_reads():
    with pytest.raises(
        ValueError, match=r"^tables must map table names to LocationTables, got \[LocationTable"
    ):
        find_locations(2, tables=[_common()], allowed=("common",))
    with pytest.raises(ValueError, match=r"^found must be a set of Location codes, got \['well'\]$"):
        find_locations(2, tables={"common": _common()}, allowed=("common",), found=["well"])


def test_e_3_the_faces_must_be_a_sequence_of_d6_faces():
    with pytest.raises(ValueError, match=r"^faces must be a sequence of D6 faces, got 5$"):
        exploration_score(5)
    with pytest.raises(ValueError, match=r"^faces must be a sequence of D6 faces, got '35'$"):
        exploration_score("35")


def test_e_3_the_score_odds_take_no_modifier_unless_given_one():
    assert score_odds(dice=1) == {face: Fraction(1, 6) for face in range(1, 7)}
