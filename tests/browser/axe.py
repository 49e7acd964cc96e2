"""axe-core in the browser tests (Accessibility): a page with any violation fails the test, with each
rule, its impact, the nodes it found and axe's help text in the failure message."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE = Axe()
# Every WCAG 2.x A and AA rule, axe's best practices (heading order, landmarks...) and its experimental rules
# (label-content-name-mismatch: a button that reads "Remove" must not be named "Take X off the roster").
OPTIONS = {
    "resultTypes": ["violations"],
    "runOnly": {
        "type": "tag",
        "values": [
            "wcag2a",
            "wcag2aa",
            "wcag21a",
            "wcag21aa",
            "wcag22aa",
            "experimental",
            "best-practice",
        ],
    },
}


def violations(page: Page) -> list[str]:
    """Each violation on the page as one readable line per node."""
    results = AXE.run(page, options=OPTIONS).response
    lines = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node.get("target", []))
            lines.append(f"{violation['id']} ({violation.get('impact')}): {target} — {violation['help']}")
    return lines


def assert_accessible(page: Page, where: str = "") -> None:
    found = violations(page)
    assert not found, f"axe-core found {len(found)} violation(s) on {where or page.url}:\n" + "\n".join(found)
