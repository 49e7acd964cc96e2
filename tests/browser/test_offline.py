"""Installable, and still working when the signal drops, in real Chromium with the service worker.

Going offline cuts both the page's and the service worker's network: `context.set_offline(True)` alone does not
reach the worker's own fetches, so every request is also routed to `internetdisconnected` (docs/development.md; the
worker's requests reach the routes because tests/browser/conftest.py sets PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS).
"""

import re

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from combat.models import PostGameRoll, TrackerAction, TrackerActionKey, TrackerFighter
from combat.services.tracker.marks import tracker_mark
from combat.tests.post_game_helpers import record_game
from combat.tests.tracker_helpers import events_of, setup_game, tc_table  # noqa: F401  (a Trench Crusade board)
from tests.browser.axe import AXE, OPTIONS
from tests.browser.test_tracker_journey import open_card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FIVE_SECONDS = 5000
TEN_SECONDS = 10000


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def phone_of(browser: Browser, live_server, user) -> BrowserContext:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page (it claims it on activation)."""
    # A promise, not wait_for_function: that evaluates a string, which the site's CSP refuses (no eval).
    page.evaluate(
        """() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller || new Promise(
            (done) => navigator.serviceWorker.addEventListener("controllerchange", done)))"""
    )


def offline(context: BrowserContext) -> None:
    context.route("**/*", lambda route: route.abort("internetdisconnected"))
    context.set_offline(True)


def online(context: BrowserContext) -> None:
    context.unroute("**/*")
    context.set_offline(False)


def board(page: Page, live_server, table) -> None:
    page.goto(f"{live_server.url}/games/{table.game.pk}/tracker/")
    expect(page.get_by_role("heading", name=f"Game {table.game.number} tracker")).to_be_visible()


def queue_violations(page: Page) -> list[str]:
    """axe-core's violations inside the list of kept taps (the board around it is walked by test_accessibility)."""
    found = AXE.run(page, context="#offline-queue", options=OPTIONS).response["violations"]
    return [f"{violation['id']}: {node['target']}" for violation in found for node in violation["nodes"]]


def card(page: Page, table, name: str):
    return page.locator(f"#fighter-{table[name].pk}")


def test_the_manifest_and_its_icons_load_and_chromium_finds_the_site_installable(
    browser: Browser, live_server, player
):
    context = phone_of(browser, live_server, player)
    page = context.new_page()
    page.goto(live_server.url + "/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.request.get(live_server.url + href).json()
    for icon in manifest["icons"]:
        response = page.request.get(live_server.url + icon["src"])
        assert response.ok, icon["src"]
        assert response.headers["content-type"] == "image/png"
    controlled(page)

    cdp = context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["url"].endswith("/manifest.webmanifest")
    assert [error for error in parsed["errors"] if error.get("critical") is not False] == []
    # Chromium's own check. A test's browser context is an incognito one, where nothing installs: that one error
    # is the context's, not the site's, and every other (manifest, icons, start URL, worker) must be absent.
    errors = [error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert [error for error in errors if error != "in-incognito"] == []
    context.close()


def test_a_visited_roster_and_the_board_load_from_the_phone_with_the_offline_mark(
    browser: Browser, live_server, table, player, warband
):
    context = phone_of(browser, live_server, player)
    page = context.new_page()
    page.goto(live_server.url + "/")
    controlled(page)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.get_by_role("heading", name=warband.name)).to_be_visible()
    board(page, live_server, table)

    offline(context)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.get_by_role("heading", name=warband.name)).to_be_visible()
    expect(page.locator("#offline-mark")).to_contain_text(re.compile(r"Offline — as of \d\d:\d\d"))
    board(page, live_server, table)
    expect(page.locator("#offline-mark")).to_be_visible()
    expect(card(page, table, "Brick")).to_contain_text("Harm 0")
    # The stylesheet came from the phone's copy too: the page is styled.
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()") != ""

    # A page never opened here: the offline page.
    page.goto(f"{live_server.url}/campaigns/{table.game.campaign_id}/history/")
    expect(page.get_by_role("heading", name="Offline")).to_be_visible()
    context.close()


