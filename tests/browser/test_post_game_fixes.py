"""Corrections in real Chromium at a phone's width: a typed die corrected after Apply and the roster shows the new
outcome; Revert keeps every roll (the wizard reopens at Review) and "Roll for me" is not offered for a made roll."""

import pytest
from playwright.sync_api import Page, expect

from combat.models import DiceRoll
from combat.selectors.post_game.out_of_action import post_game_player
from combat.services.post_game.apply import post_game_apply
from combat.tests.post_game_helpers import enter
from rosters.models import Fighter
from tests.browser import test_post_game_journey as journey
from tests.browser.test_post_game_journey import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

game_one = journey.game_one  # the journey's Game 1, as a fixture of this module too


@pytest.fixture
def applied(game_one, warband, player):
    """Game 1's post-game typed in and applied: Kell 2 (dead), Marcus D66 14, Ada D66 31 (third Scar, Unfit)."""
    entry = post_game_player(game_id=game_one["game"].pk, warband_id=warband.pk)

    class After:
        player = entry

        @staticmethod
        def state():
            from combat.selectors.post_game.state import post_game_state

            return post_game_state(
                player=post_game_player(game_id=entry.game_id, warband_id=entry.warband_id)
            )

    enter(After, game_one["kell"], 2, by=player)
    enter(After, game_one["marcus"], 1, 4, by=player)
    enter(After, game_one["ada"], 3, 1, by=player)
    post_game_apply(player=entry, by=player)
    return game_one


def test_a_typed_die_corrected_after_apply_then_reverted_keeps_every_roll(
    page: Page, live_server, player, warband, applied
):
    game, ada = applied["game"], applied["ada"]
    assert Fighter.objects.get(pk=ada.pk).status == "unfit_for_duty"
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)
    base = f"{live_server.url}/games/{game.pk}/post-game/{warband.pk}/"

    # Ada's die was a 4-4, not a 3-1: corrected from the applied overview, with a reason.
    page.goto(base)
    roll = DiceRoll.objects.get(fighter=ada)
    line = page.locator(f"#roll-{roll.pk}")
    line.get_by_text("Correct this die").click()
    line.get_by_label("Tens die").fill("4")
    line.get_by_label("Units die").fill("4")
    line.get_by_label("Why").fill("misread the tens die")
    line.get_by_role("button", name="Correct the die").click()
    expect(page.locator(".message.success")).to_contain_text("applied again with the new faces")
    expect(page.locator(f"#fighter-{ada.pk}")).to_contain_text("corrected by pat_player")
    expect(page.locator(f"#fighter-{ada.pk}")).to_contain_text("misread the tens die")

    # The roster shows the new outcome: Ada is back on it, her Battlekit with her.
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.locator("#roster")).to_contain_text("Sister Ada")
    expect(page.locator(f"#fighter-row-{ada.pk}")).to_contain_text("Shield")
    assert Fighter.objects.get(pk=ada.pk).status == "active"

    # Revert: the same post-game reopens at Review with its three rolls; nothing can be rolled again.
    page.goto(base)
    page.get_by_role("button", name="Revert this post-game").click()
    expect(page.locator(".message.success")).to_contain_text("Its rolls stay as they were")
    expect(page.get_by_role("heading", name="Review and apply")).to_be_visible()
    expect(page.locator(".review-dice > summary")).to_contain_text("The dice (3)")
    for step in ("troops/", "elites/"):
        page.goto(base + step)
        expect(page.locator("#post-game-step")).to_be_visible()
        expect(page.get_by_role("button", name="Roll for me")).to_have_count(0)
    assert DiceRoll.objects.filter(status="counted").count() == 3
    assert DiceRoll.objects.count() == 4  # the corrected 3-1 stays in the dice log
