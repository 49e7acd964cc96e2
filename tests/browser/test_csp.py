"""The strict CSP in a real browser: the header is there, the pages work under it, and it does refuse an inline
script (so the watch in conftest.py would see one)."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_login_page_is_served_under_the_strict_policy_and_works(page: Page, live_server):
    response = page.goto(f"{live_server.url}/accounts/login/")
    policy = response.headers["content-security-policy"]
    # Each directive by its name: django-csp does not promise their order (a run with another hash seed put
    # script-src last, with no ";" after it).
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # the site's own scripts, nothing else
    assert directives["frame-ancestors"] == "'none'"
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