def test_three_taps_offline_are_applied_in_order_when_back_online_and_told_once(
    browser: Browser, live_server, table, player, player2
):
    pat_phone = phone_of(browser, live_server, player)
    pat = pat_phone.new_page()
    board(pat, live_server, table)
    controlled(pat)
    quinn = quinn_board(browser, live_server, table, player2)
    for name in ("Brick", "Vera"):
        open_card(pat, table, name)  # at full strength: one line until opened, which needs the connection

    offline(pat_phone)
    pat.get_by_role("button", name="+1 Harm on Brick").click()
    pat.get_by_role("button", name="Brick: take 1 Fatigue").click()
    pat.get_by_role("button", name="+1 Injury on Vera").click()
    queue = pat.locator("#offline-queue")
    expect(queue.locator("li.queued")).to_have_count(3)
    expect(queue).to_contain_text("Offline: taps on the board are kept here")
    expect(queue.locator("li").nth(0)).to_contain_text("+1 Harm on Brick")
    expect(queue.locator("li").nth(1)).to_contain_text("Brick: take 1 Fatigue")
    expect(queue.locator("li").nth(2)).to_contain_text("+1 Injury on Vera, tapped at")
    expect(queue.locator("li").nth(2)).to_contain_text("will be sent when back online")
    assert TrackerAction.objects.count() == 0
    assert queue_violations(pat) == []

    online(pat_phone)
    expect(queue).to_be_hidden(timeout=TEN_SECONDS)
    summaries = list(TrackerAction.objects.order_by("version").values_list("summary", flat=True))
    assert len(summaries) == 3
    assert summaries[0].startswith("Brick")
    assert "Harm" in summaries[0]
    assert summaries[1] == "Brick takes 1 Fatigue (1 now)."
    assert summaries[2].startswith("Vera")
    assert TrackerActionKey.objects.count() == 3
    expect(card(pat, table, "Brick").locator(".tf-harm")).to_contain_text("Harm 1", timeout=FIVE_SECONDS)

    # The other phone sees them; the history tells each once.
    expect(card(quinn, table, "Brick").locator(".tf-fatigue")).to_contain_text(
        "Fatigue 1/2", timeout=FIVE_SECONDS
    )
    expect(card(quinn, table, "Vera").locator(".tf-injuries")).to_contain_text(
        "Injuries 1", timeout=FIVE_SECONDS
    )
    assert len(events_of(TrackerFighter.objects.get(fighter=table["Brick"]))) == 3  # set up, Harm, Fatigue
    assert len(events_of(TrackerFighter.objects.get(fighter=table["Vera"]))) == 2  # set up, Injury
    pat_phone.close()


def test_each_tap_kept_offline_names_its_fighter_and_its_action(
    browser: Browser,
    live_server,
    tc_table,  # noqa: F811  (the fixture imported above)
    player,
):
    """A Trench Crusade card's forms are sent by htmx from the form, not the button: the kept tap still says whose
    it was and what ("Out of Action: Kit", "+ Blood Marker on Vera"), never "Out of Action" alone."""
    pat_phone = phone_of(browser, live_server, player)
    pat = pat_phone.new_page()
    board(pat, live_server, tc_table)
    controlled(pat)
    for name in ("Kit", "Vera"):
        open_card(pat, tc_table, name)

    offline(pat_phone)
    pat.get_by_role("button", name="Out of Action: Kit").click()
    pat.get_by_role("button", name="+ Blood Marker on Vera").click()
    queue = pat.locator("#offline-queue")
    expect(queue.locator("li.queued")).to_have_count(2)
    expect(queue.locator("li").nth(0)).to_contain_text("Out of Action: Kit, tapped at")
    expect(queue.locator("li").nth(1)).to_contain_text("+ Blood Marker on Vera, tapped at")
    assert queue_violations(pat) == []

    online(pat_phone)
    expect(queue).to_be_hidden(timeout=TEN_SECONDS)
    assert tc_table.tracked("Kit").status == TrackerFighter.Status.OUT_OF_ACTION
    assert tc_table.tracked("Vera").blood == 1
    pat_phone.close()


def test_a_card_opened_once_opens_again_with_no_signal(browser: Browser, live_server, table, player):
    """A fighter at full strength is one line; its card is fetched when opened, and the service worker keeps the
    copy (a part, `part=card`), so with no signal the card opened before opens again and its taps are kept."""
    pat_phone = phone_of(browser, live_server, player)
    pat = pat_phone.new_page()
    board(pat, live_server, table)
    controlled(pat)
    vera = open_card(pat, table, "Vera")
    vera.get_by_role("link", name="Fold the card of Vera").click()
    expect(vera.locator("a.tf-open")).to_have_count(1)

    offline(pat_phone)
    open_card(pat, table, "Vera")
    pat.get_by_role("button", name="Vera: take 1 Fatigue").click()
    queue = pat.locator("#offline-queue")
    expect(queue.locator("li.queued")).to_have_count(1)
    expect(queue.locator("li").nth(0)).to_contain_text("Vera: take 1 Fatigue, tapped at")

    online(pat_phone)
    expect(queue).to_be_hidden(timeout=TEN_SECONDS)
    assert table.tracked("Vera").fatigue == 1
    pat_phone.close()


def quinn_board(browser: Browser, live_server, table, player2) -> Page:
    quinn = phone_of(browser, live_server, player2).new_page()
    board(quinn, live_server, table)
    return quinn


