"""The Promotions step in real Chromium at a phone's width: the owner assigns the Promotion Dice, types in
a 6, keeps everyone on the Dismiss the wounded step, applies, and the roster shows the Troop as ELITE; the pages
pass axe's checks on the way."""

from datetime import date

import pytest
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer
from rosters.models import Fighter
from tests.browser.axe import assert_accessible
from tests.browser.test_post_game_journey import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def won_game(campaign, warband, rival_warband, make_fighter, organiser):
    """Game 1, won, nobody taken Out of Action: a pool of 2 Promotion Dice (RULING P-1)."""
    tom = make_fighter(warband, "Brother Tom", fighter_type="Yeoman")
    make_fighter(warband, "Sister Ines", elite=True, xp=4, battle_scars=2)  # may be dismissed
    game = Game.objects.create(
        campaign=campaign,
        number=1,
        played_on=date(2026, 11, 28),
        status=Game.Status.RECORDED,
        created_by=organiser,
    )
    GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.WIN)
    GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.LOSS)
    return {"game": game, "tom": tom}


def test_assign_type_a_six_apply_and_the_roster_shows_the_troop_as_elite(
    page: Page, live_server, player, warband, won_game
):
    game, tom = won_game["game"], won_game["tom"]
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)
    page.goto(f"{live_server.url}/games/{game.pk}/post-game/{warband.pk}/promotions/")
    expect(page.locator("#promotion-pool")).to_contain_text("1 + 1 for the win = 2 dice")
    expect(page.locator("#promotion-tally")).to_contain_text("Failed Promotion Dice in a row: 0 of 5")
    assert_accessible(page, "the Promotions step")

    page.get_by_label("Promotion Dice for Brother Tom").fill("2")
    page.get_by_role("button", name="Assign the dice").click()
    expect(page.locator("#promotion-dice")).to_contain_text("Chance of a promotion with the 2 dice left: 31%")

    page.get_by_label("D6").fill("6")
    page.get_by_role("button", name="Enter the die").click()
    expect(page.locator("#promotion-die-1")).to_contain_text("Brother Tom rolled a 6: promoted to ELITE")
    expect(page.get_by_role("button", name="Roll for me")).to_have_count(0)  # RULING P-3: no more dice
    assert_accessible(page, "the Promotions step after the die")

    page.get_by_role("link", name="Next: Dismiss the wounded").click()
    expect(page.get_by_role("heading", name="Dismiss the wounded")).to_be_visible()
    expect(page.get_by_label("Dismiss Sister Ines")).not_to_be_checked()
    assert_accessible(page, "the Dismiss the wounded step")
    page.get_by_role("button", name="Save and go on").click()  # nobody dismissed
    # On to Reinforcements (worth 0, under the Threshold Value), declined, the Exploration,
    # left unrolled here, Hire & Trade with nothing bought, then the Review.
    expect(page.get_by_role("heading", name="Reinforcements")).to_be_visible()
    page.get_by_role("button", name="Decline: explore instead").click()
    expect(page.get_by_role("heading", name="Exploration")).to_be_visible()
    page.get_by_role("link", name="Next: Hire & Trade").click()
    page.get_by_role("button", name="Done: go on to Use Glory").click()  # the step after Hire & Trade
    page.get_by_role("button", name="Done: go on to the Review").click()
    expect(page.get_by_role("heading", name="Review and apply")).to_be_visible()
    expect(page.locator(f"#change-{tom.pk}")).to_contain_text("promoted to ELITE, 0 XP")
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.get_by_role("heading", name="What the post-game changed")).to_be_visible()

    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.locator(f"#fighter-row-{tom.pk}")).to_contain_text("ELITE")
    assert Fighter.objects.get(pk=tom.pk).keywords == ["ELITE"]
