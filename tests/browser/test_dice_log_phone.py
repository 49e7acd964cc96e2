"""The dice log on a 390-pixel phone in real Chromium, over the demo campaign (`manage.py load_demo`): a roll takes
two short lines, and one that no longer counts is struck through with who, when and why beside the
faces that count instead; the warband's roll history shows the same marks."""

import io

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Campaign
from combat.models import DiceRoll
from combat.tests.dice_helpers import strike

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
SHORT = 64  # px: two lines of a roll's card, its padding and border


@pytest.fixture
def demo(django_user_model):
    call_command("load_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name="The Long Trench")
    organiser = django_user_model.objects.get(username="organiser")
    rolls = DiceRoll.objects.filter(campaign=campaign, purpose="trauma").order_by("id")
    voided, corrected = rolls[0], rolls[1]
    instead = strike(
        voided, "voided", by=organiser, reason="rolled before the game was recorded", faces=[3, 3]
    )
    right = strike(corrected, "corrected", by=organiser, reason="typo", faces=[1, 1])
    return {
        "campaign": campaign,
        "organiser": organiser,
        "voided": voided,
        "instead": instead,
        "corrected": corrected,
        "right": right,
        "warband": voided.warband,
    }


def log_in(page: Page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size(PHONE)


def heights(page: Page) -> dict[str, float]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('table.dice-log tbody tr')]
            .map(row => [row.id, row.getBoundingClientRect().height]))"""
    )


def decoration(locator) -> str:
    return locator.evaluate("el => getComputedStyle(el).textDecorationLine")


def test_a_roll_takes_two_short_lines_and_a_struck_one_says_why(page: Page, live_server, demo):
    log_in(page, live_server, demo["organiser"])
    page.goto(live_server.url + f"/campaigns/{demo['campaign'].pk}/dice/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    struck = {f"roll-{demo[name].pk}" for name in ("voided", "corrected", "instead", "right")}
    found = heights(page)
    plain = {row: h for row, h in found.items() if row not in struck}
    assert len(plain) >= 8
    assert max(plain.values()) < SHORT, plain
    # What for and the faces on the first line; who, how, game and when on the second.
    first = page.locator("table.dice-log tbody tr").first
    assert first.locator("td.primary").bounding_box()["y"] < first.locator("td time").bounding_box()["y"]
    faces = first.locator("td.roll-faces").bounding_box()
    primary = first.locator("td.primary").bounding_box()
    assert abs(faces["y"] - primary["y"]) < 8
    # The voided roll: its faces struck through, who voided it and why shown, the faces that count instead linked.
    voided = page.locator(f"#roll-{demo['voided'].pk}")
    assert "line-through" in decoration(voided.locator("td.roll-faces .faces"))
    mark = voided.locator("td.roll-mark")
    expect(mark).to_be_visible()
    expect(mark).to_contain_text("Voided by Olga at ")
    expect(mark).to_contain_text("rolled before the game was recorded")
    assert "line-through" not in decoration(mark.locator(".roll-reason"))
    expect(mark.locator("a.roll-replacement")).to_have_text("3 3")
    # The roll that counts instead is not struck, and says which roll it replaces.
    instead = page.locator(f"#roll-{demo['instead'].pk}")
    assert "line-through" not in decoration(instead.locator("td.roll-faces .faces"))
    expect(instead.locator("td.roll-mark")).to_contain_text("Replaces")
    # A struck roll's mark is its third line, not more.
    assert found[f"roll-{demo['voided'].pk}"] < SHORT + 50
    corrected = page.locator(f"#roll-{demo['corrected'].pk}")
    expect(corrected.locator("td.roll-mark")).to_contain_text("Corrected by Olga at ")
    expect(corrected.locator("td.roll-mark")).to_contain_text("typo")


def test_the_filter_shows_only_what_no_longer_counts_and_the_warband_page_the_same_marks(
    page: Page, live_server, demo
):
    log_in(page, live_server, demo["organiser"])
    page.goto(live_server.url + f"/campaigns/{demo['campaign'].pk}/dice/?status=struck")
    rows = page.locator("table.dice-log tbody tr")
    expect(rows).to_have_count(2)
    for row in rows.all():
        assert "line-through" in decoration(row.locator(".faces").first)
    warband = demo["warband"]
    page.goto(live_server.url + f"/warbands/{warband.pk}/")
    page.get_by_role("link", name="Rolls", exact=True).click()
    expect(page.locator("h1")).to_have_text(f"{warband.name}: rolls")
    struck = {f"roll-{demo[name].pk}" for name in ("voided", "corrected", "instead", "right")}
    found = heights(page)
    assert struck <= set(found)  # the demo's first two Trauma rolls are the warband's
    assert max(h for row, h in found.items() if row not in struck) < SHORT
    voided = page.locator(f"#roll-{demo['voided'].pk}")
    expect(voided.locator("td.roll-mark")).to_contain_text("Voided by Olga")
    assert "line-through" in decoration(voided.locator("td.roll-faces .faces"))
