"""combat/services/post_game/trade.py on PostgreSQL: Hire & Trade (CAMPAIGN_PHASE.md step 6, "Buying, selling";
RULING C-3) planned, applied in the Apply's one transaction with one ledger entry each, and reverted exactly."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.dismiss import post_game_dismiss
from combat.services.post_game.revert import post_game_revert
from combat.services.post_game.trade import post_game_trade_pass, post_game_trade_remove
from combat.tests.money_helpers import buy, entries, ledger_sum, opening_entry, recruit, sell
from combat.tests.post_game_helpers import arsenal, game_with, kit, roster_snapshot
from combat.tests.promotion_helpers import fresh_player
from rosters.models import Fighter, Item
from rosters.services.strongbox import strongbox_adjust

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(campaign, warband, rival_warband, fighters):
    opening_entry(warband)  # 50 ducats
    Item.objects.filter(warband=warband, name="Shield").update(cost=15)
    Item.objects.filter(warband=warband, name="Reliquary").update(cost=40)
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def item(warband, name):
    return Item.objects.get(warband=warband, name=name)


def test_a_sale_brings_half_the_cost_rounded_up(played, warband, player):
    sell(played, player, item(warband, "Shield"))
    (line,) = played.state().trade.lines
    assert (line.ducats, line.words) == (8, "Sold Shield for 8 ducats (half of 15, rounded up)")  # RULING C-3
    assert played.state().trade.strongbox_after == 58


def test_kit_that_cannot_be_removed_cannot_be_sold(played, warband, player):
    with pytest.raises(PostGameError, match=r"Reliquary cannot be removed from Brother Marcus.*T-4"):
        sell(played, player, item(warband, "Reliquary"))
    assert played.state().trade.lines == []


def test_a_purchase_the_strongbox_cannot_pay_is_refused_and_nothing_is_stored(played, player):
    buy(played, player, "Musket", 30)
    with pytest.raises(PostGameError, match="Grenades costs 25 ducats: the Strongbox holds 50 ducats"):
        buy(played, player, "Grenades", 25)
    assert [line.trade.name for line in played.state().trade.lines] == ["Musket"]


def test_a_sale_may_pay_for_a_purchase(played, warband, player):
    sell(played, player, item(warband, "Shield"))  # +8
    buy(played, player, "Musket", 58)
    assert played.state().trade.strongbox_after == 0
    with pytest.raises(PostGameError, match="Without the sale of Shield"):
        post_game_trade_remove(
            player=fresh_player(played), by=player, trade_id=played.state().trade.lines[0].id
        )


def test_a_bad_cost_is_refused_in_plain_words(played, player):
    with pytest.raises(PostGameError, match="less than or equal to 10000"):
        buy(played, player, "Gold Musket", 20_000)
    with pytest.raises(PostGameError, match="This field cannot be blank"):
        recruit(played, player, "   ", 5)
    assert played.state().trade.lines == []


def test_passing_the_step_with_nothing_bought(played, player):
    assert not played.state().trade.passed
    post_game_trade_pass(player=fresh_player(played), by=player)
    assert played.state().trade.passed


def test_trades_applied_with_a_ledger_entry_each_then_reverted_exactly(played, warband, fighters, player):
    before = roster_snapshot(warband)
    marcus = fighters["marcus"]
    sell(played, player, item(warband, "Shield"))
    buy(played, player, "Musket", 20, holder=marcus, keywords=["heavy"])
    recruit(played, player, "Yeoman Pell", 25, fighter_type="Yeoman")

    post_game_apply(player=fresh_player(played), by=player)

    warband.refresh_from_db()
    assert warband.strongbox == 50 + 8 - 20 - 25
    assert entries(warband, played.game) == [("sell", 8), ("buy", -20), ("recruit", -25)]
    assert ledger_sum(warband) == warband.strongbox
    assert kit(marcus) == ["Musket", "Reliquary", "Trench Club"]
    assert Item.objects.get(name="Musket").keywords == ["HEAVY"]
    pell = Fighter.objects.get(warband=warband, name="Yeoman Pell")
    assert (pell.cost, pell.fighter_type, pell.status) == (25, "Yeoman", Fighter.Status.ACTIVE)
    assert "Shield" not in kit(fighters["ada"])

    post_game_revert(player=fresh_player(played), by=player)
    assert roster_snapshot(warband) == before
    assert ledger_sum(warband) == 50
    assert played.state().trade.strongbox_after == 13  # the plan is kept: the same attempt, open again


def test_the_revert_is_refused_when_the_sales_ducats_are_spent(played, warband, player):
    sell(played, player, item(warband, "Shield"))
    post_game_apply(player=fresh_player(played), by=player)
    Item.objects.filter(warband=warband).update(cost=0)
    strongbox_adjust(warband=warband, by=player, reason="spent at the market", ducats=-58)
    with pytest.raises(PostGameError, match="ducats of the sales are spent since"):
        post_game_revert(player=fresh_player(played), by=player)
    warband.refresh_from_db()
    assert warband.strongbox == 0
    assert ledger_sum(warband) == 0


def test_kit_the_trauma_step_sent_to_the_arsenal_may_be_sold(
    campaign, warband, rival_warband, fighters, player
):
    opening_entry(warband)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_dismiss(player=fresh_player(after), by=player, fighter_ids=[fighters["ada"].pk])
    names = sorted(offer.item.name for offer in after.state().trade.sellable)
    # Sister Ada's Blessed Icon leaves with her (RULING T-4); her other kit is in the Arsenal and may be sold.
    assert "Blessed Icon" not in names
    assert {"Heavy Flamer", "Shield"} <= set(names)
    sell(after, player, item(warband, "Heavy Flamer"))
    post_game_apply(player=fresh_player(after), by=player)
    assert arsenal(warband) == ["Shield"]
