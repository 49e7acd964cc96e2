"""A Fallout: Factions campaign's post-game in real Chromium, at a phone's width: its own steps only (Out of
Action, Harsh Lessons, Injuries, the Review), no Trench Crusade step or table it did not switch on; the crew's
Harsh Lessons XP applied (RULING D-11) and reverted. Then the organiser switches the Trauma Step on as a house rule
on the campaign's data page, and the next post-game shows it.
"""

from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Campaign, Game, GamePlayer, OutOfAction
from rosters.models import Warband

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Words only Trench Crusade's post-game says.
TRENCH_CRUSADE_WORDS = (
    "Trauma",
    "Survival Roll",
    "Battle Scar",
    "ELITE",
    "Exploration",
    "Use Glory",
    "ducats",
)


def log_in(context, user, live_server):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def record(campaign, warband, rival_warband, organiser, number, out):
    game = Game.objects.create(
        campaign=campaign,
        number=number,
        played_on=date(2026, 12, number),
        status=Game.Status.RECORDED,
        created_by=organiser,
    )
    player = GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.LOSS)
    GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.WIN)
    for fighter in out:
        OutOfAction.objects.create(player=player, fighter=fighter)
    return game


@pytest.fixture
def crew(campaign, warband, rival_warband, make_fighter, organiser):
    Campaign.objects.filter(pk=campaign.pk).update(preset=Campaign.Preset.FALLOUT_FACTIONS)
    campaign.refresh_from_db()
    mags = make_fighter(warband, "Mags", champion=True, health=3)
    dusty = make_fighter(warband, "Dusty")
    game = record(campaign, warband, rival_warband, organiser, 1, [mags, dusty])
    return {"game": game, "mags": mags, "dusty": dusty}


def no_trench_crusade_words(page: Page) -> None:
    text = page.locator("main").inner_text()
    assert [words for words in TRENCH_CRUSADE_WORDS if words in text] == [], page.url


def test_a_fallout_factions_post_game_shows_only_its_own_steps(
    page: Page, live_server, player, organiser, campaign, warband, rival_warband, crew
):
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)
    base = f"{live_server.url}/games/{crew['game'].pk}/post-game/{warband.pk}/"
    page.goto(f"{live_server.url}/games/{crew['game'].pk}/")
    page.get_by_role("link", name="Open the post-game").first.click()
    expect(page.get_by_role("heading", name="Who was taken Out of Action?")).to_be_visible()
    expect(page.locator("#step-compact")).to_contain_text("Step 1 of 4")
    steps = page.locator("nav.wizard-steps .step-full li")
    expect(steps).to_have_count(4)
    expect(steps).to_have_text(["1 Out of Action", "2 Harsh Lessons", "3 Injuries", "4 Review and apply"])
    expect(page.locator(".rule").first).to_contain_text("Incapacitated during the game")
    no_trench_crusade_words(page)
    page.get_by_role("button", name="Confirm and go on").click()

    expect(page.get_by_role("heading", name="Harsh Lessons")).to_be_visible()
    expect(page.locator("#harsh-lessons")).to_contain_text(
        "Mags was Incapacitated: Iron Sepulchre earns 1 crew XP"
    )
    no_trench_crusade_words(page)
    page.get_by_role("link", name="Go on: Injuries").click()
    expect(page.get_by_role("heading", name="Injuries")).to_be_visible()
    no_trench_crusade_words(page)
    page.get_by_role("link", name="Go on: Review and apply").click()
    expect(page.get_by_role("heading", name="Review and apply")).to_be_visible()
    expect(page.locator("#review-harsh-lessons")).to_be_visible()
    no_trench_crusade_words(page)
    # No Trench Crusade page answers here.
    assert page.request.get(f"{base}troops/").status == 404
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.locator("#summary-harsh-lessons")).to_be_visible()
    no_trench_crusade_words(page)
    assert Warband.objects.get(pk=warband.pk).crew_xp == 1
    page.get_by_role("button", name="Revert this post-game").click()
    expect(page.get_by_role("heading", name="Review and apply")).to_be_visible()
    assert Warband.objects.get(pk=warband.pk).crew_xp == 0

    # The organiser switches the Trauma Step on: the next post-game takes it.
    organiser_page = page.context.browser.new_context(viewport=PHONE).new_page()
    log_in(organiser_page.context, organiser, live_server)
    organiser_page.goto(f"{live_server.url}/campaigns/{campaign.pk}/data/")
    organiser_page.locator("#switch-trauma").check()
    organiser_page.get_by_role("button", name="Save the post-game's steps").click()
    expect(organiser_page.locator(".messages, [role=status]").first).to_contain_text(
        "post-game's steps are saved"
    )
    game_two = record(campaign, warband, rival_warband, organiser, 2, [crew["dusty"]])
    page.goto(f"{live_server.url}/games/{game_two.pk}/post-game/{warband.pk}/out-of-action/")
    expect(page.locator("nav.wizard-steps .step-full li")).to_have_count(6)
    expect(page.locator("nav.wizard-steps")).to_contain_text("Grunts")
