"""Campaigns and rosters in real Chromium: the organiser starts a campaign and invites a player, both found
warbands, the player adds a fighter and changes its XP in place (no page load), the outsider sees nothing; and the
roster works on a 390-pixel-wide phone."""

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def found_warband(page: Page, name: str, faction: str) -> None:
    page.get_by_role("link", name="Add a warband").first.click()
    page.get_by_label("Name").fill(name)
    page.get_by_label("Faction").fill(faction)
    page.get_by_role("button", name="Found the warband").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()


def mark_page(page: Page) -> None:
    """A marker on `window` that survives htmx swaps and dies with any full page load."""
    page.evaluate("window.__ledgerMarker = 'still here'")


def assert_no_page_load(page: Page) -> None:
    assert page.evaluate("window.__ledgerMarker") == "still here"


def test_a_group_starts_a_campaign_and_keeps_rosters(browser: Browser, live_server, make_user, password):
    base = live_server.url
    make_user("olga_organiser")
    make_user("pat_player")
    make_user("otto_outsider")
    organiser_context, organiser, campaign_url, invitation = _organiser_creates_the_campaign(
        browser, base, password
    )
    player_context, player, roster_url = _a_player_joins_and_founds_a_warband(
        browser, base, password, invitation, campaign_url
    )
    row = _the_player_adds_a_fighter(player)
    _xp_swaps_only_the_row(player, row)
    _the_row_is_edited_in_place(player, row, roster_url)

    # Both warbands are on the campaign page, for both of them.
    organiser.goto(campaign_url)
    expect(organiser.locator("#warbands")).to_contain_text("The Iron Sepulchre")
    expect(organiser.locator("#warbands")).to_contain_text("The Grey Legion")

    # The outsider cannot see the campaign, nor the roster.
    outsider_context = browser.new_context()
    outsider = outsider_context.new_page()
    log_in(outsider, base, "otto_outsider", password)
    assert outsider.goto(campaign_url).status == 404
    assert outsider.goto(roster_url).status == 404
    expect(outsider.get_by_text("The Long Trench")).to_have_count(0)

    for context in (organiser_context, player_context, outsider_context):
        context.close()


def _organiser_creates_the_campaign(browser: Browser, base: str, password: str):
    """The organiser creates the campaign and copies the invitation."""
    organiser_context = browser.new_context()
    organiser_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    organiser = organiser_context.new_page()
    log_in(organiser, base, "olga_organiser", password)
    organiser.get_by_role("link", name="New campaign").click()
    organiser.get_by_label("Name").fill("The Long Trench")
    organiser.get_by_role("button", name="Create the campaign").click()
    expect(organiser.get_by_role("heading", name="The Long Trench", level=1)).to_be_visible()
    campaign_url = organiser.url
    organiser.get_by_role("button", name="Copy").click()
    expect(organiser.get_by_role("button", name="Copied")).to_be_visible()
    invitation = organiser.evaluate("navigator.clipboard.readText()")
    assert re.fullmatch(rf"{re.escape(base)}/join/[\w-]+/", invitation)
    assert invitation == organiser.get_by_label("Invitation link").input_value()
    found_warband(organiser, "The Grey Legion", "Heretic Legion")
    return organiser_context, organiser, campaign_url, invitation


def _a_player_joins_and_founds_a_warband(browser: Browser, base, password, invitation, campaign_url):
    """A second user joins through the invitation and founds a warband."""
    player_context = browser.new_context()
    player = player_context.new_page()
    log_in(player, base, "pat_player", password)
    player.goto(invitation)
    expect(player.get_by_role("heading", name="Join The Long Trench")).to_be_visible()
    player.get_by_role("button", name="Join the campaign").click()
    expect(player.get_by_text("Welcome to The Long Trench!")).to_be_visible()
    assert player.url == campaign_url
    found_warband(player, "The Iron Sepulchre", "Trench Pilgrims")
    return player_context, player, player.url


def _the_player_adds_a_fighter(player: Page):
    """The player adds a fighter."""
    player.get_by_role("link", name="Add a fighter").first.click()
    player.get_by_label("Name").fill("Brother Anselm")
    player.get_by_label("Type").fill("War Prophet")
    player.get_by_label("ELITE").check()
    player.get_by_role("button", name="Add to the roster").click()
    row = player.locator("tr.fighter-row", has_text="Brother Anselm")
    expect(row).to_be_visible()
    expect(row.locator(".badge.elite")).to_have_text("ELITE")
    expect(row.locator("output.xp-value")).to_have_text("0")
    return row


