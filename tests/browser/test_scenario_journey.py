"""The scenario roll in real Chromium on a 390-pixel phone: a player opens the game before it is
played, reads the Early table's odds with the scenario their warband played last marked "rolled again", types a
die that finds it and is asked to roll again, lets the server roll, and the game shows its scenario; the history
tells it. The page has no axe violations before and after the roll."""

import re

import pytest
from playwright.sync_api import Page, expect

from campaigns.models import Game
from combat.services.campaign_data import campaign_data_copy_demo
from combat.tests.scenario_helpers import make_game
from tests.browser.axe import violations

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


def test_a_player_rolls_the_scenario_and_a_repeat_is_rolled_again(
    page: Page, live_server, campaign, organiser, player, password, warband, rival_warband
):
    campaign_data_copy_demo(campaign=campaign, by=organiser, kinds=["scenario_table:early"])
    # The demo's Early table has Mist over the Duckboards on 1 and 3.
    make_game(campaign, warband, rival_warband, scenario="Mist over the Duckboards", status=Game.Status.DONE)
    game = make_game(campaign, warband, rival_warband)

    page.set_viewport_size(PHONE)
    log_in(page, live_server, player, password)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # The game page brings the roll in by htmx; the roll page itself is the no-JavaScript way.
    expect(page.locator("#scenario-roll")).to_contain_text("The Early scenario table")
    page.get_by_role("link", name="Roll the scenario").click()
    section = page.locator("#scenario-roll")
    expect(section).to_contain_text("The Early scenario table")
    expect(section).to_contain_text("a warband of this game played in its previous game is rolled again")
    expect(section).to_contain_text("Iron Sepulchre played it in Game 1")
    row = section.locator("tr", has_text="Mist over the Duckboards")
    expect(row).to_contain_text("rolled again")
    expect(row).to_contain_text("no chance")
    expect(section.locator("tr", has_text="The Lantern Run")).to_contain_text("1 in 2")
    assert fits_the_phone(page)
    assert violations(page) == []

    page.get_by_label("D6").fill("1")
    page.get_by_role("button", name="Enter the die").click()
    expect(section).to_contain_text(
        "D6 1: Mist over the Duckboards, which a warband of this game played in its previous game. Roll again."
    )
    page.get_by_role("button", name="Roll for me").click()
    result = page.locator("#scenario-result")
    expect(result).to_be_visible()
    scenario = result.inner_text().strip()
    assert scenario in {"The Lantern Run", "Broken Bell Tower", "Salt the Crater"}
    # The typed 1 first; the server's own dice may find the repeat again (on 1 or 3) before another scenario.
    repeats = r"(; [13] found Mist over the Duckboards)*"
    expect(section).to_contain_text(
        re.compile(rf"Rolled again before \(1 found Mist over the Duckboards{repeats}\)")
    )
    expect(page.get_by_role("button", name="Roll for me")).to_have_count(0)
    assert fits_the_phone(page)
    assert violations(page) == []

    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Game 2: {scenario}")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/history/")
    expect(page.locator("main")).to_contain_text(f"rolled Game 2's scenario on the Early table: {scenario}")


def test_the_game_page_rolls_in_place(
    page: Page, live_server, campaign, organiser, player, password, warband, rival_warband
):
    campaign_data_copy_demo(campaign=campaign, by=organiser, kinds=["scenario_table:early"])
    game = make_game(campaign, warband, rival_warband)
    page.set_viewport_size(PHONE)
    log_in(page, live_server, player, password)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    section = page.locator("#scenario-roll")
    section.get_by_label("D6").fill("4")
    section.get_by_role("button", name="Enter the die").click()
    expect(page.locator("#scenario-result")).to_have_text("Broken Bell Tower")
    assert page.url.endswith(f"/games/{game.pk}/")  # swapped in place, no page load
    assert fits_the_phone(page)
    assert violations(page) == []
