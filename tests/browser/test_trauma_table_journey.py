"""The house Trauma Table editor in real Chromium (combat/views/trauma_table.py): the organiser copies the default
from the settings page, lands on the editor, sees every problem of a broken edit beside the table with nothing
saved, saves a sound one, and goes back to the default only after saying yes to the question."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page: Page, live_server, user, password) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def test_an_organiser_edits_the_campaigns_trauma_table_and_goes_back_to_the_default(
    page: Page, live_server, campaign, organiser, password
):
    log_in(page, live_server, organiser, password)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/settings/")
    page.get_by_role("button", name="Copy the default table to edit it").click()
    expect(page.get_by_role("heading", name="Trauma Table", level=1)).to_be_visible()
    expect(page.locator("#messages")).to_contain_text("The default Trauma Table is copied")

    # Two problems at once: Hand Wound 14-15 meets Lost an Eye, and Bitter Lessons takes Hardened's code.
    page.get_by_label("Row 4: To").fill("15")
    page.get_by_label("Row 21: Code").fill("hardened")
    page.get_by_role("button", name="Save the table").click()
    problems = page.get_by_role("alert")
    expect(problems).to_contain_text("Rows overlap: D66 15 is in both Hand Wound and Lost an Eye.")
    expect(problems).to_contain_text("Two rows have the code hardened (Hardened, 64; Bitter Lessons, 65)")
    campaign.refresh_from_db()
    assert campaign.house_trauma_table[3]["high"] == 14  # nothing saved

    page.get_by_label("Row 4: To").fill("14")
    page.get_by_label("Row 21: Code").fill("bitter_lessons")
    page.get_by_label("Row 21: Result").fill("Harsh Lessons")
    page.get_by_role("button", name="Save the table").click()
    expect(page.locator("#messages")).to_contain_text("The campaign's Trauma Table is saved.")
    expect(page.get_by_label("Row 21: Result")).to_have_value("Harsh Lessons")

    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Go back to the default table").click()
    assert [message.split("?")[0] for message in asked] == ["Go back to the default Trauma Table"]
    expect(page.get_by_label("Row 21: Result")).to_have_value("Harsh Lessons")  # said no: nothing changed

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Go back to the default table").click()
    expect(page.locator("#messages")).to_contain_text("The campaign rolls on the default Trauma Table again.")
    campaign.refresh_from_db()
    assert campaign.house_trauma_table is None
