"""Two phones play a few turns of a Trench Crusade game on the board, at 390 px in real Chromium, each player in
their own browser context (TC_IN_GAME.md; combat/views/tracker_injury.py, static/js/offline.js).

Alex's phone rolls Injury Rolls with the dice typed on the card, Sam's with the server's dice; markers and Down go
by one tap; a TOUGH model is saved from Out of Action by Tough (RULING I-4). Alex's phone then loses its signal:
"Roll for me" is disabled, a marker tap and an Injury Roll with typed dice are kept on the phone and sent, once,
when it is back. The game ends, and each warband's post-game starts with exactly the fighters taken Out of Action
by a roll (RULING I-7), for the Trauma Step. axe finds nothing on the board, the queue or the post-game.
"""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from combat.models import DiceRoll, TrackerAction, TrackerFighter
from combat.tests.tracker_helpers import setup_game
from tests.browser.axe import assert_accessible
from tests.browser.test_offline import (
    FIVE_SECONDS,
    TEN_SECONDS,
    board,
    card,
    controlled,
    offline,
    online,
    phone_of,
    queue_violations,
)
from tests.browser.test_tracker_journey import open_card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    """The seed's crews on a Trench Crusade board, with Brother Cole (TOUGH) in Sam's Heretic Legion."""
    table = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        preset="trench_crusade",
    )
    cole = make_fighter(rival_warband, "Brother Cole", keywords=["TOUGH"])
    TrackerFighter.objects.create(tracker=table.tracker, player=table.sam, fighter=cole)
    table.fighters["Brother Cole"] = cole
    return table


def typed_roll(page: Page, table, name: str, faces: tuple[int, int]) -> None:
    """An Injury Roll with nothing special, the two dice rolled at the table typed on the card."""
    model = card(page, table, name)
    for number, face in enumerate(faces, 1):
        model.get_by_label(f"D6 number {number}").fill(str(face))
    model.get_by_role("button", name=f"I rolled these dice: Injury Roll on {name}").click()


def tap(page: Page, table, name: str, button: str) -> None:
    """One tap on the card. The button's words then the model's name, hidden for the eye: Chromium names "Down"
    followed by ": Fidus" in its own span "Down : Fidus", so the name is matched by its words."""
    words = re.compile(re.escape(button).replace(":", r"\s*:"))
    card(page, table, name).get_by_role("button", name=words).click()


def top(page: Page) -> None:
    """Back to the top before axe looks: a tap scrolls its card into view, under the board's sticky crew bar, and
    axe's target-size then finds the bar over the card's first row."""
    page.evaluate("window.scrollTo(0, 0)")


def status(table, name: str) -> str:
    return TrackerFighter.objects.get(tracker=table.tracker, fighter=table[name]).status


