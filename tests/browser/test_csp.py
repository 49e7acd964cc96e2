"""The strict CSP in a real browser: the header is there, the pages work under it, and it does refuse an inline
script (so the watch in conftest.py would see one)."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_login_page_is_served_under_the_strict_policy_and_works(page: Page, live_server):
    response = page.goto(f"{live_server.url}/accounts/login/")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self';" in policy
    assert "frame-ancestors 'none'" in policy
    assert page.evaluate("typeof window.htmx") == "object"  # the site's own scripts run
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()


def test_an_inline_script_is_refused_and_reported(page: Page, live_server, csp_violations):
    page.goto(f"{live_server.url}/accounts/login/")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.injected = 1';"
        " document.body.appendChild(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("typeof window.injected") == "undefined"
    assert any("script-src" in message for message in csp_violations), csp_violations
    csp_violations.clear()  # provoked on purpose
