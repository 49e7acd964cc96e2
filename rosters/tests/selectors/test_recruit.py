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


def test_the_value_and_models_after_the_order_against_the_next_battles_limits(campaign, organiser, warband):
    from rosters.selectors.limits import WarbandLimits

    price_services.price_list_copy_demo(campaign=campaign, by=organiser)
    page = recruit_page(warband=warband)
    limits = WarbandLimits(
        value=600, models=9, battles_played=0, next_battle=1, threshold=700, field_strength=10, enabled=True
    )
    within = recruit_totals(
        page=page, strongbox=500, fighters={"Mire Pilgrim": 1}, battlekit={}, limits=limits
    )
    assert (within.value_after, within.models_after) == (640, 10)
    assert not within.over_threshold
    assert not within.over_field_strength
    over = recruit_totals(
        page=page, strongbox=500, fighters={"Lantern Warden": 2}, battlekit={}, limits=limits
    )
    assert (over.value_after, over.models_after, over.over_threshold, over.over_field_strength) == (
        780,
        11,
        True,
        True,
    )
    unlimited = WarbandLimits(600, 9, 0, 1, None, None, False)  # a preset without limits
    free = recruit_totals(
        page=page, strongbox=500, fighters={"Lantern Warden": 2}, battlekit={}, limits=unlimited
    )
    assert not free.over_threshold
    assert not free.over_field_strength
    assert recruit_totals(page=page, strongbox=0, fighters={}, battlekit={}).value_after is None
