"""A newcomer with the invitation link in real Chromium at phone width (Joining and names): a landing page
that says whose campaign it is, sign up first, and after signing up the join is one tap."""

import pytest
from playwright.sync_api import Page, expect

from campaigns.models import Membership

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(page: Page) -> Page:
    page.set_viewport_size({"width": 390, "height": 844})
    return page


def test_a_newcomer_lands_on_the_invitation_signs_up_and_joins_in_one_tap(phone: Page, live_server, campaign):
    phone.goto(f"{live_server.url}/join/{campaign.invitation_code}/")
    expect(phone.get_by_role("heading", name="olga_organiser invites you to The Long Trench")).to_be_visible()
    expect(phone.get_by_text("The Long Trench (Trench Crusade), 3 players.")).to_be_visible()
    # No page is wider than the phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    phone.get_by_role("link", name="Sign up to join").click()
    phone.get_by_label("Username").fill("newcomer")
    phone.get_by_label("Email").fill("newcomer@example.org")
    phone.locator("#id_password1").fill("a-strong-password-4u")
    phone.locator("#id_password2").fill("a-strong-password-4u")
    phone.get_by_role("button", name="Create my account").click()

    # Back on the invitation: one tap joins.
    expect(phone.get_by_role("heading", name="Join The Long Trench")).to_be_visible()
    phone.get_by_role("button", name="Join the campaign").click()
    expect(phone.get_by_text("Welcome to The Long Trench!")).to_be_visible()
    assert Membership.objects.get(campaign=campaign, user__username="newcomer").role == "player"


def test_a_visitor_with_an_account_logs_in_from_the_invitation_and_joins(
    phone: Page, live_server, campaign, outsider, password
):
    phone.goto(f"{live_server.url}/join/{campaign.invitation_code}/")
    phone.get_by_role("link", name="I have an account: log in").click()
    phone.get_by_label("Username").fill(outsider.username)
    phone.get_by_label("Password").fill(password)
    phone.get_by_role("button", name="Log in").click()
    phone.get_by_role("button", name="Join the campaign").click()
    expect(phone.get_by_text("Welcome to The Long Trench!")).to_be_visible()
    assert Membership.objects.filter(campaign=campaign, user=outsider).exists()
