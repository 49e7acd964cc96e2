"""combat/views/post_game/reinforcements.py and trade.py: the money steps' pages, every
refusal a 422 with its reason and nothing changed, the Review and the applied overview telling them, and the same
number of queries for one fighter as for ten."""

import pytest
from django.urls import reverse

from combat.models import PostGame, PostGameTrade
from combat.tests.money_helpers import buy
from combat.tests.post_game_helpers import enter, record_game
from rosters.models import Fighter, Item, StrongboxEntry, Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def after(campaign, warband, rival_warband, make_fighter):
    marcus = make_fighter(warband, "Brother Marcus", elite=True, cost=600)
    Item.objects.create(warband=warband, fighter=marcus, name="Shield", cost=15)
    Item.objects.create(warband=warband, fighter=marcus, name="Reliquary", cost=40, removable=False)
    return record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)


def url(after, name):
    return reverse(name, args=[after.game.pk, after.player.warband_id])


def rows():
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (PostGame, PostGameTrade, Fighter, Item, StrongboxEntry, Warband)
    }


def test_the_trade_page_shows_the_strongbox_and_what_may_be_sold(client, player, after):
    client.force_login(player)
    page = client.get(url(after, "post_game_trade")).content.decode()
    assert "Hire &amp; Trade" in page
    assert 'id="trade-strongbox-after">50<' in page
    assert "Shield (Brother Marcus): 8 ducats" in page  # RULING C-3
    assert "Reliquary (" not in page  # cannot be removed, so not sold (RULING T-4)
    assert "RULING" not in page.replace("rulings", "")  # player-facing text never shows the ids


def test_a_purchase_the_strongbox_cannot_pay_is_a_422_and_nothing_changes(client, player, after):
    client.force_login(player)
    before = rows()
    response = client.post(
        url(after, "post_game_trade"),
        {"action": "buy", "buy-name": "Musket", "buy-cost": "51", "buy-holder": "arsenal"},
    )
    assert response.status_code == 422
    assert "a warband cannot buy what it cannot pay for" in response.content.decode()
    assert rows() == before


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"action": "buy", "buy-name": "Musket", "buy-cost": "-5", "buy-holder": "arsenal"},
            "Cost is at least 0",
        ),
        (
            {"action": "buy", "buy-name": "Musket", "buy-cost": "99999", "buy-holder": "arsenal"},
            "Cost is at most 10000",
        ),
        (
            {"action": "buy", "buy-name": "Musket", "buy-cost": "5", "buy-holder": "999999"},
            "Select a valid choice",
        ),
        ({"action": "recruit", "recruit-name": "  ", "recruit-cost": "5"}, "Give it a name"),
        ({"action": "sell", "sell-item": "999999"}, "Choose Battlekit the warband may still sell"),
        ({"action": "remove", "trade": "nope"}, "not planned in this post-game"),
        ({"action": "steal"}, "not one of this step"),
    ],
)
def test_bad_input_is_a_422_and_nothing_changes(client, player, after, data, words):
    client.force_login(player)
    before = rows()
    response = client.post(url(after, "post_game_trade"), data)
    assert response.status_code == 422
    assert words in response.content.decode()
    assert rows() == before


def test_selling_kit_that_cannot_be_removed_is_a_422(client, player, after, warband):
    client.force_login(player)
    before = rows()
    reliquary = Item.objects.get(name="Reliquary")
    response = client.post(url(after, "post_game_trade"), {"action": "sell", "sell-item": str(reliquary.pk)})
    assert response.status_code == 422
    assert rows() == before


def test_a_sale_then_a_recruit_then_the_review_and_the_apply(client, player, after, warband):
    client.force_login(player)
    shield = Item.objects.get(name="Shield")
    assert (
        client.post(
            url(after, "post_game_trade"), {"action": "sell", "sell-item": str(shield.pk)}
        ).status_code
        == 302
    )
    data = {
        "action": "recruit",
        "recruit-name": "Yeoman Pell",
        "recruit-fighter_type": "Yeoman",
        "recruit-cost": "58",
    }
    assert client.post(url(after, "post_game_trade"), data).status_code == 302
    assert client.post(url(after, "post_game_trade"), {"action": "pass"}).status_code == 302
    review = client.get(url(after, "post_game_review")).content.decode()
    assert "Sold Shield for 8 ducats (half of 15, rounded up)" in review
    assert "Recruited Yeoman Pell for 58 ducats" in review
    assert client.post(url(after, "post_game_apply")).status_code == 302
    warband.refresh_from_db()
    assert warband.strongbox == 0
    overview = client.get(url(after, "post_game")).content.decode()
    assert "Hire &amp; Trade: Sold Shield for 8 ducats" in overview