def test_an_offline_tap_on_a_fighter_the_other_phone_changed_is_refused_with_what_was_typed(
    browser: Browser, live_server, table, player, player2
):
    pat_phone = phone_of(browser, live_server, player)
    pat = pat_phone.new_page()
    board(pat, live_server, table)
    controlled(pat)
    open_card(pat, table, "Fidus")

    offline(pat_phone)
    card(pat, table, "Fidus").get_by_label("Quick Damage").select_option("2")
    pat.get_by_role("button", name="Apply to Fidus").click()
    expect(pat.locator("#offline-queue li.queued")).to_have_count(1)
    # Meanwhile the other phone, online, marks 1 Harm on Fidus.
    tracker_mark(game=table.game, target_id=table["Fidus"].pk, mark="harm", by=player2, version=0)

    online(pat_phone)
    refused = pat.locator("#offline-queue li.refused")
    expect(refused).to_contain_text(
        "Not applied: Quick Damage 2 to Fidus (you typed Damage 2)", timeout=TEN_SECONDS
    )
    expect(refused).to_contain_text("Fidus was changed by quinn_player")
    expect(refused.get_by_role("button", name="Drop it")).to_be_visible()
    assert queue_violations(pat) == []
    assert TrackerAction.objects.count() == 1
    assert TrackerFighter.objects.get(fighter=table["Fidus"]).harm == 1

    # Redo on the board as it is now: applied, once.
    expect(card(pat, table, "Fidus").locator(".tf-harm")).to_contain_text("Harm 1", timeout=FIVE_SECONDS)
    refused.get_by_role("button", name="Redo on the board as it is now").click()
    expect(pat.locator("#offline-queue")).to_be_hidden(timeout=TEN_SECONDS)
    assert TrackerAction.objects.count() == 2
    assert TrackerAction.objects.order_by("-version").first().summary.startswith("Damage 2")
    pat_phone.close()


def test_a_queued_tap_whose_answer_was_lost_is_sent_again_and_applied_once(
    browser: Browser, live_server, table, player
):
    pat_phone = phone_of(browser, live_server, player)
    pat = pat_phone.new_page()
    board(pat, live_server, table)
    controlled(pat)
    open_card(pat, table, "Brick")
    offline(pat_phone)
    pat.get_by_role("button", name="+1 Harm on Brick").click()
    expect(pat.locator("#offline-queue li.queued")).to_have_count(1)

    # Back online, but the first answer is lost on the way back: the server applied the tap, the phone never heard.
    lost = []

    def answer_lost(route):
        if not lost:
            lost.append(route.fetch().status)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    pat_phone.route("**/harm/", answer_lost)
    online(pat_phone)
    expect(pat.locator("#offline-queue")).to_be_hidden(timeout=TEN_SECONDS + FIVE_SECONDS)
    assert lost == [200]
    assert TrackerAction.objects.count() == 1
    assert TrackerFighter.objects.get(fighter=table["Brick"]).harm == 1
    pat_phone.close()


def test_logging_out_clears_the_pages_kept_on_the_phone(
    browser: Browser, live_server, table, player, warband
):
    context = phone_of(browser, live_server, player)
    page = context.new_page()
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    controlled(page)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    assert page.evaluate("caches.open('ledger-pages-v1').then(c => c.keys()).then(k => k.length)") >= 1

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation", name="Main").get_by_role("link", name="Log in")).to_be_visible()
    kept = page.evaluate(
        "caches.open('ledger-pages-v1').then(c => c.keys()).then(k => k.map(r => new URL(r.url).pathname))"
    )
    assert f"/warbands/{warband.pk}/" not in kept
    offline(context)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.get_by_role("heading", name="Offline")).to_be_visible()
    context.close()


def test_dice_typed_in_the_post_game_offline_are_kept_and_sent_when_back_online(
    browser: Browser, live_server, campaign, warband, rival_warband, make_fighter, player
):
    kell = make_fighter(warband, "Yeoman Kell")
    jon = make_fighter(warband, "Yeoman Jon")
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[kell, jon]
    )
    context = phone_of(browser, live_server, player)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{after.game.pk}/post-game/{warband.pk}/")
    page.get_by_role("button", name="Confirm and go on").click()
    expect(page.get_by_role("heading", name="Troops: the Survival Roll")).to_be_visible()
    controlled(page)

    offline(context)
    expect(page.locator("#offline-queue")).to_contain_text("the dice you type in are kept on this phone")
    expect(page.locator(f"#fighter-{kell.pk}").get_by_role("button", name="Roll for me")).to_be_disabled()
    for fighter, face in ((kell, "4"), (jon, "2")):
        page.locator(f"#fighter-{fighter.pk}").get_by_label("D6").fill(face)
        page.locator(f"#fighter-{fighter.pk}").get_by_role("button", name="Enter dice").click()
    queue = page.locator("#offline-queue li.queued")
    expect(queue).to_have_count(2)
    expect(queue.nth(0)).to_contain_text("Yeoman Kell's roll")
    expect(queue.nth(0)).to_contain_text("D6 4")
    expect(queue.nth(1)).to_contain_text("will be sent when back online")
    assert not PostGameRoll.objects.exists()

    online(context)
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=TEN_SECONDS)
    expect(page.locator(f"#fighter-{kell.pk}")).to_contain_text("Survival Roll 4", timeout=FIVE_SECONDS)
    expect(page.locator(f"#fighter-{jon.pk}")).to_contain_text("Survival Roll 2")
    rolls = PostGameRoll.objects.order_by("pk")
    assert [(roll.fighter_id, roll.dice_roll.faces) for roll in rolls] == [(kell.pk, [4]), (jon.pk, [2])]
    context.close()
