"""Tests for combat/forms/trauma_table.py: the editor's rows, read from the page and checked by the engine."""

from combat.forms.trauma_table import TraumaTableFormSet
from combat.selectors.trauma_table import default_rows
from combat.tests.views.test_trauma_table import table_post


def test_the_blank_row_and_deleted_rows_are_not_part_of_the_table():
    rows = default_rows()
    rows.append({"low": 66, "high": 66, "code": "extra", "name": "Extra", "effect": ""})
    data = table_post(rows)
    data[f"rows-{len(rows) - 1}-DELETE"] = "on"
    formset = TraumaTableFormSet(data, prefix="rows")
    assert formset.is_valid(), formset.non_form_errors()
    assert formset.rows == default_rows()


def test_the_rows_together_are_refused_with_every_problem_named_by_the_pages_row_numbers():
    rows = default_rows()
    rows[3]["code"] = "severe_nerve_damage"  # Hand Wound given row 3's code
    rows[5]["high"] = 17  # Chest Wound 16-17
    formset = TraumaTableFormSet(table_post(rows), prefix="rows")
    assert not formset.is_valid()
    assert list(formset.non_form_errors()) == [
        "Row 6 (Chest Wound): high 17 is not a D66 result (two digits, each 1 to 6, so 16 is followed by 21).",
        "Two rows have the code severe_nerve_damage (Severe Nerve Damage, 13; Hand Wound, 14): give each result "
        "its own code.",
    ]


def test_a_field_the_form_cannot_read_is_told_on_its_row():
    rows = default_rows()
    rows[0]["name"] = ""
    formset = TraumaTableFormSet(table_post(rows), prefix="rows")
    assert not formset.is_valid()
    assert formset.forms[0].errors["name"] == ["This field is required."]
    assert list(formset.non_form_errors()) == []
