"""Two players, two phones: the in-game tracker in real Chromium, each player in their own browser context.

One applies Damage and the other sees it on their board within five seconds, without reloading (htmx polls the
board). Then the seed's Example One: Brick's Super Sledge (4 Hits, typed in) Incapacitates Fidus, Sam's phone shows
the Confusion Tests to make, Double-Joe fails his and Takes Fatigue, the game is ended, and the post-game wizard
shows Fidus Out of Action.
"""

import pytest
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from combat.models import DiceRoll, TrackerFighter
from combat.tests.tracker_helpers import setup_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIVE_SECONDS = 5000
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def phone_of(browser: Browser, live_server, user) -> BrowserContext:
    """A browser context logged in as `user`, with the session cookie of Django's test client."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def open_board(context: BrowserContext, live_server, table) -> Page:
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{table.game.pk}/tracker/")
    expect(page.get_by_role("heading", name=f"Game {table.game.number} tracker")).to_be_visible()
    assert page.evaluate("typeof window.htmx") == "object"
    return page


def fighter(page: Page, table, name: str):
    return page.locator(f"#fighter-{table[name].pk}")


def open_card(page: Page, table, name: str):
    """`name`'s card with its actions: a fighter at full strength is one line until its card is opened (one GET,
    swapped in place)."""
    card = fighter(page, table, name)
    if card.locator("a.tf-open").count():
        card.locator("a.tf-open").click()
        expect(card.locator("a.tf-open")).to_have_count(0)
    return card


def test_one_player_applies_damage_and_the_other_sees_it_within_five_seconds(
    browser: Browser, live_server, table, player, player2
):
    pat = open_board(phone_of(browser, live_server, player), live_server, table)
    quinn = open_board(phone_of(browser, live_server, player2), live_server, table)
    expect(fighter(pat, table, "Brick").locator(".tf-harm")).to_contain_text("Harm 0")

    # Sam's Double-Joe returns fire at Brick: 2 Hits, typed in as Damage (000 "Damage Examples", Example Two).
    open_card(quinn, table, "Brick")
    quinn.get_by_role("link", name="Damage Brick").click()
    quinn.get_by_label("Damage:").fill("2")
    quinn.get_by_role("button", name="Apply the Damage").click()
    expect(quinn.locator("#last-action")).to_contain_text("Damage 2 < Endurance 6: 1 Harm")

    # Alex's phone was not touched: its board refreshes by itself.
    expect(fighter(pat, table, "Brick").locator(".tf-harm")).to_contain_text("Harm 1", timeout=FIVE_SECONDS)
    expect(pat.locator("#last-action")).to_contain_text("quinn_player")

    # And back: Alex undoes it from his phone; Sam's board follows.
    pat.get_by_role("button", name="Undo this").click()
    expect(fighter(pat, table, "Brick").locator(".tf-harm")).to_contain_text("Harm 0")
    expect(fighter(quinn, table, "Brick").locator(".tf-harm")).to_contain_text("Harm 0", timeout=FIVE_SECONDS)


def test_example_one_confusion_and_the_end_of_the_game(browser: Browser, live_server, table, player, player2):
    pat = open_board(phone_of(browser, live_server, player), live_server, table)
    quinn = open_board(phone_of(browser, live_server, player2), live_server, table)

    # Alex's Brick attacks Fidus with a Super Sledge: the odds first, then the 4 dice he rolled at the table.
    open_card(pat, table, "Fidus")
    pat.get_by_role("link", name="Damage Fidus").click()
    pat.get_by_label("Attacker:").select_option(label="Brick (S 7)")
    pat.get_by_label("Dice:", exact=True).fill("4")
    pat.get_by_label("Stat:", exact=True).fill("7")
    pat.get_by_label("Brawl (melee)").check()
    expect(pat.locator("#attack-odds")).to_contain_text("4 D10s, a Hit on 7 or less")
    expect(pat.locator("#odds")).to_contain_text("Incapacitated either way")
    for number, face in enumerate(["2", "7", "5", "1"], 1):
        pat.get_by_label(f"Die {number}", exact=True).fill(face)
    pat.get_by_role("button", name="Use my dice").click()

    expect(pat.locator("#last-action")).to_contain_text("Damage 4 ≥ Endurance 3: one Injury and 1 Harm")
    expect(pat.locator("#last-action")).to_contain_text("Fidus is Incapacitated")
    assert DiceRoll.objects.get(purpose="attack").faces == [2, 7, 5, 1]

    # Sam's phone shows the Confusion Tests to make, and nothing else can be done until they are.
    expect(quinn.locator("#pending")).to_contain_text(
        "Confusion: Fidus is Incapacitated", timeout=FIVE_SECONDS
    )
    expect(quinn.get_by_role("link", name="Damage Brick")).to_have_count(0)
    quinn.get_by_label("Double-Joe").check()
    quinn.get_by_role("button", name="These were within 3″").click()
    expect(quinn.locator("#pending")).to_contain_text("Double-Joe (I 5) — passes 75%")
    quinn.get_by_label("First D10").fill("9")
    quinn.get_by_label("Second D10").fill("8")
    quinn.get_by_role("button", name="Use my dice").click()
    expect(quinn.locator("#pending")).to_contain_text("Double-Joe is Confused")
    quinn.get_by_role("button", name="Take Fatigue").click()
    expect(quinn.locator("#last-action")).to_contain_text(
        "The Confusion Tests are done and Fidus is removed from play"
    )
    expect(fighter(quinn, table, "Double-Joe").locator(".tf-fatigue")).to_contain_text("Fatigue 1/2")
    expect(fighter(pat, table, "Fidus").locator(".tf-status")).to_have_text(
        "Incapacitated", timeout=FIVE_SECONDS
    )

    # Alex ends the game; Fidus is taken Out of Action.
    pat.get_by_role("link", name="End the game…").click()
    expect(pat.locator("#end-summary")).to_contain_text("Fidus")
    pat.get_by_role("combobox", name="Iron Sepulchre").select_option("win")
    pat.get_by_role("combobox", name="Heretic Legion").select_option("loss")
    pat.get_by_role("button", name="End the game and record it").click()
    expect(pat.locator("#game-over")).to_be_visible()
    assert TrackerFighter.objects.get(fighter=table["Fidus"]).status == "incapacitated"

    # Sam opens her post-game from her board (it shows the game is over within seconds): Fidus is Out of Action.
    expect(quinn.locator("#game-over")).to_be_visible(timeout=FIVE_SECONDS)
    quinn.get_by_role("link", name="Post-game of Heretic Legion").click()
    expect(quinn.get_by_label("Fidus")).to_be_checked()
    expect(quinn.get_by_label("Double-Joe")).not_to_be_checked()
    expect(quinn.get_by_label("Kit")).not_to_be_checked()


def test_a_conflicting_action_gets_a_clear_message_and_the_board_as_it_is(
    browser: Browser, live_server, table, player, player2
):
    pat = open_board(phone_of(browser, live_server, player), live_server, table)
    quinn = open_board(phone_of(browser, live_server, player2), live_server, table)
    for page in (pat, quinn):
        open_card(page, table, "Vera")
    # Alex's phone loses its signal for a moment: its board does not refresh.
    pat.route("**/tracker/board/**", lambda route: route.abort())

    quinn.get_by_role("button", name="Vera: take 1 Fatigue").click()
    expect(fighter(quinn, table, "Vera").locator(".tf-fatigue")).to_contain_text("Fatigue 1/2")

    # Alex taps the same fighter on his stale board: refused, told why, and shown the board as it is now.
    pat.get_by_role("button", name="Vera: take 1 Fatigue").click()
    expect(pat.locator("#tracker-error")).to_have_text(
        "Vera was changed by quinn_player a moment ago; here is the board as it is now."
    )
    expect(fighter(pat, table, "Vera").locator(".tf-fatigue")).to_contain_text("Fatigue 1/2")
    assert TrackerFighter.objects.get(fighter=table["Vera"]).fatigue == 1

    # On the fresh board his tap goes through.
    pat.get_by_role("button", name="Vera: take 1 Fatigue").click()
    expect(fighter(pat, table, "Vera").locator(".tf-fatigue")).to_contain_text("Fatigue 2/2")


def test_a_player_sets_the_board_up_and_the_other_phone_follows(
    browser: Browser, live_server, campaign, warband, rival_warband, make_fighter, player, player2
):
    table = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        start=False,
    )
    # Opening the tracker sets nothing up (GET never writes): the player asks for the board with a POST.
    pat = open_board(phone_of(browser, live_server, player), live_server, table)
    expect(pat.locator("#no-board")).to_contain_text("No board yet")
    assert not TrackerFighter.objects.filter(tracker__game=table.game).exists()
    pat.get_by_role("button", name="Track this game live").click()
    expect(fighter(pat, table, "Brick")).to_be_visible()
    assert TrackerFighter.objects.filter(tracker__game=table.game).count() == len(table.fighters)

    quinn = open_board(phone_of(browser, live_server, player2), live_server, table)
    expect(fighter(quinn, table, "Fidus")).to_be_visible()
    expect(quinn.get_by_role("button", name="Track this game live")).to_have_count(0)
