"""Row addresses reversed once per pattern (rosters/row_urls.py) are the ones `reverse()` gives for each id."""

import pytest
from django.urls import reverse, set_script_prefix

from rosters.row_urls import PLACEHOLDER, url_for_ids


@pytest.mark.parametrize(
    "name", ["fighter_detail", "fighter_xp", "fighter_edit", "fighter_row", "warband_detail"]
)
def test_each_id_gets_the_address_reverse_gives(name):
    address = url_for_ids(name)
    for pk in (1, 7, 10, 99, 2_147_483_647):
        assert address(pk) == reverse(name, args=[pk])


def test_the_address_follows_the_request_s_script_prefix():
    set_script_prefix("/ledger/")
    try:
        assert url_for_ids("fighter_xp")(12) == "/ledger/fighters/12/xp/" == reverse("fighter_xp", args=[12])
    finally:
        set_script_prefix("/")


def test_the_placeholder_is_no_id_a_row_has():
    # PostgreSQL's bigint ids count up from 1; this one is far beyond any roster, and its digits appear once.
    assert reverse("fighter_detail", args=[PLACEHOLDER]).count(str(PLACEHOLDER)) == 1
