"""A long roster in real Chromium on a phone: the first screen comes with the page, the other rows
arrive right after it and work like the first ones, and stay readable offline; without JavaScript, a link shows
them all."""

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from rosters.models import Fighter
from rosters.selectors.roster import FIRST_ROWS
from tests.browser.test_offline import controlled, offline, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
LATER = 4


def session_cookie(live_server, user) -> dict:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    return {"name": cookie.key, "value": cookie.value, "url": live_server.url}


@pytest.fixture
def long_roster(warband, make_fighter) -> list[Fighter]:
    return [make_fighter(warband, f"Pilgrim {n:02}", xp=1) for n in range(FIRST_ROWS + LATER)]


def test_the_other_rows_arrive_after_the_page_and_take_xp(
    page: Page, live_server, player, warband, long_roster
):
    page.context.add_cookies([session_cookie(live_server, player)])
    page.set_viewport_size(PHONE)
    later = []
    page.on("request", lambda request: later.append(request) if "part=later" in request.url else None)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    last = long_roster[-1]
    rows = page.locator("#fighter-rows > tr.fighter-row")
    expect(rows).to_have_count(FIRST_ROWS + LATER)
    assert len(later) == 1
    assert later[0].headers.get("hx-request") == "true"
    expect(page.locator("#later-fighters")).to_have_count(0)
    expect(rows.last).to_have_id(f"fighter-row-{last.pk}")

    # A row that came later is a row like the others: its + swaps it in place.
    page.get_by_role("button", name=f"1 XP more for {last.name}").click()
    expect(page.locator(f"#xp-{last.pk}")).to_have_text("2")
    expect(rows).to_have_count(FIRST_ROWS + LATER)
    last.refresh_from_db()
    assert last.xp == 2


def test_without_javascript_the_link_shows_every_row(
    browser: Browser, live_server, player, warband, long_roster
):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    context.add_cookies([session_cookie(live_server, player)])
    page = context.new_page()
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    rows = page.locator("#fighter-rows > tr.fighter-row")
    expect(rows).to_have_count(FIRST_ROWS)
    page.get_by_role("link", name=f"Show the other {LATER} fighters").click()
    expect(rows).to_have_count(FIRST_ROWS + LATER)
    assert page.url.endswith(f"/warbands/{warband.pk}/?fighters=all#fighter-rows")
    context.close()


def test_a_long_roster_opened_online_is_whole_offline(
    browser: Browser, live_server, player, warband, long_roster
):
    context = phone_of(browser, live_server, player)
    page = context.new_page()
    url = f"{live_server.url}/warbands/{warband.pk}/"
    page.goto(url)
    controlled(page)
    page.reload()  # now through the worker, which keeps the page and its later rows
    rows = page.locator("#fighter-rows > tr.fighter-row")
    expect(rows).to_have_count(FIRST_ROWS + LATER)
    offline(context)
    page.reload()
    expect(page.get_by_text("Offline")).to_be_visible()
    expect(rows).to_have_count(FIRST_ROWS + LATER)
    expect(page.locator(f"#fighter-row-{long_roster[-1].pk}")).to_be_visible()
    context.close()