def test_reinforcements_under_the_threshold_then_called(client, player, after):
    client.force_login(player)
    page = client.get(url(after, "post_game_reinforcements")).content.decode()
    assert 'id="reinforcements-budget">145<' in page  # 800 - (600 + 15 + 40), RULING C-4
    assert client.post(url(after, "post_game_reinforcements"), {"action": "call"}).status_code == 302
    data = {"action": "recruit", "recruit-name": "Yeoman Pell", "recruit-cost": "200"}
    before = rows()
    response = client.post(url(after, "post_game_reinforcements"), data)
    assert response.status_code == 422
    assert "budget has 145 left" in response.content.decode()
    assert rows() == before
    page = client.get(url(after, "post_game_exploration")).content.decode()
    assert "Exploration skipped: Reinforcements were called instead" in page


def test_a_preset_without_limits_says_why_there_are_no_reinforcements(client, player, after, campaign):
    campaign.uses_limits = False
    campaign.save(update_fields=["uses_limits"])
    client.force_login(player)
    page = client.get(url(after, "post_game_reinforcements")).content.decode()
    assert "No Reinforcements: this campaign&#x27;s preset leaves the Threshold Value off" in page
    before = rows()
    assert client.post(url(after, "post_game_reinforcements"), {"action": "call"}).status_code == 422
    assert rows() == before


def test_a_spectator_reads_and_cannot_write(client, spectator, after):
    client.force_login(spectator)
    assert client.get(url(after, "post_game_trade")).status_code == 200
    assert client.post(url(after, "post_game_trade"), {"action": "pass"}).status_code == 403


# Measured: 14 for 1 fighter and for 10 (the session and the user, the player with its membership, the post-game
# read with the trades planned, the warband's Battlekit read once with the fighters', the price lists on the
# forms). Use Glory's spends are not read: its step comes after these pages and neither shows it.
QUERIES = {"post_game_trade": 14, "post_game_reinforcements": 14}


@pytest.mark.parametrize("name", sorted(QUERIES))
@pytest.mark.parametrize("count", [1, 10])
def test_the_pages_take_the_same_queries_for_one_fighter_as_for_ten(
    client, player, campaign, warband, rival_warband, make_fighter, count, name, django_assert_num_queries
):
    for number in range(count):
        fighter = make_fighter(warband, f"Yeoman {number}")
        Item.objects.create(warband=warband, fighter=fighter, name=f"Rifle {number}", cost=10)
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    buy(after, player, "Grenades", 5)
    client.force_login(player)
    client.get(url(after, name))  # warm the session alike
    with django_assert_num_queries(QUERIES[name]):
        response = client.get(url(after, name))
    assert response.status_code == 200


def test_a_purchase_picked_from_the_price_list_fills_its_cost_in(
    client, player, organiser, after, warband, campaign
):
    """ "with a list, recruiting and buying pick from it and fill the cost in"."""
    from rosters.models import PriceList
    from rosters.price_lists import checked_rows

    maul = [{"name": "Maul", "cost": 20, "keywords": ["HEAVY"], "removable": False}]
    PriceList.objects.create(
        campaign=campaign,
        kind="battlekit",
        version=1,
        rows=checked_rows("battlekit", maul),
        created_by=organiser,
    )
    client.force_login(player)
    page = client.get(url(after, "post_game_trade")).content.decode()
    assert "Maul (20 ducats)" in page  # the list's row on the form
    marcus = Fighter.objects.get(name="Brother Marcus")
    data = {"action": "buy", "buy-listed": "Maul", "buy-holder": str(marcus.pk), "buy-cost": ""}
    assert client.post(url(after, "post_game_trade"), data).status_code == 302
    (trade,) = PostGameTrade.objects.all()
    assert (trade.name, trade.cost, trade.keywords, trade.removable, trade.holder_id) == (
        "Maul",
        20,
        ["HEAVY"],
        False,
        marcus.pk,
    )
    page = client.get(url(after, "post_game_trade")).content.decode()
    assert "Bought Maul for 20 ducats (Brother Marcus)" in page
    assert 'id="trade-strongbox-after">30<' in page
    before = rows()
    unknown = {"action": "buy", "buy-listed": "Golden Maul", "buy-holder": "arsenal"}
    response = client.post(url(after, "post_game_trade"), unknown)
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert rows() == before


def test_battlekit_for_a_fighter_this_post_game_kills_is_refused_with_422(
    client, player, campaign, warband, rival_warband, make_fighter
):
    # The form offers every active fighter; the service, reading the post-game, refuses the one who dies in it.
    cole = make_fighter(warband, "Cole")
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[cole])
    enter(after, cole, 1, by=player)  # RULING T-2: a Troop dies on a 1 or 2
    client.force_login(player)
    before = rows()
    data = {"action": "buy", "buy-name": "Musket", "buy-cost": "5", "buy-holder": str(cole.pk)}
    response = client.post(url(after, "post_game_trade"), data)
    assert response.status_code == 422
    assert "not on the roster after this post-game" in response.content.decode()
    assert rows() == before
