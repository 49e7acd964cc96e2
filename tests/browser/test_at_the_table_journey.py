"""At the table, second round, in real Chromium on a 390-pixel phone: ten fighters recruited in two page loads, a
refused order's message in view and focused, the post-game's compact step bar and a step passed with nothing to
do, no page wider than the phone with the longest names the limits allow, and no project word ("seed") on a page.
axe checks the new pages."""

import re

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from combat.tests.post_game_helpers import game_with
from rosters.models import Fighter, Item, Warband
from rosters.services import price_lists as price_services
from tests.browser.axe import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
# Words of the project, not of the game: its seeds, and internal ids a template might leak (a primary key, a
# column name, a Python or JavaScript value printed as text).
PROJECT_WORDS = re.compile(r"\bseeds?\b|\bpk\b|\b[a-z]+_id\b|\bundefined\b|\bobject at 0x", re.IGNORECASE)


def log_in(page: Page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size(PHONE)


def in_view(page: Page, selector: str) -> bool:
    return page.locator(selector).first.evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )


def focused_matches(page: Page, selector: str) -> bool:
    return page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector)


@pytest.fixture
def table(campaign, organiser, warband, rival_warband, make_fighter):
    """A campaign with the demo's price lists, a warband with 85 ducats, and a game it won, whose post-game has
    Promotion Dice to assign (two Troops, a win)."""
    price_services.price_list_copy_demo(campaign=campaign, by=organiser)
    Warband.objects.filter(pk=warband.pk).update(strongbox=85)
    make_fighter(warband, "Brother Tom")
    make_fighter(warband, "Yeoman Kell")
    make_fighter(rival_warband, "Heretic Priest", elite=True)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    after.player.result = after.player.Result.WIN
    after.player.save(update_fields=["result"])
    return after


def test_ten_fighters_in_two_page_loads_and_a_refused_order_in_view(page: Page, live_server, table, player):
    warband = table.player.warband
    log_in(page, live_server, player)
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    recruit = f"{live_server.url}/warbands/{warband.pk}/recruit/"

    # Ten Mire Pilgrims cost 400; the Strongbox holds 85: the totals say so as they are typed, without a page load.
    page.goto(recruit)
    page.get_by_label("How many Mire Pilgrim").fill("10")
    expect(page.locator("#recruit-total")).to_have_text("400")
    expect(page.locator("#recruit-totals")).to_contain_text("cannot pay it")
    assert len(loads) == 1
    assert_accessible(page, "the recruit page with its totals")

    # Sent anyway: refused whole, and the message is where the eye is, focused (announced by role="alert").
    page.get_by_role("button", name="Recruit and pay").click()
    expect(page.locator("#error-summary")).to_contain_text("it is 315 short, so nothing is bought")
    assert focused_matches(page, "[data-error-summary]")
    assert in_view(page, "#error-summary")
    assert not Fighter.objects.filter(warband=warband, fighter_type="Mire Pilgrim").exists()
    assert_accessible(page, "the refused order with its error summary")

    # With the ducats: ten fighters, two page loads (this page, then the roster it sends back to).
    Warband.objects.filter(pk=warband.pk).update(strongbox=1000)
    loads.clear()
    page.goto(recruit)
    page.get_by_label("How many Mire Pilgrim").fill("8")
    page.get_by_label("How many Trench Runner").fill("2")
    expect(page.locator("#recruit-total")).to_have_text(str(8 * 40 + 2 * 35))
    page.get_by_role("button", name="Recruit and pay").click()
    expect(page.locator("#messages")).to_contain_text("10 fighters recruited")
    assert page.url.startswith(f"{live_server.url}/warbands/{warband.pk}/")
    page.wait_for_load_state("load")  # the roster's own load event, counted when it fires
    assert len(loads) == 2, loads
    assert (
        Fighter.objects.filter(warband=warband, fighter_type__in=["Mire Pilgrim", "Trench Runner"]).count()
        == 10
    )


def test_an_order_typed_field_after_field_logs_no_error_on_the_console(
    page: Page, live_server, table, player
):
    """Each quantity asks for the totals on input and on change: the second request must not abort the first, which
    htmx reports on the console as an error (htmx:sendAbort) on every field a player leaves."""
    warband = table.player.warband
    Warband.objects.filter(pk=warband.pk).update(strongbox=1000)
    log_in(page, live_server, player)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/recruit/")
    for label, count in (("Lantern Warden", "2"), ("Mire Pilgrim", "5"), ("Trench Runner", "2")):
        page.get_by_label(f"How many {label}").fill(count)
    page.get_by_label("How many Bell Hammer").fill("1")
    page.keyboard.press("Tab")
    expect(page.locator("#recruit-total")).to_have_text(str(2 * 90 + 5 * 40 + 2 * 35 + 15))
    page.wait_for_load_state("networkidle")
    assert errors == []


