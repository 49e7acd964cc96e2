"""Hire & Trade picks a purchase from the campaign's price list ("with a list, recruiting and
buying pick from it and fill the cost in"): the form fills the cost, keywords, removable and profile from the
newest list's row; the service plans it and the Apply writes it as listed."""

import pytest

from combat.forms.post_game_money import PurchaseForm
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.trade import post_game_trade_add
from combat.tests.money_helpers import entries, ledger_sum, opening_entry
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import fresh_player
from rosters.models import Fighter, Item, PriceList
from rosters.price_lists import checked_rows
from rosters.selectors import price_lists

pytestmark = pytest.mark.django_db

BATTLEKIT = [{"name": "Maul", "cost": 20, "keywords": ["HEAVY", "TWO-HANDED"], "removable": False}]
FIGHTERS = [
    {"name": "Yeoman", "cost": 25, "keywords": ["INFANTRY"], "movement": 5, "health": 2, "harm_limit": None}
]


@pytest.fixture
def listed(campaign, warband, rival_warband, fighters, organiser):
    opening_entry(warband)  # 50 ducats
    for kind, rows in (("battlekit", BATTLEKIT), ("fighters", FIGHTERS)):
        PriceList.objects.create(
            campaign=campaign, kind=kind, version=1, rows=checked_rows(kind, rows), created_by=organiser
        )
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def form(after, kind, data):
    state = after.state()
    return PurchaseForm(
        data,
        kind=kind,
        terms=state.terms,
        listed=price_lists.listed(campaign=state.campaign, kind="battlekit" if kind == "buy" else "fighters"),
        holders=state.trade.holders,
    )


def test_a_purchase_and_a_recruit_picked_from_the_price_list_are_planned_and_applied(
    listed, warband, fighters, player
):
    marcus = fighters["marcus"]
    buy = form(listed, "buy", {"buy-listed": "Maul", "buy-holder": str(marcus.pk), "buy-cost": "999"})
    assert buy.is_valid(), buy.errors
    planned = post_game_trade_add(player=fresh_player(listed), by=player, trade=buy.trade())
    # The list's cost, keywords and removable, whatever was typed beside it.
    assert (planned.name, planned.cost, planned.keywords, planned.removable) == (
        "Maul",
        20,
        ["HEAVY", "TWO-HANDED"],
        False,
    )
    recruit = form(listed, "recruit", {"recruit-listed": "Yeoman", "recruit-name": "Pell"})
    assert recruit.is_valid(), recruit.errors
    post_game_trade_add(player=fresh_player(listed), by=player, trade=recruit.trade())
    assert listed.state().trade.strongbox_after == 5

    post_game_apply(player=fresh_player(listed), by=player)
    maul = Item.objects.get(warband=warband, name="Maul")
    assert (maul.fighter_id, maul.cost, maul.removable) == (marcus.pk, 20, False)
    pell = Fighter.objects.get(warband=warband, name="Pell")
    assert (pell.fighter_type, pell.cost, pell.keywords, pell.movement, pell.health) == (
        "Yeoman",
        25,
        ["INFANTRY"],
        5,
        2,
    )
    assert entries(warband, listed.game) == [("buy", -20), ("recruit", -25)]
    warband.refresh_from_db()
    assert warband.strongbox == 5 == ledger_sum(warband)


def test_a_name_not_on_the_price_list_is_refused(listed):
    buy = form(listed, "buy", {"buy-listed": "Golden Maul", "buy-holder": "arsenal"})
    assert not buy.is_valid()
    assert "Select a valid choice" in " ".join(buy.errors["listed"])
