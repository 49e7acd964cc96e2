"""The post-game wizard in real Chromium, at a phone's width, with the dice typed in so the outcome is known.

Game 1: one Troop and two ELITE fighters of the player's warband were taken Out of Action. The Troop rolls a 2 and
dies; Brother Marcus rolls D66 14, a Hand Wound; Sister Ada, at 2 Battle Scars, rolls 31 (Leg Wound), gains her
third Scar and is Unfit For Duty, her Battlekit going to the Arsenal. A spectator watches the overview fill in
without reloading. The roster page then shows all of it; Revert, and the roster is back exactly as it was.
"""

from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer, OutOfAction
from combat.tests.post_game_helpers import roster_snapshot
from rosters.models import Fighter, Item

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(context, user, live_server):
    client = Client()  # one per user: logging a second user into the same client would end the first session
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.fixture
def game_one(campaign, warband, rival_warband, make_fighter, organiser):
    kell = make_fighter(warband, "Yeoman Kell", fighter_type="Yeoman")
    marcus = make_fighter(warband, "Brother Marcus", elite=True, fighter_type="Trench Cleric", xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, fighter_type="War Prophet", xp=5, battle_scars=2)
    make_fighter(warband, "Brother Tobias", elite=True, xp=1)  # took part, stayed on his feet
    Item.objects.create(warband=warband, fighter=kell, name="Rifle")
    Item.objects.create(warband=warband, fighter=ada, name="Shield")
    Item.objects.create(warband=warband, fighter=ada, name="Heavy Flamer", keywords=["HEAVY"])
    game = Game.objects.create(
        campaign=campaign,
        number=1,
        played_on=date(2026, 11, 28),
        status=Game.Status.RECORDED,
        created_by=organiser,
    )
    player = GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.LOSS)
    GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.WIN)
    for fighter in (kell, marcus, ada):
        OutOfAction.objects.create(player=player, fighter=fighter)
    return {"game": game, "kell": kell, "marcus": marcus, "ada": ada}


def card(page: Page, fighter) -> object:
    return page.locator(f"#fighter-{fighter.pk}")