def _xp_swaps_only_the_row(player: Page, row) -> None:
    """XP +1 swaps only the row: the page is not loaded again."""
    mark_page(player)
    row.get_by_role("button", name="1 XP more for Brother Anselm").click()
    expect(row.locator("output.xp-value")).to_have_text("1")
    row.get_by_role("button", name="1 XP more for Brother Anselm").click()
    expect(row.locator("output.xp-value")).to_have_text("2")
    row.get_by_role("button", name="1 XP less for Brother Anselm").click()
    expect(row.locator("output.xp-value")).to_have_text("1")
    assert_no_page_load(player)


def _the_row_is_edited_in_place(player: Page, row, roster_url: str) -> None:
    """Edit in place: the row becomes its form; a bad value is refused in the row; a good one saves."""
    row.get_by_role("link", name="Edit").click()
    form_row = player.locator("tr.fighter-row.editing")
    expect(form_row).to_be_visible()
    # The browser itself refuses a number out of range (the input's max: Health runs to 20)...
    form_row.get_by_label("Health").fill("21")
    form_row.get_by_role("button", name="Save").click()
    assert form_row.get_by_label("Health").evaluate("input => input.validity.rangeOverflow")
    form_row.get_by_label("Health").fill("2")
    # A Trench Crusade stat is typed as the rules write it (campaigns/profiles.py).
    form_row.get_by_label("Melee").fill("+1D")
    # ...and the server refuses what the browser lets through: a 422 whose form, with its message, is swapped in.
    form_row.get_by_label("Name").fill("   ")
    form_row.get_by_role("button", name="Save").click()
    expect(form_row.get_by_text("Give the fighter a name.")).to_be_visible()
    form_row.get_by_label("Name").fill("Brother Anselm")
    form_row.get_by_label("XP", exact=True).fill("5")
    form_row.get_by_role("button", name="Save").click()
    expect(player.locator("tr.fighter-row.editing")).to_have_count(0)
    expect(row.locator("output.xp-value")).to_have_text("5")
    expect(row).to_contain_text("Me +1D")
    assert_no_page_load(player)
    # And it is stored: a fresh load shows it.
    player.goto(roster_url)
    expect(
        player.locator("tr.fighter-row", has_text="Brother Anselm").locator("output.xp-value")
    ).to_have_text("5")


def test_the_roster_is_usable_on_a_390_pixel_phone(
    browser: Browser, live_server, campaign, warband, player, password, make_fighter
):
    from rosters.services import battlekit as battlekit_services
    from rosters.services import injuries as injury_services

    anselm = make_fighter(warband, "Brother Anselm", elite=True, fighter_type="War Prophet", xp=3)
    battlekit_services.item_create(warband=warband, fighter=anselm, name="Holy Icon", by=player)
    injury_services.injury_add(fighter=anselm, code="hand_wound", name="Hand Wound", by=player)
    for number in range(6):
        make_fighter(warband, f"Pilgrim {number}", fighter_type="Trench Pilgrim")

    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    log_in(page, live_server.url, player.username, password)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")

    # Nothing wider than the screen: no sideways scrolling.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    row = page.locator(f"#fighter-row-{anselm.pk}")
    expect(row).to_contain_text("Hand Wound")
    expect(row).to_contain_text("Holy Icon")
    plus = row.get_by_role("button", name="1 XP more for Brother Anselm")
    box = plus.bounding_box()
    assert box["width"] >= 44
    assert box["height"] >= 44
    assert box["x"] + box["width"] <= PHONE["width"]

    mark_page(page)
    plus.tap()
    expect(row.locator("output.xp-value")).to_have_text("4")
    # Edit in place on the phone too.
    row.get_by_role("link", name="Edit").tap()
    form_row = page.locator(f"#fighter-row-{anselm.pk}.editing")
    expect(form_row).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    form_row.get_by_label("Movement").fill("5")
    form_row.get_by_role("button", name="Save").tap()
    expect(page.locator(f"#fighter-row-{anselm.pk}")).to_contain_text("M 5″")
    assert_no_page_load(page)
    context.close()


