"""A new user in real Chromium: sign up, dashboard, log out, log back in (htmx and the stylesheet loaded)."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_assets_loaded(page: Page):
    # htmx is defined only if static/vendor/htmx/htmx.min.js was served.
    assert page.evaluate("typeof window.htmx") == "object"
    # The stylesheet sets the body's font stack; the browser default would be a serif.
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "system-ui" in font


def test_a_new_user_signs_up_logs_out_and_logs_back_in(page: Page, live_server):
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Email").fill("newcomer@example.org")
    page.locator("#id_password1").fill("a-strong-password-4u")
    page.locator("#id_password2").fill("a-strong-password-4u")
    page.get_by_role("button", name="Create my account").click()

    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    expect(page.locator("#no-campaigns")).to_contain_text("No campaigns yet")
    assert_assets_loaded(page)

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()

    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Password").fill("a-strong-password-4u")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    assert_assets_loaded(page)
