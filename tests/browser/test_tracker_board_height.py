"""A board that fits the table: two crews of 15 on a 390 px phone in real Chromium.

Every fighter at full strength shows as a compact card (its name, its profile and its track in a line or two, two
cards to a row), its actions one tap away: the board is at most a third of the height it had when every card
showed every action. A tap opens a card in place (one request, no page load); its head folds it back.
"""

import pytest
from playwright.sync_api import Browser, expect

from combat.tests.tracker_helpers import crews_of
from tests.browser.test_tracker_journey import phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page's height in CSS pixels at 390 px for two crews of 15 on a fresh board, measured when every card showed
# every action (before compact cards).
HEIGHT_BEFORE = {"fallout_factions": 8482, "trench_crusade": 9139}


@pytest.mark.parametrize("preset", ["fallout_factions", "trench_crusade"])
def test_a_15_v_15_board_at_390_px_is_at_most_a_third_of_its_old_height(
    browser: Browser, live_server, campaign, player, player2, preset
):
    game, _ = crews_of(15, campaign=campaign, player=player, player2=player2, preset=preset)
    page = phone_of(browser, live_server, player).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/tracker/")
    expect(page.locator(".tracker-fighter.tf-compact")).to_have_count(30)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= HEIGHT_BEFORE[preset] / 3, height
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing off the side either


def test_a_tap_opens_a_compact_card_in_place_and_its_head_folds_it(
    browser: Browser, live_server, campaign, player, player2
):
    game, fighter = crews_of(15, campaign=campaign, player=player, player2=player2)
    page = phone_of(browser, live_server, player).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/tracker/")
    page.evaluate("window.notReloaded = true")
    card = page.locator(f"#fighter-{fighter.pk}")
    expect(card.get_by_label("Quick Damage")).to_have_count(0)
    with page.expect_response(lambda response: "/card/" in response.url) as answer:
        card.get_by_role("link", name="Open the card of Fighter 1").click()
    assert answer.value.status == 200
    expect(card.get_by_label("Quick Damage")).to_be_visible()
    expect(card.locator(".tf-outcome")).to_contain_text("Damage 1: this Damage's row: 1 Harm")
    expect(page.locator(".tracker-fighter.tf-compact")).to_have_count(29)
    card.get_by_role("link", name="Fold the card of Fighter 1").click()
    expect(card.get_by_label("Quick Damage")).to_have_count(0)
    expect(page.locator(".tracker-fighter.tf-compact")).to_have_count(30)
    assert page.evaluate("window.notReloaded") is True