def test_the_roster_works_without_javascript(
    browser: Browser, live_server, campaign, warband, player, password, make_fighter
):
    """No JavaScript: XP buttons post the page's one CSRF form to the fighter's address; Edit opens a page."""
    from rosters.services import battlekit as battlekit_services

    anselm = make_fighter(warband, "Brother Anselm", elite=True, xp=3)
    fallen = make_fighter(warband, "Pilgrim Hale", status="dead")
    battlekit_services.item_create(warband=warband, name="Spare Shovel", by=player)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server.url, player.username, password)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    row = page.locator(f"#fighter-row-{anselm.pk}")
    row.get_by_role("button", name="1 XP more for Brother Anselm").click()
    expect(page.locator(f"#fighter-row-{anselm.pk} output.xp-value")).to_have_text("4")
    page.locator(f"#fighter-row-{anselm.pk}").get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Edit Brother Anselm")).to_be_visible()
    page.get_by_label("Battle Scars").fill("1")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(f"#fighter-row-{anselm.pk} td[data-label='Scars']")).to_have_text("1")
    anselm.refresh_from_db()
    assert (anselm.xp, anselm.battle_scars) == (4, 1)
    # The cached parts' other buttons post the same CSRF form: an Arsenal item off the roster, a fighter back on it.
    page.get_by_role("button", name="Remove Spare Shovel from the roster").click()
    expect(page.locator("#arsenal")).not_to_contain_text("Spare Shovel")
    page.locator("#removed-fighters summary").click()
    page.get_by_role("button", name="Put back on the roster").click()
    expect(page.locator(f"#fighter-row-{fallen.pk}")).to_be_visible()
    context.close()


def phone_page(browser: Browser, live_server, user, password, **options) -> Page:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, **options)
    page = context.new_page()
    log_in(page, live_server.url, user.username, password)
    return page


def overflowing(page: Page) -> list[str]:
    """What sticks out past the right edge of the screen (the page then scrolls sideways); a .table-scroll box
    scrolls its own table sideways, which is allowed."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getClientRects().length && !e.closest('.table-scroll > *'))
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
            .map(e => `${e.tagName}.${e.className}: ${(e.innerText || '').slice(0, 40)}`)"""
    )


def small_targets(page: Page) -> list[str]:
    """Buttons, fields and listed links under 44 px tall (docs/architecture.md: tap targets at least 44 px)."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
              'main button, main .button, main select, main input:not([type=checkbox]):not([type=radio]),'
              + ' main td.primary > a, main ol.standings a, main ul.plain > li > a:first-child')]
            .filter(e => e.getClientRects().length && e.type !== 'hidden' && !e.closest('.visually-hidden'))
            .filter(e => e.getBoundingClientRect().height < 44)
            .map(e => `${e.tagName} "${(e.innerText || e.name || '').trim().slice(0, 30)}"`
                      + ` ${Math.round(e.getBoundingClientRect().height)}px`)"""
    )


@pytest.fixture
def played_world(campaign, organiser, player, player2, warband, rival_warband, make_fighter):
    """Two warbands with long names, Battlekit and Injuries, after a game with fighters Out of Action."""
    from rosters.services import battlekit as battlekit_services
    from rosters.services import games as game_services
    from rosters.services import injuries as injury_services

    warband.name = "The Iron Sepulchre of Saint Ludwin"
    warband.save()
    anselm = make_fighter(warband, "Prophet Anselm the Unbowed", elite=True, fighter_type="War Prophet", xp=3)
    voss = make_fighter(warband, "Castigator Voss of the Long Trench", elite=True)
    for name in ("Holy Icon", "Trench Club", "Standard Armour", "Incendiary Grenades"):
        battlekit_services.item_create(
            warband=warband, fighter=anselm, name=name, keywords=["HEAVY"], by=player
        )
    injury_services.injury_add(
        fighter=anselm, code="hand_wound", name="Hand Wound", effect="-1 DICE", by=player
    )
    injury_services.injury_add(fighter=anselm, code="leg_wound", name="Leg Wound", by=player)
    heretic = make_fighter(rival_warband, "Death Commando Sabine", elite=True)
    game = game_services.game_record(
        campaign=campaign,
        by=player,
        played_on="2025-03-01",
        scenario="Hold the Line",
        entries=[
            game_services.GameEntry(warband, "draw", [anselm, voss]),
            game_services.GameEntry(rival_warband, "draw", [heretic]),
        ],
    )
    return SimpleNamespace(warband=warband, anselm=anselm, game=game)


