"""The warband economy in real Chromium on a 390-pixel phone: a player recruits a fighter type from the
campaign's price list, buys Battlekit from it, sells a piece, reads the value and the Threshold Value on the roster,
records a game with Victory Points and reads the leaderboard on the campaign page."""

import pytest
from playwright.sync_api import Page, expect

from rosters.models import StrongboxEntry
from rosters.services import price_lists as price_services
from rosters.services import warbands as warband_services
from tests.browser.axe import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(page: Page, live_server, user, password) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def fits_the_phone(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_recruit_buy_sell_see_the_value_record_vp_and_read_the_leaderboard(
    page: Page, live_server, campaign, organiser, player, player2, password
):
    price_services.price_list_copy_demo(campaign=campaign, by=organiser)
    band = warband_services.warband_create(campaign=campaign, owner=player, by=player, name="Grey Wardens")
    rival = warband_services.warband_create(campaign=campaign, owner=player2, by=player2, name="Ash Legion")
    page.set_viewport_size(PHONE)
    log_in(page, live_server, player, password)

    # Recruit from the price list: the type fills the form in, its cost is paid from the Strongbox.
    page.goto(f"{live_server.url}/warbands/{band.pk}/fighters/new/")
    page.get_by_label("From the price list").select_option("Lantern Warden")
    page.get_by_role("button", name="Fill in").click()
    expect(page.get_by_label("Cost (ducats)")).to_have_value("90")
    page.get_by_label("Name", exact=True).fill("Warden Ilse")
    page.get_by_role("button", name="Add to the roster").click()
    expect(page.locator("#messages")).to_contain_text("Warden Ilse joined Grey Wardens.")
    expect(page.locator("#warband-summary")).to_contain_text("610 ducats in the Strongbox")

    # Buy Battlekit from the list into the Arsenal, then sell it for half its cost, rounded up (RULING C-3).
    page.locator("#add-item summary").click()
    page.locator("#add-item").get_by_label("From the price list").select_option("Bell Hammer")
    page.locator("#add-item").get_by_role("button", name="Add").click()
    expect(page.locator("#messages")).to_contain_text("Bell Hammer added to the Arsenal.")
    expect(page.locator("#warband-summary")).to_contain_text("595 ducats")
    page.get_by_role("button", name="Sell for 8 ducats: Bell Hammer").click()
    expect(page.locator("#messages")).to_contain_text("Bell Hammer sold for 8 ducats")
    expect(page.locator("#warband-summary")).to_contain_text("603 ducats")

    # The value against the next battle's limits (C-2, C-1).
    limits = page.locator("#warband-limits")
    expect(limits).to_contain_text("90 ducats value")
    expect(limits).to_contain_text("700 Threshold Value")
    expect(limits).to_contain_text("Limits of battle 1")
    assert fits_the_phone(page)
    assert_accessible(page, "the roster with its value and limits")

    # The ledger explains every ducat.
    page.get_by_role("link", name="The Strongbox's ledger").click()
    expect(page.locator("#ledger-entries")).to_contain_text("Sold Bell Hammer for 8 ducats")
    assert StrongboxEntry.objects.filter(warband=band).count() == 4
    assert fits_the_phone(page)

    # Record a game with Victory Points and read the leaderboard.
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/games/new/")
    for warband, result, vp in ((band, "win", "6"), (rival, "loss", "2")):
        section = page.locator(f"#game-warband-{warband.pk}")
        section.get_by_label("Took part").check()
        section.get_by_label("Result").select_option(result)
        section.get_by_label("Victory Points").fill(vp)
    page.get_by_role("button", name="Save the game").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Game 1")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    board = page.locator("#leaderboard")
    expect(board.locator("tbody tr").first).to_contain_text("Grey Wardens")
    expect(page.locator(f"#standing-{band.pk}")).to_contain_text("6")
    expect(page.locator(f"#standing-{rival.pk}")).to_contain_text("2")
    assert fits_the_phone(page)
    assert_accessible(page, "the campaign page with its leaderboard")
