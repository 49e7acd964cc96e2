"""Two phones at the table in real Chromium: a Damage on one reaches the other through the poll
as the changed card alone, swapped out of band; the rest of the other phone's board is not swapped.
"""

import pytest
from playwright.sync_api import Browser, expect

from combat.tests.tracker_helpers import setup_game
from tests.browser.test_tracker_journey import FIVE_SECONDS, fighter, open_board, open_card, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def changed_poll(response) -> bool:
    return "/board/?version=" in response.url and response.status == 200


def same_node(page, selector: str) -> bool:
    """Whether `selector` is still the element remembered by `remember` (not swapped since)."""
    return page.evaluate("(s) => document.querySelector(s) === window.remembered[s]", selector)


def remember(page, *selectors: str) -> None:
    page.evaluate(
        "(list) => { window.remembered = {}; list.forEach((s) => window.remembered[s] = document.querySelector(s)); }",
        list(selectors),
    )


def test_a_damage_on_one_phone_reaches_the_other_as_its_card_alone(
    browser: Browser, live_server, table, player, player2
):
    pat = open_board(phone_of(browser, live_server, player), live_server, table)
    quinn = open_board(phone_of(browser, live_server, player2), live_server, table)
    brick, vera = (f"#fighter-{table[name].pk}" for name in ("Brick", "Vera"))
    remember(quinn, "#tracker-live", brick, vera)

    with quinn.expect_response(changed_poll, timeout=FIVE_SECONDS * 2) as polled:
        card = fighter(pat, table, "Brick")
        open_card(pat, table, "Brick")
        card.get_by_label("Quick Damage").select_option("2")
        card.get_by_role("button", name="Apply to Brick").click()
    answer = polled.value
    assert answer.headers["hx-reswap"] == "none"
    assert len(answer.body()) < 8 * 1024  # the card, the last action, the game log: not the board
    expect(quinn.locator(f"{brick} .tf-harm")).to_contain_text("Harm 1", timeout=FIVE_SECONDS)
    # The swapped card's "By" offers the other side's fighters, copied from the page (the poll's card has none).
    choices = quinn.locator(f"template#by-against-crew-{table['Brick'].warband_id}").evaluate(
        "(t) => Array.from(t.content.querySelectorAll('option'), (o) => o.textContent)"
    )
    assert choices
    expect(quinn.locator(f"{brick} select.tf-by-select").first.locator("option")).to_have_text(
        ["—", *choices]
    )
    expect(quinn.locator("#last-action")).to_contain_text("Damage 2 < Endurance 6: 1 Harm")
    expect(quinn.locator("#tracker-log summary")).to_have_text("Game log (1 action)")
    assert quinn.get_attribute("#board-version", "data-version") == "1"
    # Only Brick's card was swapped: the board and Vera's card are the very elements the page had.
    assert same_node(quinn, "#tracker-live")
    assert same_node(quinn, vera)
    assert not same_node(quinn, brick)

    # The next poll asks from the new version (nothing changed: 204), and Quinn's own action on a card the
    # poll did not swap carries it too: applied, not refused as stale.
    with quinn.expect_response(lambda response: "/board/?version=1&" in response.url) as quiet:
        pass
    assert quiet.value.status == 204
    # Pat opens his game log; what Quinn does next reaches it entry by entry, and it stays open.
    pat.locator("#tracker-log summary").click()
    expect(pat.locator("#tracker-log")).to_have_attribute("open", "")
    remember(pat, "#tracker-log", "#log-1")
    open_card(quinn, table, "Vera").get_by_role("button", name="Vera: take 1 Fatigue").click()
    expect(quinn.locator(f"{vera} .tf-fatigue")).to_contain_text("Fatigue 1/2")
    expect(quinn.locator("#tracker-error")).to_have_count(0)
    expect(pat.locator(f"{vera} .tf-fatigue")).to_contain_text("Fatigue 1/2", timeout=FIVE_SECONDS)
    assert same_node(quinn, "#tracker-live")
    expect(pat.locator("#tracker-log summary")).to_have_text("Game log (2 actions)")
    expect(pat.locator("#tracker-log")).to_have_attribute("open", "")
    assert same_node(pat, "#tracker-log")
    assert not same_node(pat, "#log-1")  # redrawn without its Undo, which moved to the new entry
    expect(pat.locator("#tracker-log-list > li")).to_have_count(2)
    expect(pat.locator("#log-1 #log-undo-button")).to_have_count(0)
    expect(pat.locator("#log-2 #log-undo-button")).to_have_count(1)
