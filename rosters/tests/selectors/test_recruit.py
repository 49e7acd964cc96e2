"""rosters/selectors/recruit.py: the recruit page in one query whatever the list's length, the totals in none."""

import pytest

from rosters.selectors.recruit import recruit_page, recruit_totals
from rosters.services import price_lists as price_services

pytestmark = pytest.mark.django_db


def test_the_page_reads_both_lists_in_one_query(campaign, organiser, warband, django_assert_num_queries):
    price_services.price_list_copy_demo(campaign=campaign, by=organiser)
    with django_assert_num_queries(1):
        page = recruit_page(warband=warband)
    assert [row["name"] for row in page.fighters] == ["Lantern Warden", "Mire Pilgrim", "Trench Runner"]
    assert page.versions == {"fighters": 1, "battlekit": 1}
    assert not page.empty


def test_no_list_is_an_empty_page(warband):
    page = recruit_page(warband=warband)
    assert page.empty
    assert page.versions == {"fighters": None, "battlekit": None}


def test_the_totals_cost_no_query_and_count_only_fighters_in_the_value(
    campaign, organiser, warband, django_assert_num_queries
):
    price_services.price_list_copy_demo(campaign=campaign, by=organiser)
    page = recruit_page(warband=warband)
    with django_assert_num_queries(0):
        totals = recruit_totals(
            page=page, strongbox=50, fighters={"Mire Pilgrim": 1}, battlekit={"Chain Sling": 3, "Unknown": 2}
        )
    assert (totals.order.total, totals.order.left, totals.order.can_pay, totals.short) == (55, -5, False, 5)
    assert (totals.fighters, totals.value_added) == (1, 40)  # the Arsenal's Battlekit is not counted (C-2)
