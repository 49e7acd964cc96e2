"""The post-game's money steps in real Chromium at a phone's width (CAMPAIGN_PHASE.md
"Reinforcements", "Buying, selling"; RULINGS C-3, C-4).

Iron Sepulchre is worth 655 after Game 1, under its Threshold Value of 800 for battle 2: its player calls
Reinforcements (a budget of 145), recruits a Yeoman for 100 with it, sees the Exploration skipped, sells the
Shield in Hire & Trade (8 ducats, half of 15 rounded up), spends its Glory in Use Glory (a Papal States warband,
it holds 2 and gains 4 for the Reinforcements: a Papal Seal for 5 Glory for Brother Marcus, a Vow for 2 refused,
then the seal applied), applies from the Review, and the warband's page shows the recruit, the Papal Seal, a
Strongbox of 8 (the 50 it held given up, the 45 of the budget left over not kept) and 1 Glory.
"""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from combat.tests.post_game_helpers import record_game
from rosters.models import Item, StrongboxEntry
from tests.browser.axe import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(context, user, live_server):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at 390 px"


@pytest.fixture
def game_one(campaign, warband, rival_warband, make_fighter):
    warband.faction, warband.glory = "Papal States", 2
    warband.save(update_fields=["faction", "glory"])
    marcus = make_fighter(warband, "Brother Marcus", elite=True, cost=600)
    Item.objects.create(warband=warband, fighter=marcus, name="Shield", cost=15)
    Item.objects.create(warband=warband, fighter=marcus, name="Reliquary", cost=40, removable=False)
    return record_game(campaign=campaign, warband=warband, rival_warband=rival_warband).game


def test_reinforcements_then_a_sale_applied_and_the_roster_shows_them(
    page: Page, live_server, player, warband, game_one
):
    post_game = f"{live_server.url}/games/{game_one.pk}/post-game/{warband.pk}/"
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)

    page.goto(f"{post_game}reinforcements/")
    step = page.locator("#reinforcements-step")
    expect(step.locator("#reinforcements-budget")).to_have_text("145")  # 800 - 655 (RULING C-4)
    assert_accessible(page, "Reinforcements before the call")
    step.get_by_role("button", name="Call Reinforcements").click()
    expect(step).to_contain_text("Reinforcements called: the Exploration is skipped.")
    step.locator("#id_recruit-name").fill("Yeoman Pell")
    step.locator("#id_recruit-fighter_type").fill("Yeoman")
    step.locator("#id_recruit-cost").fill("100")
    step.get_by_role("button", name="Add the recruit").click()
    expect(step.locator("#reinforcements-left")).to_have_text("45")
    expect(step).to_contain_text("Recruited Yeoman Pell for 100 ducats")
    assert_accessible(page, "Reinforcements with a recruit")
    fits(page)

    step.get_by_role("link", name="Next: Hire & Trade").click()
    trade = page.locator("#trade-step")
    expect(trade.locator("#trade-strongbox-after")).to_have_text("0")  # emptied by the Reinforcements
    trade.get_by_label("Sell").select_option(label="Shield (Brother Marcus): 8 ducats")
    trade.get_by_role("button", name="Add the sale").click()
    expect(trade.locator("#trade-strongbox-after")).to_have_text("8")
    assert_accessible(page, "Hire & Trade with a sale")
    fits(page)
    trade.get_by_role("button", name="Done: go on to Use Glory").click()  # the step after Hire & Trade

    glory = page.locator("#glory-step")
    expect(glory.locator("#glory-after")).to_have_text("6")  # 2, and 4 for the Reinforcements (Papal States)
    glory.get_by_label("Spend on").select_option(label="Glory Item")
    glory.get_by_label("Name").fill("Papal Seal")
    glory.get_by_label("Cost (Glory)").fill("5")
    glory.get_by_label("A Glory Item carried by").select_option(label="Brother Marcus")
    glory.get_by_role("button", name="Add the spend").click()
    expect(glory.locator("#glory-after")).to_have_text("1")
    expect(glory).to_contain_text("Glory Item Papal Seal for 5 Glory (Brother Marcus)")
    glory.get_by_label("Spend on").select_option(label="Other benefit")
    glory.get_by_label("Name").fill("Vow")
    glory.get_by_label("Cost (Glory)").fill("2")
    glory.get_by_label("Another benefit: what it is").fill("a vow of silence")
    glory.get_by_role("button", name="Add the spend").click()
    expect(glory.locator("#id_glory-glory-error")).to_contain_text("Vow costs 2 Glory")  # beside the cost
    expect(glory.locator("#glory-after")).to_have_text("1")
    assert_accessible(page, "Use Glory with a refusal")
    fits(page)
    glory.get_by_role("button", name="Done: go on to the Review").click()

    review = page.locator("#post-game-step")
    expect(review.locator("#review-glory")).to_contain_text("Glory Item Papal Seal for 5 Glory")
    expect(review.locator("#review-reinforcements")).to_contain_text("budget 145 ducats")
    expect(review.locator("#review-trade")).to_contain_text("Sold Shield for 8 ducats")
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.locator("#summary-trade")).to_contain_text("Sold Shield for 8 ducats")

    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.locator("main")).to_contain_text("Yeoman Pell")
    expect(page.locator("main")).to_contain_text("Papal Seal")
    warband.refresh_from_db()
    assert warband.strongbox == 8
    assert warband.glory == 1
    glory_moves = StrongboxEntry.objects.filter(warband=warband).exclude(glory=0).order_by("id")
    assert [(row.cause, row.glory) for row in glory_moves] == [("reinforcements", 4), ("glory", -5)]
