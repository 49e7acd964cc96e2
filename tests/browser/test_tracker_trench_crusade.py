"""A Trench Crusade campaign's board on a 390 px phone in real Chromium: its
fighters have no Endurance, so the board offers Out of Action marks and says in one sentence why Fallout:
Factions' single-model Damage is absent; one tap marks a fighter with no page load; the fighter shows its own
profile (Movement, Ranged, Melee, Armour, base) on the roster, its page, the cards and the board; axe finds
nothing on the board."""

import pytest
from playwright.sync_api import Browser, Page, expect

from combat.models import TrackerFighter
from combat.rules import board_rules
from combat.tests.tracker_helpers import tc_table  # noqa: F401  (the Trench Crusade board)
from rosters.models import Fighter
from tests.browser.axe import violations
from tests.browser.test_tracker_card import watch
from tests.browser.test_tracker_journey import fighter, open_board, open_card, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PROFILE = "M 6″ · R +1D · Me +2D · A -1 · B 32mm"


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_trench_crusade_board_marks_out_of_action_in_one_tap(
    browser: Browser,
    live_server,
    tc_table,  # noqa: F811  (the fixture imported above)
    player,
    warband,
):
    Fighter.objects.filter(pk=tc_table["Brick"].pk).update(ranged=1, melee=2, armour=-1, base_size=32)
    pat = open_board(phone_of(browser, live_server, player), live_server, tc_table)
    expect(pat.locator("#board-rules")).to_have_text(board_rules.NO_ENDURANCE_BOARD)
    brick = fighter(pat, tc_table, "Brick")
    expect(brick.locator(".profile-line")).to_have_text(PROFILE)
    open_card(pat, tc_table, "Brick")  # at full strength: one line until opened
    expect(brick.locator(".profile-line")).to_have_text(PROFILE)
    for absent in ("Quick Damage", "+ Fatigue", "+1 Harm", "+1 Injury"):
        expect(brick.get_by_text(absent)).to_have_count(0)
    found = violations(pat)
    assert not found, f"{len(found)} axe-core violation(s):\n" + "\n".join(found)
    no_sideways_scroll(pat)

    # One tap: one request, no page load; Brick folds under "Out of play" with Back in play, and Undo is offered.
    requests, loads = watch(pat)
    button = brick.get_by_role("button", name="Out of Action: Brick")
    assert button.bounding_box()["height"] >= 44
    with pat.expect_response(lambda response: "/out-of-action/" in response.url) as answer:
        button.click()
    assert answer.value.status == 200
    expect(pat.locator("#last-action")).to_contain_text("Brick is taken Out of Action and removed from play")
    fallen = pat.locator(f"#fallen-{warband.pk}")
    expect(fallen.locator("summary")).to_have_text("Out of play (1)")
    fallen.locator("summary").click()
    expect(fallen.get_by_role("button", name="Back in play: Brick")).to_be_visible()
    expect(fighter(pat, tc_table, "Brick").locator(".tf-status")).to_have_text("Out of Action")
    assert [(r.method, r.url.split(live_server.url)[1]) for r in requests] == [
        ("POST", f"/games/{tc_table.game.pk}/tracker/fighters/{tc_table['Brick'].pk}/out-of-action/")
    ]
    assert loads == []
    assert pat.evaluate("window.notReloaded") is True
    assert tc_table.tracked("Brick").status == TrackerFighter.Status.OUT_OF_ACTION
    found = violations(pat)
    assert not found, f"{len(found)} axe-core violation(s) after the tap:\n" + "\n".join(found)

    # Its own profile everywhere: the roster, the fighter's page, the cards.
    pat.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(pat.locator(".profile-line").filter(has_text="B 32mm")).to_have_text(PROFILE)
    no_sideways_scroll(pat)
    pat.goto(f"{live_server.url}/fighters/{tc_table['Brick'].pk}/")
    for label, value in (
        ("Movement", "6″"),
        ("Ranged", "+1D"),
        ("Melee", "+2D"),
        ("Armour", "-1"),
        ("Base", "32mm"),
    ):
        expect(pat.locator(f"dt:text-is('{label}') + dd")).to_have_text(value)
    expect(pat.locator("dt:text-is('Endurance')")).to_have_count(0)
    pat.goto(f"{live_server.url}/warbands/{warband.pk}/cards/")
    card = pat.locator(f"#print-card-{tc_table['Brick'].pk} .print-profile")
    expect(card.locator("th")).to_have_text(["M", "R", "Me", "A", "B"])
    expect(card.locator("td")).to_have_text(["6″", "+1D", "+2D", "-1", "32mm"])
