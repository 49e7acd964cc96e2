"""The campaign data pages in real Chromium on a 390-pixel phone (combat/views/campaign_data.py): the organiser goes
from the settings page to the Ranged skill chart, copies the demo rows (v1), types a repeated roll and is told
beside the box with nothing saved, fixes it (v2), and downloads the CSV export."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from combat.models import CampaignDataSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def log_in(page: Page, live_server, user, password) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def fits_the_phone(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_an_organiser_fixes_a_repeated_roll_saves_v2_and_exports(
    page: Page, live_server, campaign, organiser, password
):
    page.set_viewport_size(PHONE)
    log_in(page, live_server, organiser, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/settings/")
    expect(page.locator("#campaign-data")).to_contain_text("ships no official names")
    page.get_by_role("link", name="Edit the campaign data").click()
    expect(page.get_by_role("heading", name="Campaign data", level=1)).to_be_visible()
    assert fits_the_phone(page)
    page.get_by_role("link", name="The Ranged skill chart").click()
    page.get_by_role("button", name="Copy from the demo set").click()
    expect(page.locator("#messages")).to_contain_text("copied as v1")

    box = page.get_by_label("Rows (CSV: the first line names the fields)")
    typed = box.input_value() + "7,sharp_eye,Sharp Eye\n"  # the demo chart holds 7 already
    box.fill(typed)
    page.get_by_role("button", name="Save as a new version").click()
    field = page.locator(".field.has-error")
    expect(field).to_contain_text(
        "Two rows have the roll 7 (Rapid Reload; Sharp Eye): a roll holds one skill."
    )
    expect(box).to_have_value(typed)  # what was typed stays to be fixed
    assert fits_the_phone(page)
    assert list(CampaignDataSet.objects.values_list("version", flat=True)) == [1]

    box.fill(typed.replace("7,sharp_eye", "3,sharp_eye"))
    page.get_by_label("Note (optional)").fill("Sharp Eye at 3")
    page.get_by_role("button", name="Save as a new version").click()
    expect(page.locator("#messages")).to_contain_text("Saved as v2: 6 rows.")
    expect(page.locator("#data-version-2")).to_contain_text("v2 by")
    expect(page.locator("#data-rows")).to_contain_text("Sharp Eye")
    assert fits_the_phone(page)

    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    assert download.value.suggested_filename == "skill_chart-ranged-v2.csv"
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.splitlines()[:3] == [
        "roll,code,name",
        "2,steady_breath,Steady Breath",
        "3,sharp_eye,Sharp Eye",
    ]
