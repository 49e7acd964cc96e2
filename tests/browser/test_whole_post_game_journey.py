"""One whole post-game in real Chromium at a phone's width, every die typed from the table ("one
post-game from Trauma to Exploration with typed dice, then the roster shows the new skill, the promoted Troop and
the loot").

Iron Sepulchre won Game 1 (the demo campaign's made-up data). Brother Kit (a Troop) and Sister Agnes (ELITE, 1 XP)
were taken Out of Action: Kit's Survival Roll is a 6, Agnes's D66 a 44, Full Recovery. Agnes reaches 2 XP: Ranged
9 and Stealth & Speed 6, she takes Long Shadow Shot. The pool is 2 Promotion Dice (1 + the win): Brother Tom's
first is a 6. The 3 Exploration Dice 3, 4, 2 make 9, the Abandoned Field Kitchen; the winner
keeps its dice; 90 ducats of loot. Nobody has 2 Battle Scars, so there is nobody to dismiss.
"""

from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer, OutOfAction
from combat.services.campaign_data import campaign_data_copy_demo
from rosters.models import Fighter, FoundLocation, Skill, Warband
from tests.browser.axe import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(context, user, live_server):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.fixture
def won(campaign, warband, rival_warband, organiser, make_fighter):
    campaign_data_copy_demo(campaign=campaign, by=organiser)
    Warband.objects.filter(pk=warband.pk).update(strongbox=50)
    fighters = {
        "agnes": make_fighter(warband, "Sister Agnes", elite=True, xp=1, fighter_type="War Prophet"),
        "kit": make_fighter(warband, "Brother Kit", fighter_type="Yeoman"),
        "tom": make_fighter(warband, "Brother Tom", fighter_type="Yeoman"),
    }
    game = Game.objects.create(
        campaign=campaign,
        number=1,
        played_on=date(2026, 11, 28),
        status=Game.Status.RECORDED,
        created_by=organiser,
    )
    player = GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.WIN)
    GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.LOSS)
    for name in ("kit", "agnes"):
        OutOfAction.objects.create(player=player, fighter=fighters[name])
    return game, fighters


