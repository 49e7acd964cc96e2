"""A ransom by agreement in real Chromium at a phone's width (TRAUMA_TABLE.md 12, RULING T-8).

Brother Marcus of Iron Sepulchre is Captured in Game 1 (D66 12). His owner offers Heretic Legion 20 ducats on the
ELITE step; the post-game waits for the captor's answer. The captor's player accepts from their own dashboard
with a plain form; the owner then applies, and both Strongboxes show the ducats moved (50 → 30, 30 → 50).
"""

from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer, OutOfAction

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(context, user, live_server):
    client = Client()  # one per user: logging a second user into the same client would end the first session
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.fixture
def game_one(campaign, warband, rival_warband, make_fighter, organiser):
    marcus = make_fighter(warband, "Brother Marcus", elite=True, fighter_type="Trench Cleric", xp=3)
    game = Game.objects.create(
        campaign=campaign,
        number=1,
        played_on=date(2026, 11, 28),
        status=Game.Status.RECORDED,
        created_by=organiser,
    )
    player = GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.LOSS)
    GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.WIN)
    OutOfAction.objects.create(player=player, fighter=marcus)
    return {"game": game, "marcus": marcus}


def test_the_captor_accepts_from_their_dashboard_and_the_apply_moves_the_ducats(
    page: Page, browser, live_server, player, player2, warband, rival_warband, game_one
):
    game, marcus = game_one["game"], game_one["marcus"]
    post_game = f"{live_server.url}/games/{game.pk}/post-game/{warband.pk}/"
    page.set_viewport_size(PHONE)
    log_in(page.context, player, live_server)

    # The owner confirms the Out of Action list, types D66 12 (Captured) and offers 20 ducats.
    page.goto(f"{post_game}out-of-action/")
    page.get_by_role("button", name="Confirm and go on").click()
    page.goto(f"{post_game}elites/")
    card = page.locator(f"#fighter-{marcus.pk}")
    card.get_by_label("Tens die").fill("1")
    card.get_by_label("Units die").fill("2")
    card.get_by_role("button", name="Enter dice").click()
    card = page.locator(f"#fighter-{marcus.pk}")
    expect(card).to_contain_text("Captured")
    card.get_by_label("Offer a ransom").check()
    card.get_by_label("Ransom (ducats)").fill("20")
    card.get_by_role("button", name="Send the answer").click()
    expect(page.locator(f"#ransom-{marcus.pk}")).to_contain_text(
        "Ransom offered: 20 ducats to Heretic Legion"
    )

    # The Review waits for the captor's answer.
    page.goto(f"{post_game}review/")
    expect(page.locator("#post-game-step")).to_contain_text("answer to the ransom offer for Brother Marcus")
    expect(page.get_by_role("button", name="Apply to the roster")).to_be_disabled()

    # The captor's player accepts from their own dashboard, a plain POST form.
    captor_context = browser.new_context(viewport=PHONE)
    captor = captor_context.new_page()
    log_in(captor_context, player2, live_server)
    captor.goto(f"{live_server.url}/")
    offer = captor.locator("#next-steps")
    expect(offer).to_contain_text("Iron Sepulchre offers 20 ducats for Brother Marcus (Game 1)")
    offer.get_by_role("button", name="Accept").click()
    expect(captor.locator(".message.success")).to_contain_text("Ransom offer accepted.")
    expect(captor.locator("body")).not_to_contain_text("offers 20 ducats")

    # The owner applies; both Strongboxes show the move.
    page.goto(f"{post_game}review/")
    review = page.locator("#post-game-step")
    expect(review).to_contain_text("Iron Sepulchre's Strongbox: 50 → 30 ducats")
    page.get_by_role("button", name="Apply to the roster").click()
    expect(page.locator(".message.success")).to_contain_text("applied to Iron Sepulchre")
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    expect(page.locator("body")).to_contain_text("30 ducats in the Strongbox")
    captor.goto(f"{live_server.url}/warbands/{rival_warband.pk}/")
    expect(captor.locator("body")).to_contain_text("50 ducats in the Strongbox")
    captor_context.close()
