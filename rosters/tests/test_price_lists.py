"""rosters/price_lists.py: what makes a price list's rows (the roster's own limits), and CSV and JSON both ways."""

import json

import pytest
from django.core.exceptions import ValidationError

from campaigns.fields import WholeNumberField
from rosters.price_lists import (
    DEMO_ROWS,
    PriceListError,
    checked_rows,
    rows_from_csv,
    rows_from_text,
    rows_to_csv,
    rows_to_json,
)


@pytest.mark.parametrize("kind", ["fighters", "battlekit"])
def test_the_demo_rows_are_a_price_list_and_survive_csv_and_json(kind):
    rows = checked_rows(kind, DEMO_ROWS[kind])
    assert checked_rows(kind, rows_from_csv(kind, rows_to_csv(kind, rows))) == rows
    assert checked_rows(kind, rows_from_text(kind, rows_to_json(kind, rows), fmt="auto")) == rows


def test_keywords_read_from_one_csv_cell_upper_case():
    rows = checked_rows(
        "battlekit",
        rows_from_csv("battlekit", "name,cost,keywords,removable\nMaul,20,heavy; two-handed,no\n"),
    )
    assert rows == [{"name": "Maul", "cost": 20, "keywords": ["HEAVY", "TWO-HANDED"], "removable": False}]


def test_a_fighter_type_without_a_harm_limit_reads_as_none():
    text = "name,cost,keywords,movement,health,harm_limit\nHulk,120,,5,3,\n"
    assert checked_rows("fighters", rows_from_csv("fighters", text))[0]["harm_limit"] is None


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        (
            [{"name": "Lance", "cost": -1, "keywords": [], "removable": True}],
            "cost must be from 0 to 10000, got -1",
        ),
        (
            [{"name": "Lance", "cost": 10_001, "keywords": [], "removable": True}],
            "cost must be from 0 to 10000",
        ),
        ([{"name": "Lance", "cost": True, "keywords": [], "removable": True}], "cost must be a whole number"),
        ([{"name": " ", "cost": 1, "keywords": [], "removable": True}], "Row 1 has no name."),
        (
            [{"name": "Lance", "cost": 1, "keywords": []}, {"name": "lance", "cost": 2, "keywords": []}],
            "Row 2: lance is listed twice.",
        ),
        (
            [{"name": "Lance", "cost": 1, "keywords": [], "price": 3}],
            "fields a price list does not know: price",
        ),
    ],
)
def test_rows_past_the_rosters_limits_are_refused_with_the_reason(rows, problem):
    with pytest.raises(PriceListError) as refused:
        checked_rows("battlekit", rows)
    assert any(problem in said for said in refused.value.problems), refused.value.problems


def test_a_fighter_types_profile_is_held_to_the_fighters_limits():
    row = {"name": "Giant", "cost": 10, "keywords": [], "movement": 6, "health": 21, "harm_limit": 3}
    with pytest.raises(PriceListError, match="health must be from 1 to 20"):
        checked_rows("fighters", [row])


def test_a_csv_with_other_fields_is_refused():
    with pytest.raises(PriceListError, match="must name the fields name, cost, keywords, removable"):
        rows_from_csv("battlekit", "name,price\nLance,3\n")


def test_a_json_list_of_another_kind_is_refused():
    text = json.dumps({"format": "warband-ledger/price-list", "version": 1, "kind": "fighters", "rows": []})
    with pytest.raises(PriceListError, match="not a price list of battlekit"):
        rows_from_text("battlekit", text, fmt="json")


@pytest.mark.parametrize("cost", ["١", "٣٠", "2٠", "７"])
def test_a_csv_number_in_another_scripts_digits_is_refused_with_the_forms_words(cost):
    """int() reads "١" as 1; the forms refuse it (campaigns/fields.py), and so does the CSV, through the same check."""
    with pytest.raises(PriceListError) as refused:
        rows_from_csv("battlekit", f"name,cost,keywords,removable\nLance,{cost},,yes\n")
    assert refused.value.problems == (f"Line 2: cost: {WholeNumberField.default_error_messages['digits']}",)
    with pytest.raises(ValidationError) as form_refused:
        WholeNumberField().clean(cost)
    assert form_refused.value.messages == [WholeNumberField.default_error_messages["digits"]]