def test_a_whole_post_game_with_typed_dice_ends_on_the_roster(page: Page, live_server, player, warband, won):
    game, fighters = won
    agnes, kit, tom = fighters["agnes"], fighters["kit"], fighters["tom"]
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)
    page.goto(f"{live_server.url}/games/{game.pk}/post-game/{warband.pk}/")

    # The Trauma Step: the Troop first (RULING T-1), then the ELITE fighter.
    expect(page.get_by_role("heading", name="Who was taken Out of Action?")).to_be_visible()
    page.get_by_role("button", name="Confirm and go on").click()
    troop = page.locator(f"#fighter-{kit.pk}")
    troop.get_by_label("D6").fill("6")
    troop.get_by_role("button", name="Enter dice").click()
    expect(page.locator(f"#fighter-{kit.pk}")).to_contain_text("Survival Roll 6")
    page.get_by_role("link", name="Next: ELITE fighters").click()
    elite = page.locator(f"#fighter-{agnes.pk}")
    elite.get_by_label("Tens die").fill("4")
    elite.get_by_label("Units die").fill("4")
    elite.get_by_role("button", name="Enter dice").click()
    expect(page.locator(f"#fighter-{agnes.pk}")).to_contain_text("D66 44, Full Recovery")

    # Experience: 1 → 2 XP, a Skill Advancement Roll due (RULING X-1).
    page.get_by_role("link", name="Next: Experience").click()
    expect(page.locator(f"#xp-{agnes.pk}")).to_contain_text("1 → 2")
    page.get_by_role("button", name="Save and go on").click()

    card = page.locator(f"#card-{agnes.pk}-1")
    expect(card).to_contain_text("Sister Agnes: Skill Advancement Roll 1")
    card.get_by_label("First chart").select_option("ranged")
    card.get_by_label("Second chart").select_option("stealth_speed")
    card.get_by_role("button", name="Use these charts").click()
    for die, faces, found in (
        (1, ("4", "5"), "9 is Long Shadow Shot."),
        (2, ("3", "3"), "6 is Quiet Boots."),
    ):
        chart = page.locator(f"#card-{agnes.pk}-1-die-{die}")
        chart.get_by_label("First die").fill(faces[0])
        chart.get_by_label("Second die").fill(faces[1])
        chart.get_by_role("button", name="Enter dice").click()
        expect(page.locator(f"#card-{agnes.pk}-1")).to_contain_text(found)
    card = page.locator(f"#card-{agnes.pk}-1")
    card.get_by_label("Long Shadow Shot").check()
    card.get_by_role("button", name="Take this skill").click()
    expect(page.locator(f"#card-{agnes.pk}-1")).to_contain_text("Takes Long Shadow Shot (Ranged 9).")
    assert_accessible(page, "the Advancement step, its skill taken")

    # Promotions: 2 dice (1 + the win, RULING P-1); Tom's first die is a 6 (P-3).
    page.get_by_role("link", name="Next: Promotions").click()
    expect(page.locator("#promotion-pool")).to_contain_text("1 + 1 for the win = 2 dice")
    page.get_by_label(f"Promotion Dice for {tom.name}").fill("2")
    page.get_by_role("button", name="Assign the dice").click()
    page.get_by_label("D6").fill("6")
    page.get_by_role("button", name="Enter the die").click()
    expect(page.locator("#promotion-die-1")).to_contain_text("Brother Tom rolled a 6: promoted to ELITE")

    # Nobody has 2 Battle Scars, so the Dismiss step sends on to Reinforcements (worth 0, under the
    # Threshold Value), declined; then the Exploration: 3 dice on the Common table (RULING E-1), and the winner
    # keeps its dice (E-2).
    page.get_by_role("link", name="Next: Dismiss the wounded").click()
    expect(page.get_by_role("heading", name="Reinforcements")).to_be_visible()
    page.get_by_role("button", name="Decline: explore instead").click()
    step = page.locator("#exploration-step")
    expect(step).to_contain_text("3 Exploration Dice")
    for number, face in enumerate((3, 4, 2), start=1):
        step.get_by_label(f"Die {number}", exact=True).fill(str(face))
    step.get_by_role("button", name="Enter dice").click()
    step = page.locator("#exploration-step")
    expect(step).to_contain_text("Score 9")
    step.get_by_role("button", name="Keep the dice").click()
    step = page.locator("#exploration-step")
    expect(step).to_contain_text("Found the Abandoned Field Kitchen (Common)")
    expect(step).to_contain_text("90 ducats")
    assert_accessible(page, "the Exploration step, its Location found")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at 390 px"

    # Hire & Trade with nothing bought; the Review shows every step; Apply writes them all at once.
    step.get_by_role("link", name="Next: Hire & Trade").click()
    page.get_by_role("button", name="Done: go on to Use Glory").click()  # the step after Hire & Trade
    page.get_by_role("button", name="Done: go on to the Review").click()
    review = page.locator("#post-game-step")
    expect(review).to_contain_text(
        "Sister Agnes reached 2 XP: Skill Advancement — Ranged 9, Long Shadow Shot."
    )
    expect(review).to_contain_text("promoted to ELITE, 0 XP")
    expect(review).to_contain_text("found the Abandoned Field Kitchen (Common); loot 90 ducats")
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.locator(".message.success")).to_contain_text("applied to Iron Sepulchre")

    # The roster: the new skill, the promoted Troop, the Location and the loot.
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.locator(f"#fighter-row-{agnes.pk}")).to_contain_text("Long Shadow Shot")
    expect(page.locator(f"#fighter-row-{tom.pk}")).to_contain_text("ELITE")
    expect(page.locator("#found-locations")).to_contain_text("Abandoned Field Kitchen")
    expect(page.locator("body")).to_contain_text("140")
    assert_accessible(page, "the roster after the whole post-game")
    assert Skill.objects.get(fighter=agnes).code == "long_shadow_shot"
    assert Fighter.objects.get(pk=tom.pk).keywords == ["ELITE"]
    assert FoundLocation.objects.get(warband=warband).code == "field_kitchen"
    assert Warband.objects.get(pk=warband.pk).strongbox == 140
