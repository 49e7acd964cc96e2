"""The Exploration step in real Chromium at a phone's width (CAMPAIGN_PHASE.md "Looting and
Exploration", RULINGS E-1 to E-4).

Iron Sepulchre's third game: 4 Exploration Dice on the Common or Rare table. Its player types 5, 6, 4, 2 (17),
sees the odds before and the Drowned Chapel (Rare) and 170 ducats after, applies from the Review, and the warband's
page shows the Location found and the Strongbox with the loot (50 → 220).
"""

from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer
from combat.tests.exploration_helpers import save_tables
from tests.browser.axe import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(context, user, live_server):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.fixture
def game_three(campaign, warband, rival_warband, organiser):
    save_tables(campaign, organiser)
    for number in (1, 2, 3):
        game = Game.objects.create(
            campaign=campaign,
            number=number,
            played_on=date(2026, 11, 28),
            status=Game.Status.RECORDED,
            created_by=organiser,
        )
        GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.LOSS)
        GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.WIN)
    return game


def test_typed_exploration_dice_find_a_location_and_the_roster_shows_it(
    page: Page, live_server, player, warband, game_three
):
    post_game = f"{live_server.url}/games/{game_three.pk}/post-game/{warband.pk}/"
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)

    page.goto(f"{post_game}exploration/")
    step = page.locator("#exploration-step")
    expect(step).to_contain_text("4 Exploration Dice")
    expect(step).to_contain_text("Drowned Chapel")  # the odds before the roll
    assert_accessible(page, "the Exploration before the roll")
    for number, face in enumerate((5, 6, 4, 2), start=1):
        step.get_by_label(f"Die {number}", exact=True).fill(str(face))
    step.get_by_role("button", name="Enter dice").click()

    step = page.locator("#exploration-step")
    expect(step).to_contain_text("Score 17")
    expect(step).to_contain_text("Found the Drowned Chapel (Rare)")
    expect(step).to_contain_text("170 ducats")
    assert_accessible(page, "the Exploration after the roll")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at 390 px"

    # Hire & Trade with nothing bought, then the Review.
    step.get_by_role("link", name="Next: Hire & Trade").click()
    page.get_by_role("button", name="Done: go on to Use Glory").click()  # the step after Hire & Trade
    page.get_by_role("button", name="Done: go on to the Review").click()
    expect(page.locator("#review-exploration")).to_contain_text(
        "Exploration: 4 dice, 5+6+4+2 = 17: found the Drowned Chapel (Rare); loot 170 ducats."
    )
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.locator("#summary-exploration")).to_contain_text("found the Drowned Chapel (Rare)")

    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    locations = page.locator("#found-locations")
    expect(locations).to_contain_text("Drowned Chapel")
    expect(locations).to_contain_text("Rare")
    expect(locations).to_contain_text("Game 3")
    expect(page.locator("body")).to_contain_text("220")
    assert_accessible(page, "the roster with a Location found")
