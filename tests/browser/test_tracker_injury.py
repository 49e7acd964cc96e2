"""One Injury Roll in one tap and one swap on a Trench Crusade board, and the odds updating as the options change,
on a 390 px phone in real Chromium (TC_IN_GAME.md; combat/views/tracker_injury.py)."""

import pytest
from playwright.sync_api import Browser, expect

from combat.tests.tracker_helpers import setup_game
from tests.browser.axe import assert_accessible
from tests.browser.test_tracker_card import watch
from tests.browser.test_tracker_journey import open_board, open_card, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        preset="trench_crusade",
    )


def test_one_injury_roll_in_one_tap_and_the_odds_as_options_change(
    browser: Browser, live_server, table, player
):
    pat = open_board(phone_of(browser, live_server, player), live_server, table)
    vera = open_card(pat, table, "Vera")  # at full strength: one line until opened
    expect(vera.locator(".tf-blood")).to_contain_text("Blood 0/6")

    requests, loads = watch(pat)
    with pat.expect_response(lambda response: "/injury-roll/roll/" in response.url) as answer:
        vera.get_by_role("button", name="Injury Roll on Vera, the server's dice").click()
    assert answer.value.status == 200
    expect(pat.locator("#last-action")).to_contain_text("Vera: Injury Roll 2D6 (")
    expect(pat.locator("#tracker-log summary")).to_have_text("Game log (1 action)")
    assert [request.method for request in requests] == ["POST"]
    assert loads == []
    assert pat.evaluate("window.notReloaded") is True
    assert_accessible(pat, "the board after an Injury Roll")

    # The short form: the odds of exactly this roll, updated by htmx as an option changes (no page load).
    kit = open_card(pat, table, "Kit")
    kit.get_by_role("link", name="Options… of an Injury Roll on Kit, with the odds").click()
    expect(pat.locator("#injury-odds h2")).to_have_text("Before the roll: Injury Roll 2D6")
    pat.evaluate("window.notReloaded = true")
    pat.get_by_label("Armour").select_option("machine")
    expect(pat.locator("#injury-odds h2")).to_have_text("Before the roll: Injury Roll 2D6, -3")
    expect(pat.locator("#injury-odds")).to_contain_text("No Effect: 1 in 6")
    assert pat.evaluate("window.notReloaded") is True
    assert_accessible(pat, "the Injury Roll's short form")
