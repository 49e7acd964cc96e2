"""The Advancement step in real Chromium at a phone's width: Sister Agnes reaches 2 XP, the player picks
two skill charts, types the dice, takes the skill found, applies, and the roster shows it.

The campaign keeps the demo set's made-up charts: Ranged 9 is Long Shadow Shot, Stealth & Speed 6 Quiet Boots.
"""

from datetime import date

import pytest
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer
from combat.services.campaign_data import campaign_data_copy_demo
from rosters.models import Skill
from tests.browser.axe import assert_accessible
from tests.browser.test_post_game_journey import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game_one(campaign, warband, rival_warband, make_fighter, organiser):
    agnes = make_fighter(warband, "Sister Agnes", elite=True, fighter_type="War Prophet", xp=1)
    campaign_data_copy_demo(campaign=campaign, by=organiser)
    game = Game.objects.create(
        campaign=campaign,
        number=1,
        played_on=date(2026, 11, 28),
        status=Game.Status.RECORDED,
        created_by=organiser,
    )
    GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.WIN)
    GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.LOSS)
    return {"game": game, "agnes": agnes}


def test_a_fighter_reaching_2_xp_learns_a_skill_from_typed_dice(
    page: Page, live_server, player, warband, game_one
):
    game, agnes = game_one["game"], game_one["agnes"]
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)
    base = f"{live_server.url}/games/{game.pk}/post-game/{warband.pk}"

    page.goto(f"{base}/out-of-action/")
    page.get_by_role("button", name="Confirm and go on").click()
    page.goto(f"{base}/experience/")
    expect(page.locator(f"#xp-{agnes.pk}")).to_contain_text("1 → 2")
    page.get_by_role("button", name="Save and go on").click()

    # The Advancement step: one card, the charts picked, the odds shown before each roll.
    card = page.locator(f"#card-{agnes.pk}-1")
    expect(card).to_contain_text("Sister Agnes: Skill Advancement Roll 1")
    assert_accessible(page, "the Advancement step, picking the charts")
    card.get_by_label("First chart").select_option("ranged")
    card.get_by_label("Second chart").select_option("stealth_speed")
    card.get_by_role("button", name="Use these charts").click()

    ranged = page.locator(f"#card-{agnes.pk}-1-die-1")
    expect(ranged).to_contain_text("Chance of each skill on Ranged")
    page.evaluate("window.stillTheSamePage = true")
    ranged.get_by_label("First die").fill("4")
    ranged.get_by_label("Second die").fill("5")
    ranged.get_by_role("button", name="Enter dice").click()
    expect(page.locator(f"#card-{agnes.pk}-1-die-1")).to_contain_text("9 is Long Shadow Shot.")
    assert page.evaluate("window.stillTheSamePage") is True  # htmx swapped the step in place

    stealth = page.locator(f"#card-{agnes.pk}-1-die-2")
    stealth.get_by_label("First die").fill("3")
    stealth.get_by_label("Second die").fill("3")
    stealth.get_by_role("button", name="Enter dice").click()
    card = page.locator(f"#card-{agnes.pk}-1")
    expect(card).to_contain_text("6 is Quiet Boots.")
    assert_accessible(page, "the Advancement step, picking the skill")
    card.get_by_label("Long Shadow Shot").check()
    card.get_by_role("button", name="Take this skill").click()
    expect(page.locator(f"#card-{agnes.pk}-1")).to_contain_text("Takes Long Shadow Shot (Ranged 9).")

    # Review, Apply, and the roster shows the skill.
    page.goto(f"{base}/review/")
    expect(page.locator("#post-game-step")).to_contain_text(
        "Sister Agnes reached 2 XP: Skill Advancement — Ranged 9, Long Shadow Shot."
    )
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.locator(".message.success")).to_contain_text("applied to Iron Sepulchre")
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.locator(f"#fighter-row-{agnes.pk}")).to_contain_text("Long Shadow Shot")
    assert Skill.objects.get(fighter=agnes).chart == "Ranged 9"