def test_a_purchase_the_strongbox_cannot_pay_is_shown_in_view(page: Page, live_server, table, player):
    warband = table.player.warband
    tom = Fighter.objects.get(name="Brother Tom")
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/fighters/{tom.pk}/")
    page.get_by_text(f"Give {tom.name} new").click()
    form = page.locator("#battlekit form").last
    form.locator("input[name=name]").fill("Siege Jezzail")
    form.locator("input[name=cost]").fill("300")
    form.get_by_role("button", name="Add").click()
    expect(page.locator("#error-summary")).to_contain_text("it cannot pay 300")
    assert focused_matches(page, "[data-error-summary]")
    assert in_view(page, "#error-summary")
    assert not Item.objects.filter(warband=warband, name="Siege Jezzail").exists()


def test_the_step_bar_fits_a_phone_and_promotions_is_passed_with_nothing_rolled(
    page: Page, live_server, table, player
):
    log_in(page, live_server, player)
    base = f"{live_server.url}/games/{table.game.pk}/post-game/{table.player.warband_id}"
    page.goto(f"{base}/promotions/")
    compact = page.locator("#step-compact")
    expect(compact).to_be_visible()
    expect(compact).to_contain_text("Step 6 of 12: Promotions")
    expect(page.locator(".wizard-steps .step-full")).to_be_hidden()
    assert compact.bounding_box()["height"] < 200  # twelve buttons took the first screen
    compact.locator("summary").click()  # the whole list, one tap away
    expect(compact.get_by_role("link", name="Review and apply")).to_be_visible()
    assert_accessible(page, "Promotions with the compact step bar")

    # A refused assignment, sent by htmx: its reason is brought into view and focused, on the swapped step.
    page.get_by_label("Promotion Dice for Brother Tom").fill("3")
    page.get_by_role("button", name="Assign the dice").click()
    refused = ".errorlist.nonfield[role=alert], [aria-invalid='true']"
    expect(page.locator("#post-game-step .errorlist").first).to_be_visible()
    page.wait_for_function("s => document.activeElement && document.activeElement.matches(s)", arg=refused)
    assert page.evaluate(
        "() => { const r = document.activeElement.getBoundingClientRect(); "
        "return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )

    page.get_by_role("button", name="Go on without Promotion Dice").click()
    page.wait_for_url(re.compile(r"/(dismiss|reinforcements)/$"))
    expect(page.locator("#step-compact .step-now")).not_to_contain_text("Promotions")

    page.set_viewport_size({"width": 1024, "height": 800})  # wide: the whole list, as before
    expect(page.locator(".wizard-steps .step-full")).to_be_visible()
    expect(page.locator("#step-compact")).to_be_hidden()


def _longest(page: Page, live_server, path: str, field: str = "name") -> None:
    """Type the longest text the field's limit allows, with no space in it, and send the form."""
    page.goto(live_server.url + path)
    box = page.locator(f"form input[name={field}]").first
    longest = int(box.get_attribute("maxlength"))
    box.fill("W" * longest)
    # Wait for the answer: the next step writes to the database too, and must not race the form's own write.
    with page.expect_navigation():
        box.evaluate("el => el.form.requestSubmit()")
    assert "W" * 20 in page.content(), path  # saved and shown (a refusal would show what was typed, too)


def test_no_page_scrolls_sideways_with_the_longest_names_and_none_says_seed(
    page: Page, live_server, table, organiser, player
):
    warband = table.player.warband
    tom = Fighter.objects.get(name="Brother Tom")
    log_in(page, live_server, organiser)
    _longest(page, live_server, f"/campaigns/{table.game.campaign_id}/settings/")
    _longest(page, live_server, f"/warbands/{warband.pk}/edit/")
    _longest(page, live_server, f"/fighters/{tom.pk}/edit/")
    item = Item.objects.create(warband=warband, fighter=tom, name="Hammer")
    _longest(page, live_server, f"/items/{item.pk}/edit/")
    tom.refresh_from_db()
    warband.refresh_from_db()
    assert len(tom.name) == 100
    assert " " not in tom.name
    assert len(warband.name) == 100

    log_in(page, live_server, player)
    game = table.game
    post_game = f"/games/{game.pk}/post-game/{warband.pk}"
    pages = [
        "/",
        f"/campaigns/{game.campaign_id}/",
        f"/campaigns/{game.campaign_id}/history/",
        f"/campaigns/{game.campaign_id}/dice/",
        f"/campaigns/{game.campaign_id}/prices/",
        f"/campaigns/{game.campaign_id}/stats/",
        f"/campaigns/{game.campaign_id}/data/",
        f"/warbands/{warband.pk}/",
        f"/warbands/{warband.pk}/recruit/",
        f"/warbands/{warband.pk}/ledger/",
        f"/warbands/{warband.pk}/print/",
        f"/warbands/{warband.pk}/cards/",
        f"/fighters/{tom.pk}/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/tracker/",
        f"{post_game}/promotions/",
        f"{post_game}/review/",
        "/rules/",
    ]
    wide, said = [], []
    for path in pages:
        page.goto(live_server.url + path)
        if page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1"):
            wide.append(f"{path}: {page.evaluate('document.documentElement.scrollWidth')} px")
        if PROJECT_WORDS.search(page.locator("body").inner_text()):
            said.append(f"{path}: {PROJECT_WORDS.search(page.locator('body').inner_text()).group(0)}")
    assert wide == []
    assert said == []
