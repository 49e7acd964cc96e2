"""Fast taps on a Trench Crusade board in real Chromium: two Out of Action taps sent together from one phone while
the other phone taps too. Each tap's answer must land on the page as it is when the answer comes, even when the
other answer has already swapped the whole board (and with it the form that sent the tap): htmx then finds
nothing to re-target from the detached form and drops the answer with `htmx:targetError`.

The polls are held back while the taps are answered, so what the pages show comes from the taps' own answers;
then they are let through and both phones agree.
"""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from combat.models import TrackerFighter
from combat.tests.tracker_helpers import tc_table  # noqa: F401  (the Trench Crusade board)
from tests.browser.test_tracker_journey import FIVE_SECONDS, fighter, open_board, open_card, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = re.compile(r"/tracker/board/\?")
# htmx dispatches its error events on the element that sent the request, which a swap may have taken out of the
# document, where no listener on the document hears it: the test records them at dispatchEvent itself.
RECORD_ERRORS = """() => {
  window.htmxErrors = [];
  const dispatch = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function (event) {
    if (event.type === "htmx:targetError" || event.type === "htmx:oobErrorNoTarget" ||
        event.type === "htmx:swapError" || event.type === "htmx:onLoadError") {
      window.htmxErrors.push(event.type + " " + JSON.stringify(event.detail && event.detail.target || ""));
    }
    return dispatch.call(this, event);
  };
}"""
# Both buttons clicked in one task: both requests leave before either answer can be handled.
TAP_TOGETHER = "(ids) => ids.forEach((id) => document.getElementById(id).click())"


def watched(page: Page) -> list[str]:
    """Errors the page reports from now on: htmx's error events, and any uncaught script error."""
    errors: list[str] = []
    page.evaluate(RECORD_ERRORS)
    page.on("pageerror", lambda error: errors.append(f"pageerror {error}"))
    return errors


def htmx_errors(page: Page, errors: list[str]) -> list[str]:
    return errors + page.evaluate("window.htmxErrors")


def status_of(page: Page, table, name: str):
    return fighter(page, table, name).locator(".tf-status")


def test_two_fast_taps_and_the_other_phones_tap_all_land(
    browser: Browser,
    live_server,
    tc_table,  # noqa: F811  (the fixture imported above)
    player,
    player2,
):
    pat = open_board(phone_of(browser, live_server, player), live_server, tc_table)
    quinn = open_board(phone_of(browser, live_server, player2), live_server, tc_table)
    # At full strength each is one line: their cards opened first (one GET each).
    for page, names in ((pat, ("Brick", "Vera")), (quinn, ("Fidus",))):
        for name in names:
            open_card(page, tc_table, name)
    for page in (pat, quinn):
        page.route(POLL, lambda route: route.abort())
    pat_errors, quinn_errors = watched(pat), watched(quinn)

    brick, vera, fidus = (tc_table[name].pk for name in ("Brick", "Vera", "Fidus"))
    with (
        pat.expect_response(lambda r: f"/{vera}/out-of-action/" in r.url),
        pat.expect_response(lambda r: f"/{brick}/out-of-action/" in r.url),
    ):
        pat.evaluate(TAP_TOGETHER, [f"out-of-action-{brick}", f"out-of-action-{vera}"])
        quinn.evaluate(TAP_TOGETHER, [f"out-of-action-{fidus}"])

    # Both of Pat's answers landed on Pat's page, and Quinn's on Quinn's, with no poll answered in between.
    for name in ("Brick", "Vera"):
        expect(status_of(pat, tc_table, name)).to_have_text("Out of Action", timeout=FIVE_SECONDS)
    expect(status_of(quinn, tc_table, "Fidus")).to_have_text("Out of Action", timeout=FIVE_SECONDS)
    assert htmx_errors(pat, pat_errors) == []
    assert htmx_errors(quinn, quinn_errors) == []
    for name in ("Brick", "Vera", "Fidus"):
        assert tc_table.tracked(name).status == TrackerFighter.Status.OUT_OF_ACTION

    # The polls let through: each phone shows all three, and the game log all three taps.
    for page in (pat, quinn):
        page.unroute(POLL)
        for name in ("Brick", "Vera", "Fidus"):
            expect(status_of(page, tc_table, name)).to_have_text("Out of Action", timeout=FIVE_SECONDS)
        expect(page.locator("#tracker-log summary")).to_have_text(
            "Game log (3 actions)", timeout=FIVE_SECONDS
        )
    assert htmx_errors(pat, pat_errors) == []
    assert htmx_errors(quinn, quinn_errors) == []

    # Answers may come back in either order: one from an older board, come late, does not replace the newer board,
    # and one from the same board or a newer one does.
    swap = """(version) => htmx.swap(document.body, '<section id="tracker-live" data-version="' + version +
      '" hx-swap-oob="true"><p id="late">board ' + version + '</p></section>', {swapStyle: "none"})"""
    pat.evaluate(swap, 2)
    expect(pat.locator("#late")).to_have_count(0)
    expect(status_of(pat, tc_table, "Fidus")).to_have_text("Out of Action")
    pat.evaluate(swap, 3)
    expect(pat.locator("#late")).to_have_text("board 3")
