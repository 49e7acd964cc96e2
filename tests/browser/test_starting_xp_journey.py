"""A late joiner in real Chromium at a phone's width : after three battles, Quinn
founds Grey Wardens, the page says it builds at the current Threshold Value; on its roster she opens Starting XP,
gives Sister Agnes 3 XP, picks two charts, types the dice, takes the skill found, ticks it once, and the roster
shows the XP and the skill.

The campaign keeps the demo set's made-up charts: Ranged 9 is Long Shadow Shot, Stealth & Speed 6 Quiet Boots.
"""

from datetime import date

import pytest
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer
from combat.services.campaign_data import campaign_data_copy_demo
from rosters.models import Fighter, Skill, Warband
from rosters.services.fighters import fighter_create
from tests.browser.axe import assert_accessible
from tests.browser.test_post_game_journey import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def three_battles(campaign, warband, rival_warband, organiser):
    campaign_data_copy_demo(campaign=campaign, by=organiser)
    for number in (1, 2, 3):
        game = Game.objects.create(
            campaign=campaign,
            number=number,
            played_on=date(2026, 11, number),
            status=Game.Status.RECORDED,
            created_by=organiser,
        )
        GamePlayer.objects.create(game=game, warband=warband)
        GamePlayer.objects.create(game=game, warband=rival_warband)


def test_a_late_joiner_founds_at_the_threshold_and_ticks_its_starting_xp(
    page: Page, live_server, campaign, player2, three_battles
):
    page.set_viewport_size(PHONE)
    log_in(page.context, player2, live_server)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/warbands/new/")
    expect(page.locator("#late-joiner")).to_contain_text("1000 ducats")
    expect(page.locator("#late-joiner")).to_contain_text("3 starting XP")
    assert_accessible(page, "founding a late joiner")
    page.get_by_label("Name").fill("Grey Wardens")
    page.get_by_role("button", name="Found the warband").click()
    band = Warband.objects.get(name="Grey Wardens")
    assert (band.strongbox, band.starting_xp) == (1000, 3)

    agnes = fighter_create(warband=band, by=player2, name="Sister Agnes", elite=True)
    page.goto(f"{live_server.url}/warbands/{band.pk}/")
    page.locator("#starting-xp-link").get_by_role("link", name="Starting XP").click()
    expect(page.get_by_role("heading", name="Share 3 starting XP")).to_be_visible()
    assert_accessible(page, "the starting XP, sharing")
    page.get_by_label("Sister Agnes (now 0 XP)").fill("3")
    page.get_by_role("button", name="Share these XP").click()

    card = page.locator(f"#card-{agnes.pk}-1")
    expect(card).to_contain_text("Sister Agnes: Skill Advancement Roll 1")
    card.get_by_label("First chart").select_option("ranged")
    card.get_by_label("Second chart").select_option("stealth_speed")
    card.get_by_role("button", name="Use these charts").click()
    page.evaluate("window.stillTheSamePage = true")
    ranged = page.locator(f"#card-{agnes.pk}-1-die-1")
    ranged.get_by_label("First die").fill("4")
    ranged.get_by_label("Second die").fill("5")
    ranged.get_by_role("button", name="Enter dice").click()
    expect(page.locator(f"#card-{agnes.pk}-1-die-1")).to_contain_text("9 is Long Shadow Shot.")
    assert page.evaluate("window.stillTheSamePage") is True  # htmx swapped the section in place
    stealth = page.locator(f"#card-{agnes.pk}-1-die-2")
    stealth.get_by_label("First die").fill("3")
    stealth.get_by_label("Second die").fill("3")
    stealth.get_by_role("button", name="Enter dice").click()
    card = page.locator(f"#card-{agnes.pk}-1")
    expect(card).to_contain_text("6 is Quiet Boots.")
    assert_accessible(page, "the starting XP, picking the skill")
    card.get_by_label("Long Shadow Shot").check()
    card.get_by_role("button", name="Take this skill").click()
    expect(page.locator(f"#card-{agnes.pk}-1")).to_contain_text("Takes Long Shadow Shot (Ranged 9).")

    page.get_by_role("button", name="Tick the starting XP (once only)").click()
    expect(page.locator(".message.success")).to_contain_text("starting XP is ticked")
    expect(page.locator(f"#fighter-row-{agnes.pk}")).to_contain_text("Long Shadow Shot")
    assert Fighter.objects.get(pk=agnes.pk).xp == 3
    assert Skill.objects.get(fighter=agnes).chart == "Ranged 9"
