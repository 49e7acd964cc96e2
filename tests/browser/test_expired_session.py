"""A phone whose session ends while its board polls is taken to the login page, as a page.

Without HX-Redirect, htmx would follow the login redirect inside its poll and swap the login form into the board.
"""

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import Browser, expect

from combat.tests.tracker_helpers import setup_game
from tests.browser.test_tracker_journey import PHONE, open_board, phone_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def test_a_board_whose_session_ended_goes_to_the_login_page_and_back(
    browser: Browser, live_server, table, player
):
    context = phone_of(browser, live_server, player)
    page = open_board(context, live_server, table)
    board = f"/games/{table.game.pk}/tracker/"
    Session.objects.all().delete()  # the session expired (or was ended elsewhere)

    page.wait_for_url(f"{live_server.url}/accounts/login/?next=*", timeout=8000)
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    assert page.locator("#tracker-live").count() == 0  # a page of its own, not a form inside the board
    assert page.evaluate("new URLSearchParams(location.search).get('next')") == board
    assert page.viewport_size == PHONE