def test_a_post_game_with_entered_dice_applied_then_reverted(
    page: Page, browser, live_server, player, spectator, warband, rival_warband, game_one
):
    game = game_one["game"]
    before = roster_snapshot(warband, rival_warband)
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)

    # The spectator opens the same post-game and watches it fill in.
    watcher_context = browser.new_context(viewport=PHONE)
    watcher = watcher_context.new_page()
    log_in(watcher_context, spectator, live_server)
    watcher.goto(f"{live_server.url}/games/{game.pk}/post-game/{warband.pk}/")
    expect(watcher.locator("#post-game-status")).to_contain_text("Waiting for its Survival Roll")
    expect(watcher.get_by_role("button", name="Roll for me")).to_have_count(0)

    # From the game page, the owner opens the post-game and confirms who was taken Out of Action.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("link", name="Open the post-game").first.click()
    expect(page.get_by_role("heading", name="Who was taken Out of Action?")).to_be_visible()
    page.get_by_role("button", name="Confirm and go on").click()

    # Troops: the odds first, then the die typed in; htmx swaps the step without reloading the page.
    expect(page.get_by_role("heading", name="Troops: the Survival Roll")).to_be_visible()
    kell = card(page, game_one["kell"])
    expect(kell).to_contain_text("Before the roll: 1 in 3 this fighter is lost")
    page.evaluate("window.stillTheSamePage = true")
    kell.get_by_label("D6").fill("2")
    kell.get_by_role("button", name="Enter dice").click()
    expect(card(page, game_one["kell"])).to_contain_text("Survival Roll 2 (1-2) — dead")
    expect(card(page, game_one["kell"])).to_contain_text("entered from the table by pat_player")
    assert page.evaluate("window.stillTheSamePage") is True

    # The spectator's page catches up on its own (htmx polling every 3 s).
    expect(watcher.locator(f"#status-{game_one['kell'].pk}")).to_contain_text(
        "Survival Roll 2", timeout=10_000
    )

    # ELITE fighters: D66 14 for Marcus, 31 for Ada.
    page.get_by_role("link", name="Next: ELITE fighters").click()
    marcus = card(page, game_one["marcus"])
    expect(marcus).to_contain_text("it leaves the roster")
    marcus.get_by_label("Tens die").fill("1")
    marcus.get_by_label("Units die").fill("4")
    marcus.get_by_role("button", name="Enter dice").click()
    expect(card(page, game_one["marcus"])).to_contain_text("D66 14, Hand Wound")
    expect(card(page, game_one["marcus"])).to_contain_text("Battle Scars after the roll: 1 of 3")

    ada = card(page, game_one["ada"])
    expect(ada).to_contain_text(
        "it is Unfit For Duty (Battle Scars and Unfit For Duty)"
    )  # the odds of her third Scar
    ada.get_by_label("Tens die").fill("3")
    ada.get_by_label("Units die").fill("1")
    ada.get_by_role("button", name="Enter dice").click()
    expect(card(page, game_one["ada"])).to_contain_text("Leg Wound")
    expect(card(page, game_one["ada"])).to_contain_text("Unfit For Duty: removed from the roster")
    expect(card(page, game_one["ada"])).to_contain_text("Battle Scars and Unfit For Duty")

    # Experience; with no skill chart, no Troop left to promote and nobody to dismiss the wizard goes on to
    # Reinforcements (worth 0, the warband is under its Threshold Value), declined, then the Exploration
    # , left unrolled here, and Hire & Trade with nothing bought; then the review of every change, then
    # Apply.
    page.get_by_role("link", name="Next: Experience").click()
    expect(page.locator(f"#xp-{game_one['marcus'].pk}")).to_contain_text("3 → 4")
    page.get_by_role("button", name="Save and go on").click()
    expect(page.get_by_role("heading", name="Reinforcements")).to_be_visible()
    page.get_by_role("button", name="Decline: explore instead").click()
    expect(page.get_by_role("heading", name="Exploration")).to_be_visible()
    page.get_by_role("link", name="Next: Hire & Trade").click()
    page.get_by_role("button", name="Done: go on to Use Glory").click()  # the step after Hire & Trade
    page.get_by_role("button", name="Done: go on to the Review").click()
    review = page.locator("#post-game-step")
    expect(review).to_contain_text("Removed from the roster: Dead.")
    expect(review).to_contain_text("New Injury: Hand Wound")
    expect(review).to_contain_text("Battle Scars 2 → 3 of 3.")
    expect(review).to_contain_text("Battlekit to the Arsenal: Shield, Heavy Flamer.")
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.locator(".message.success")).to_contain_text("applied to Iron Sepulchre")
    expect(watcher.locator("#post-game-status")).to_contain_text("What the post-game changed", timeout=10_000)

    # The roster page shows all of it.
    page.get_by_role("link", name="See the roster").click()
    roster = page.locator("#roster")
    expect(roster).not_to_contain_text("Yeoman Kell")
    expect(roster).not_to_contain_text("Sister Ada")
    marcus_row = page.locator(f"#fighter-row-{game_one['marcus'].pk}")
    expect(marcus_row).to_contain_text("Hand Wound")
    expect(marcus_row.locator("td[data-label='Scars']")).to_have_text("1")
    arsenal = page.locator("#arsenal .item-list")
    expect(arsenal).to_contain_text("Shield")
    expect(arsenal).to_contain_text("Heavy Flamer")
    removed = page.locator("#removed-fighters")
    expect(removed).to_contain_text("Dead")
    expect(removed).to_contain_text("Unfit For Duty")
    assert Fighter.objects.get(pk=game_one["ada"].pk).status == "unfit_for_duty"

    # Revert: the roster is back exactly as it was.
    page.goto(f"{live_server.url}/games/{game.pk}/post-game/{warband.pk}/")
    page.get_by_role("button", name="Revert this post-game").click()
    expect(page.locator(".message.success")).to_contain_text("back as it was")
    assert roster_snapshot(warband, rival_warband) == before
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    roster = page.locator("#roster")
    expect(roster).to_contain_text("Yeoman Kell")
    expect(roster).to_contain_text("Sister Ada")
    expect(page.locator(f"#fighter-row-{game_one['marcus'].pk}")).not_to_contain_text("Hand Wound")
    expect(page.locator("#arsenal")).to_contain_text("No Battlekit in the Arsenal")
    expect(page.locator(f"#fighter-row-{game_one['ada'].pk}")).to_contain_text("Shield")
    watcher_context.close()
