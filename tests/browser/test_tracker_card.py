"""One Damage in one tap and one swap, on a 390 px phone in real Chromium.

Pat picks Damage 6 on Brick's card, sees what it does as it is picked, taps Apply once: one request, the card
swapped in place, no page load. Quinn's phone (a second browser context) sees it after its poll. A second action
on another card right after is not refused: the board's version the swap brought is the one htmx sends.
"""

import pytest
from playwright.sync_api import Browser, Page, expect

from combat.tests.tracker_helpers import setup_game
from tests.browser.test_tracker_journey import FIVE_SECONDS, fighter, open_board, open_card, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def watch(page: Page) -> tuple[list, list]:
    """The requests the page makes from now on, but the board's poll, and the page loads it has."""
    requests, loads = [], []
    page.on(
        "request", lambda request: None if "/board/?version=" in request.url else requests.append(request)
    )
    page.on("load", lambda _: loads.append(page.url))
    page.evaluate("window.notReloaded = true")  # gone if the page were loaded again
    return requests, loads


def test_one_damage_in_one_tap_and_one_swap(browser: Browser, live_server, table, player, player2):
    pat = open_board(phone_of(browser, live_server, player), live_server, table)
    quinn = open_board(phone_of(browser, live_server, player2), live_server, table)
    brick = fighter(pat, table, "Brick")
    expect(brick.locator(".tf-injuries")).to_contain_text("Injuries 0/3")
    # At full strength both are one line: their cards opened first (one GET each, swapped in place).
    open_card(pat, table, "Brick")
    open_card(pat, table, "Vera")

    # The outcome of each N shows as N is picked (ledger.js, data-outcome-list), with no request.
    requests, loads = watch(pat)
    outcome = brick.locator(".tf-outcome")
    expect(outcome).to_contain_text("Damage 1: this Damage's row: 1 Harm")
    brick.get_by_label("Quick Damage").select_option("6")
    expect(outcome).to_have_text(
        "Damage 6: this Damage's row: an Injury and 1 Harm → after it: Harm 1/3, Injuries 1 of 3"
    )
    expect(brick.locator(".tf-outcomes")).to_have_count(0)  # the full list is for pages without JavaScript
    assert requests == []

    # One tap: one request, the card swapped.
    with pat.expect_response(lambda response: "/damage/" in response.url) as answer:
        brick.get_by_role("button", name="Apply to Brick").click()
    assert answer.value.status == 200
    expect(brick.locator(".tf-injuries")).to_contain_text("Injuries 1/3")
    expect(brick.locator(".tf-harm")).to_contain_text("Harm 1")
    expect(pat.locator("#last-action")).to_contain_text("Damage 6 ≥ Endurance 6")
    expect(pat.locator("#tracker-log summary")).to_have_text("Game log (1 action)")
    assert [(request.method, request.url.split(live_server.url)[1]) for request in requests] == [
        ("POST", f"/games/{table.game.pk}/tracker/fighters/{table['Brick'].pk}/damage/")
    ]
    assert requests[0].headers.get("hx-target") == f"fighter-{table['Brick'].pk}"
    assert loads == []
    assert pat.evaluate("window.notReloaded") is True
    assert pat.get_attribute("#board-version", "data-version") == "1"

    # The other phone sees it after its poll, without reloading.
    expect(fighter(quinn, table, "Brick").locator(".tf-injuries")).to_contain_text(
        "Injuries 1/3", timeout=FIVE_SECONDS
    )

    # The next tap on another card carries the board's new version: applied, not refused as stale.
    vera = fighter(pat, table, "Vera")
    vera.get_by_role("button", name="Vera: take 1 Fatigue").click()
    expect(vera.locator(".tf-fatigue")).to_contain_text("Fatigue 1/2")
    expect(pat.locator("#tracker-error")).to_have_count(0)
    assert len(requests) == 2
    assert loads == []
    assert pat.evaluate("window.notReloaded") is True