def test_no_page_scrolls_sideways_on_a_390_pixel_phone(
    browser: Browser, live_server, played_world, player, password
):
    """A stacked cell of several parts (both sides of a game, Battlekit, Injuries) wraps inside the card; a
    fighter's Battlekit moves fit beside their names. (The campaign page's games used to run 400 px off-screen.)"""
    page = phone_page(browser, live_server, player, password)
    world = played_world
    for path in (
        f"/campaigns/{world.warband.campaign_id}/",
        f"/warbands/{world.warband.pk}/",
        f"/fighters/{world.anselm.pk}/",
        f"/games/{world.game.pk}/",
        f"/warbands/{world.warband.pk}/print/",
        "/",
    ):
        page.goto(live_server.url + path)
        assert overflowing(page) == [], path
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    page.goto(f"{live_server.url}/campaigns/{world.warband.campaign_id}/")
    sides = page.locator(f"#game-{world.game.pk} .game-side")
    expect(sides).to_have_count(2)
    for index in range(2):
        box = sides.nth(index).bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"]
    page.context.close()


def test_every_tap_target_is_44_pixels_on_a_phone(
    browser: Browser, live_server, played_world, campaign, organiser, player, password
):
    world = played_world
    page = phone_page(browser, live_server, player, password)
    for path in (
        f"/campaigns/{campaign.pk}/",
        f"/warbands/{world.warband.pk}/",
        f"/fighters/{world.anselm.pk}/",
        f"/games/{world.game.pk}/",
        f"/campaigns/{campaign.pk}/import/",  # the file picker's button was the browser's 21 px default
    ):
        page.goto(live_server.url + path)
        assert small_targets(page) == [], path
    page.context.close()
    page = phone_page(browser, live_server, organiser, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/settings/")
    assert small_targets(page) == []
    page.context.close()


CONTRAST = """(element) => {
    const rgb = (value) => value.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const luminance = (value) => {
        const [r, g, b] = rgb(value).map((c) => {
            c /= 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(element);
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
}"""


def test_dark_mode_and_printing_from_it_stay_readable(
    browser: Browser, live_server, played_world, player, password
):
    """Dark mode: a danger button's text was white on light red (2.3:1). Printed from dark mode: badges and tags
    were black on dark brown. Both are now at least 4.5:1 (WCAG AA)."""
    world = played_world
    page = phone_page(browser, live_server, player, password, color_scheme="dark")
    page.goto(f"{live_server.url}/fighters/{world.anselm.pk}/")
    danger = page.get_by_role("button", name="Take Prophet Anselm the Unbowed off the roster")
    assert danger.evaluate(CONTRAST) >= 4.5
    page.goto(f"{live_server.url}/warbands/{world.warband.pk}/")
    page.emulate_media(media="print")
    tag = page.locator(f"#fighter-row-{world.anselm.pk} .tag", has_text="Holy Icon")
    assert tag.evaluate(CONTRAST) >= 4.5
    badge = page.locator(f"#fighter-row-{world.anselm.pk} .badge.elite")
    assert badge.evaluate(CONTRAST) >= 4.5
    page.context.close()


def test_small_fields_line_up_and_their_labels_fit(
    browser: Browser, live_server, played_world, player, password
):
    """A row of small fields ("Stash (caps)", "Glory", "Crew XP"; the stats with "Battle Scars") had its inputs
    at different heights when one label took two lines, and "Intelligence" ran into "Agility" on a laptop."""
    world = played_world
    checks = """(grid) => {
        const fields = [...grid.querySelectorAll(':scope > .field')];
        const rows = {};
        for (const field of fields) {
            const input = field.querySelector('input');
            const top = Math.round(field.getBoundingClientRect().top);
            (rows[top] ||= []).push(Math.round(input.getBoundingClientRect().top));
        }
        const uneven = Object.values(rows).filter((tops) => new Set(tops).size > 1);
        const spilling = fields.map((field) => field.querySelector('label'))
            .filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.innerText);
        return {uneven, spilling};
    }"""
    for viewport in (PHONE, {"width": 1200, "height": 900}):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        log_in(page, live_server.url, player.username, password)
        for path in (f"/fighters/{world.anselm.pk}/edit/", f"/warbands/{world.warband.pk}/edit/"):
            page.goto(live_server.url + path)
            grids = page.locator("main .form-grid.aligned")
            assert grids.count() >= 1, path
            for index in range(grids.count()):
                assert grids.nth(index).evaluate(checks) == {"uneven": [], "spilling": []}, (path, viewport)
        context.close()