def test_two_phones_play_injury_rolls_markers_down_tough_and_offline_then_the_trauma_step(
    browser: Browser, live_server, table, player, player2
):
    pat_phone = phone_of(browser, live_server, player)
    pat = pat_phone.new_page()
    board(pat, live_server, table)
    controlled(pat)
    quinn = phone_of(browser, live_server, player2).new_page()
    board(quinn, live_server, table)
    # A model at full strength is one line on the board: each phone opens the cards it will act on (Alex's before
    # the signal goes; the board drawn again keeps them open).
    for page, names in ((pat, ("Kit", "Brother Cole", "Mags")), (quinn, ("Vera", "Fidus"))):
        for name in names:
            open_card(page, table, name)

    # Turn 1. Alex's Vera shoots Kit: 1 and 2 rolled at the table, a Minor Hit; Sam's phone follows by itself.
    typed_roll(pat, table, "Kit", (1, 2))
    expect(pat.locator("#last-action")).to_contain_text(
        "Kit: Injury Roll 2D6 (1, 2) = 3: Minor Hit, 1 Blood Marker"
    )
    expect(card(quinn, table, "Kit").locator(".tf-blood")).to_contain_text("Blood 1/6", timeout=FIVE_SECONDS)
    assert DiceRoll.objects.get(purpose="injury").source == DiceRoll.Source.ENTERED

    # Sam's Mags answers at Vera with the server's dice; Sam marks Fidus Down (he dived into a crater).
    card(quinn, table, "Vera").get_by_role("button", name="Injury Roll on Vera, the server's dice").click()
    expect(quinn.locator("#last-action")).to_contain_text("Vera: Injury Roll 2D6 (")
    tap(quinn, table, "Fidus", "Down: Fidus")
    expect(card(quinn, table, "Fidus").locator(".tf-down")).to_have_text("Down")
    server_roll = DiceRoll.objects.get(purpose="injury", source=DiceRoll.Source.SERVER)
    assert len(server_roll.faces) == 2

    # Turn 2. Alex's phone sees Fidus Down, adds a Blood Marker on him, then hits Brother Cole hard: 6 and 6 would
    # take him Out of Action, but he is TOUGH (RULING I-4).
    expect(card(pat, table, "Fidus").locator(".tf-down")).to_have_text("Down", timeout=FIVE_SECONDS)
    tap(pat, table, "Fidus", "+ Blood Marker on Fidus")
    expect(card(pat, table, "Fidus").locator(".tf-blood")).to_contain_text("Blood 1/6")
    typed_roll(pat, table, "Brother Cole", (6, 6))
    expect(pat.locator("#last-action")).to_contain_text("Out of Action, saved by Tough: Down, 1 Blood Marker")
    cole = card(pat, table, "Brother Cole")
    expect(cole.locator(".tf-tough")).to_have_text("Tough (used)")
    expect(cole.locator(".tf-down")).to_have_text("Down")
    assert status(table, "Brother Cole") == "active"
    top(pat)
    assert_accessible(pat, "the Trench Crusade board after Injury Rolls, markers and a Tough save")

    # Turn 3. Alex's phone loses its signal: the server's dice wait, typed dice and taps are kept on the phone.
    offline(pat_phone)
    expect(
        card(pat, table, "Mags").get_by_role("button", name="Injury Roll on Mags, the server's dice")
    ).to_be_disabled()
    tap(pat, table, "Kit", "+ Blood Marker on Kit")
    typed_roll(pat, table, "Mags", (5, 5))
    queue = pat.locator("#offline-queue")
    expect(queue.locator("li.queued")).to_have_count(2)
    expect(queue.locator("li").nth(0)).to_contain_text("+ Blood Marker on Kit")
    expect(queue.locator("li").nth(1)).to_contain_text(
        "Injury Roll on Mags (you typed D6 number 1 5, D6 number 2 5)"
    )
    assert queue_violations(pat) == []
    assert DiceRoll.objects.count() == 3  # Kit, Vera, Brother Cole: nothing reached the server since
    # Meanwhile Sam, online, stands Fidus up: another model, so Alex's kept taps still apply.
    tap(quinn, table, "Fidus", "Stand up: Fidus")
    expect(card(quinn, table, "Fidus").locator(".tf-down")).to_have_count(0)

    online(pat_phone)
    expect(queue).to_be_hidden(timeout=TEN_SECONDS)
    mags_roll = TrackerAction.objects.filter(kind="injury_roll").order_by("-version").first()
    assert mags_roll.summary.startswith("Mags: Injury Roll 2D6 (5, 5) = 10: Out of Action")
    assert DiceRoll.objects.get(pk__in=mags_roll.rolls).faces == [5, 5]
    assert DiceRoll.objects.filter(purpose="injury").count() == 4  # each roll stored once, none twice
    assert TrackerFighter.objects.get(tracker=table.tracker, fighter=table["Kit"]).blood == 2
    assert status(table, "Mags") == "out_of_action"
    expect(card(quinn, table, "Mags").locator(".tf-status")).to_have_text(
        "Out of Action", timeout=FIVE_SECONDS
    )

    # The end of the game: each post-game starts with the fighters taken Out of Action by a roll.
    vera_out = status(table, "Vera") == "out_of_action"  # the server's dice decided
    pat.get_by_role("link", name="End the game…").click()
    expect(pat.locator("#end-summary")).to_contain_text("Mags")
    pat.get_by_role("combobox", name="Iron Sepulchre").select_option("win")
    pat.get_by_role("combobox", name="Heretic Legion").select_option("loss")
    pat.get_by_role("button", name="End the game and record it").click()
    expect(pat.locator("#game-over")).to_be_visible()

    expect(quinn.locator("#game-over")).to_be_visible(timeout=FIVE_SECONDS)
    quinn.get_by_role("link", name="Post-game of Heretic Legion").click()
    expect(quinn.get_by_text("The Trauma Step is for the models taken Out of Action")).to_be_visible()
    expect(quinn.get_by_label("Mags")).to_be_checked()
    for name in ("Kit", "Fidus", "Brother Cole", "Double-Joe"):
        expect(quinn.get_by_label(name)).not_to_be_checked()
    assert_accessible(quinn, "the Heretic Legion's post-game after a Trench Crusade game")
    pat.get_by_role("link", name="Post-game of Iron Sepulchre").click()
    vera = expect(pat.get_by_label("Vera"))
    vera.to_be_checked() if vera_out else vera.not_to_be_checked()
    for name in ("Brick", "Rusty"):
        expect(pat.get_by_label(name)).not_to_be_checked()
    pat_phone.close()
