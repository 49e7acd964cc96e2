"""Every browser test runs under the site's strict Content-Security-Policy and fails on a violation.

Chromium reports each refused script, style or connection on the console ("Refused to ... because it violates
the following Content Security Policy directive"). Every browser context a test opens (pytest-playwright's
`page`, or `browser.new_context()` in a test) is watched; the test fails at its end if any such message came.
"""

import contextlib
import os

import pytest
from playwright.sync_api import Browser, BrowserContext
from playwright.sync_api import Error as PlaywrightError

# Every page registers the service worker. With this, Playwright's routes also see the worker's own
# requests, so a test that cuts the network cuts the worker's too (docs/development.md, Playwright's known gap, its GitHub #2311). It must be
# set before Playwright's driver starts: here, at import.
os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")

CSP_MARKERS = ("Content Security Policy", "Content-Security-Policy")


@pytest.fixture(autouse=True)
def csp_violations(monkeypatch):
    """The CSP violations seen by this test (a test that provokes one on purpose clears the list). Every context the
    test opened itself is closed at its end: the browser lives for the whole session, and a page left open goes
    on polling its board and drawing, taking the CPU from every test after it."""
    seen: list[str] = []
    opened: list[BrowserContext] = []
    new_context = Browser.new_context

    def watched(self, *args, **kwargs):
        context = new_context(self, *args, **kwargs)
        opened.append(context)
        context.on("close", lambda closed: opened.remove(closed) if closed in opened else None)
        context.on(
            "console", lambda message: seen.append(message.text) if _is_violation(message.text) else None
        )
        context.on(
            "weberror",
            lambda error: seen.append(str(error.error)) if _is_violation(str(error.error)) else None,
        )
        return context

    monkeypatch.setattr(Browser, "new_context", watched)
    yield seen
    for context in list(opened):  # those the test and pytest-playwright did not close themselves
        with contextlib.suppress(PlaywrightError):  # its browser already gone
            context.close()
    assert seen == [], "the page broke the Content-Security-Policy:\n" + "\n".join(seen)


def _is_violation(text: str) -> bool:
    return any(marker in text for marker in CSP_MARKERS)
