"""The minified CSS and JavaScript production serves (config/storage.py) work in real Chromium.

The suite serves static/ as it is (config/settings_test.py); here every request for the project's own stylesheet
or script is answered with the bytes `collectstatic` would write, minified by the same function, and the flows
that lean on them are walked: the board's outcome line and its one-tap swap (ledger.js, htmx), and a tap kept
offline then sent (offline.js, the service worker).
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Route, expect

from combat.models import TrackerAction
from combat.tests.tracker_helpers import setup_game
from config.storage import minified
from tests.browser.test_offline import TEN_SECONDS, board, card, controlled, offline, online
from tests.browser.test_offline import phone_of as offline_phone_of
from tests.browser.test_tracker_journey import FIVE_SECONDS, open_board, open_card, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATIC = Path(__file__).resolve().parents[2] / "static"
OWN_FILES = re.compile(r"/static/((?:css|js)/[^/?]+\.(?:css|js))(?:\?.*)?$")
TYPES = {".css": "text/css", ".js": "text/javascript"}


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def serve_minified(context: BrowserContext) -> dict[str, tuple[int, int]]:
    """Answer the context's requests for static/css and static/js with the minified files; per name served, its
    size minified and as written (checked by the test, not here: a route handler's failure would not reach it)."""
    served: dict[str, tuple[int, int]] = {}

    def answer(route: Route) -> None:
        name = OWN_FILES.search(route.request.url).group(1)
        source = (STATIC / name).read_text()
        body = minified(name, source)
        served[name] = (len(body), len(source))
        route.fulfill(status=200, body=body, content_type=TYPES[Path(name).suffix])

    context.route(OWN_FILES, answer)
    return served


def assert_minified(served: dict[str, tuple[int, int]]) -> None:
    for name, (size, written) in served.items():
        assert size < written, f"{name} was not minified"


def test_the_board_works_on_the_minified_files(browser: Browser, live_server, table, player):
    context = phone_of(browser, live_server, player)
    served = serve_minified(context)
    pat = open_board(context, live_server, table)
    assert {"css/ledger.css", "js/ledger.js", "js/offline.js"} <= set(served)
    assert_minified(served)

    # The stylesheet applies: the page's ground is the light theme's --bg.
    background = pat.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(247, 245, 240)"

    # ledger.js fills the outcome line as N is picked; htmx swaps the card after one tap.
    brick = open_card(pat, table, "Brick")  # one line at full strength: htmx swaps its card in
    brick.get_by_label("Quick Damage").select_option("6")
    expect(brick.locator(".tf-outcome")).to_have_text(
        "Damage 6: this Damage's row: an Injury and 1 Harm → after it: Harm 1/3, Injuries 1 of 3"
    )
    brick.get_by_role("button", name="Apply to Brick").click()
    expect(brick.locator(".tf-injuries")).to_contain_text("Injuries 1/3", timeout=FIVE_SECONDS)
    assert TrackerAction.objects.count() == 1
    context.close()


def test_a_tap_kept_offline_is_sent_on_the_minified_files(browser: Browser, live_server, table, player):
    context = offline_phone_of(browser, live_server, player)
    served = serve_minified(context)
    pat = context.new_page()
    board(pat, live_server, table)
    controlled(pat)
    assert "js/offline.js" in served
    assert_minified(served)
    open_card(pat, table, "Brick")

    offline(context)
    pat.get_by_role("button", name="+1 Harm on Brick").click()
    queue = pat.locator("#offline-queue")
    expect(queue.locator("li.queued")).to_have_count(1)
    assert TrackerAction.objects.count() == 0

    online(context)
    expect(queue).to_be_hidden(timeout=TEN_SECONDS)
    assert TrackerAction.objects.count() == 1
    expect(card(pat, table, "Brick").locator(".tf-harm")).to_contain_text("Harm 1", timeout=FIVE_SECONDS)
    context.close()
