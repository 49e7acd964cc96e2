"""The rows a campaign stores for its house Trauma Table (RULING T-3, TRAUMA_TABLE.md): checked by the engine.

Moved from campaigns/tests/test_trauma_tables.py when campaigns' own validator went: `checked_rows` (the rows the
service stores) now asks the engine, and these tests check it accepts and refuses the same tables as the engine.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign
from campaigns.selectors import trauma_table_rows
from combat import rules
from combat.rules import TraumaTableError
from combat.rules.trauma_table import D66_VALUES
from combat.selectors.trauma_table import default_rows
from combat.services.trauma_table import checked_rows as check_rows


def rows_in_use(house_rows):
    """The rows the campaign rolls on (campaigns.selectors.trauma_table_rows), for a campaign holding `house_rows`."""
    return trauma_table_rows(campaign=Campaign(house_trauma_table=house_rows))


def test_the_default_table_covers_every_d66_result_once():
    rows = check_rows(default_rows())
    covered = [roll for roll in D66_VALUES for row in rows if row["low"] <= roll <= row["high"]]
    assert covered == list(D66_VALUES)
    assert [row["code"] for row in rows][:2] == ["dead", "captured"]


def test_the_default_rows_are_the_engines_default_table():
    assert default_rows() == rules.TraumaTable.default().to_rows()


def test_rows_in_use_are_the_house_rows_when_there_are_some():
    house = default_rows()
    house[0]["name"] = "Gone"
    assert rows_in_use(house)[0]["name"] == "Gone"
    assert rows_in_use(None) == default_rows()


def test_it_names_every_problem_at_once():
    rows = default_rows()
    rows[0]["low"] = 10  # not a D66 result
    rows[1]["name"] = " "
    with pytest.raises(TraumaTableError) as error:
        check_rows(rows)
    assert len(error.value.problems) == 2


def test_it_refuses_rows_that_disagree_on_scar_for_one_code():
    rows = default_rows()
    rows[2]["code"] = "hand_wound"
    rows[3]["scar"] = False
    with pytest.raises(TraumaTableError, match="disagree"):
        check_rows(rows)


@pytest.mark.parametrize("bad", ["removed", "Dead", "1st", ""])
def test_it_refuses_a_bad_code(bad):
    rows = default_rows()
    rows[0]["code"] = bad
    with pytest.raises(TraumaTableError, match="code"):
        check_rows(rows)


def test_it_refuses_something_that_is_not_a_list_of_rows():
    for value in ("rows", {"low": 11}, None, 42, []):
        with pytest.raises(TraumaTableError):
            check_rows(value)


def _engine_accepts(rows) -> bool:
    try:
        rules.TraumaTable.from_rows(rows)
    except ValueError:
        return False
    return True


def _ours_accepts(rows) -> bool:
    try:
        check_rows(rows)
    except TraumaTableError:
        return False
    return True


def _mutations():
    d66 = st.sampled_from(D66_VALUES)
    any_number = st.integers(min_value=0, max_value=70)
    field_values = st.one_of(
        st.tuples(st.just("low"), st.one_of(d66, any_number)),
        st.tuples(st.just("high"), st.one_of(d66, any_number)),
        st.tuples(st.just("code"), st.sampled_from(["dead", "x", "removed", "Bad", "a_b1", ""])),
        st.tuples(st.just("name"), st.sampled_from(["", " ", "Gone"])),
        st.tuples(st.just("scar"), st.sampled_from([True, False, 1, None])),
        st.tuples(st.just("injury"), st.sampled_from([True, False, "yes"])),
    )
    return st.lists(st.tuples(st.integers(min_value=0, max_value=21), field_values), max_size=3)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(changes=_mutations(), drop=st.lists(st.integers(min_value=0, max_value=21), max_size=2))
def test_it_agrees_with_the_engine_on_edited_tables(changes, drop):
    rows = default_rows()
    for index, (name, value) in changes:
        rows[index][name] = value
    rows = [row for index, row in enumerate(rows) if index not in set(drop)]
    assert _ours_accepts(rows) == _engine_accepts(rows)
