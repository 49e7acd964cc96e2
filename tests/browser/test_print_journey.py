"""Pages people print or glance at, in real Chromium on a 390-pixel phone: the fighter cards in print
media and as a PDF from Chromium, on A4 and Letter; and a battle report with a <script> in it, shown inert."""

import datetime
import re

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Game, GamePlayer
from rosters.services import battlekit as battlekit_services
from rosters.services import injuries as injury_services
from tests.browser.axe import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
# PDF page sizes in points: A4 is 210 x 297 mm, Letter 8.5 x 11 in.
A4 = (595, 842)
LETTER = (612, 792)
SCRIPT = '<script>alert("boom")</script>'


def log_in(page: Page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size(PHONE)


@pytest.fixture
def roster(campaign, warband, player, make_fighter):
    # Harm boxes and Injuries at the table are Fallout: Factions' Endurance; Trench Crusade's profile has none.
    campaign.preset = campaign.Preset.FALLOUT_FACTIONS
    campaign.save(update_fields=["preset"])
    marcus = make_fighter(
        warband,
        "Brother Marcus",
        elite=True,
        keywords=["ELITE", "PILGRIM"],
        fighter_type="Trench Pilgrim",
        strength=7,
        luck=2,
        health=2,
        harm_limit=3,
        movement=5,
        xp=5,
        battle_scars=1,
    )
    injury_services.injury_add(
        fighter=marcus, by=player, code="14", name="Hand Wound", effect="-1 DICE to Melee attacks.", d66=14
    )
    battlekit_services.item_create(
        warband=warband, fighter=marcus, name="Trench Lance", keywords=["HEAVY"], by=player
    )
    odo = make_fighter(warband, "Pilgrim Odo", fighter_type="Trench Pilgrim", harm_limit=None)
    return marcus, odo


def no_axe_violations(page: Page) -> None:
    """axe-core finds nothing on the whole page, the shared layout included (tests/browser/axe.py)."""
    assert_accessible(page)


def pdf_page_sizes(pdf: bytes) -> list[tuple[int, int]]:
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]


def test_the_printed_cards_hold_every_field_and_make_a_pdf(page: Page, live_server, warband, player, roster):
    marcus, odo = roster
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/")
    page.get_by_role("link", name="Fighter cards to print").click()
    expect(page.get_by_role("heading", name=f"{warband.name}: fighter cards")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    no_axe_violations(page)

    page.emulate_media(media="print")
    cards = page.locator("article.print-card")
    expect(cards).to_have_count(2)
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".card-sheet-head")).to_be_hidden()
    card = page.locator(f"#print-card-{marcus.pk}")
    expect(card).to_be_visible()
    text = card.inner_text()
    for field in (
        "Brother Marcus",
        "ELITE",
        "Trench Pilgrim",
        "ELITE, PILGRIM",  # keywords
        "Hand Wound",
        "(D66 14)",
        "-1 DICE to Melee attacks.",  # the Injury's effect
        "Trench Lance (HEAVY)",  # Battlekit
        "Battle Scars",
        "1 of 3",
        "XP 5",
        "Harm (Harm Limit 3)",
        "Injuries at the table (Health 2)",
    ):
        assert field in text, field
    profile = card.locator("table.print-profile td").all_inner_texts()
    assert profile == ["5″", "7", "5", "5", "5", "5", "5", "2", "2", "3"]
    assert card.locator(".xp-boxes .box").count() == 10  # up to 10 XP, two thresholds above 5
    assert card.locator(".xp-boxes .box.ticked").count() == 5
    assert card.locator("ol[aria-label='Harm boxes'] .box").count() == 3
    assert card.locator("ol[aria-label='Injury boxes'] .box").count() == 2
    assert "no Harm Limit" in page.locator(f"#print-card-{odo.pk}").inner_text()
    # Black and white: a card is drawn with borders, not shades, and never splits across pages.
    style = card.evaluate(
        "el => { const s = getComputedStyle(el); return [s.breakInside, s.borderTopStyle, s.backgroundColor]; }"
    )
    assert style == ["avoid", "solid", "rgb(255, 255, 255)"]
    # Several cards to a page: two columns on paper.
    columns = page.locator(".print-cards").evaluate(
        "el => getComputedStyle(el).gridTemplateColumns.split(' ').length"
    )
    assert columns == 2

    pdf = page.pdf(prefer_css_page_size=True, print_background=False)
    assert pdf.startswith(b"%PDF")
    assert set(pdf_page_sizes(pdf)) == {A4}


def test_one_fighters_card_on_letter_paper(page: Page, live_server, player, roster):
    marcus, _odo = roster
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/fighters/{marcus.pk}/")
    page.get_by_role("link", name="Card to print").click()
    page.get_by_label("Paper").select_option("letter")
    page.get_by_role("button", name="Use this paper").click()  # a plain GET form: no JavaScript needed
    expect(page).to_have_url(re.compile(r"paper=letter"))

    page.emulate_media(media="print")
    expect(page.locator("article.print-card")).to_have_count(1)
    assert "Hand Wound" in page.locator("article.print-card").inner_text()
    pdf = page.pdf(prefer_css_page_size=True)
    assert pdf.startswith(b"%PDF")
    assert set(pdf_page_sizes(pdf)) == {LETTER}


@pytest.fixture
def game(campaign, warband, rival_warband):
    game = Game.objects.create(campaign=campaign, number=1, played_on=datetime.date(2026, 11, 30))
    GamePlayer.objects.create(game=game, warband=warband, result="win")
    GamePlayer.objects.create(game=game, warband=rival_warband, result="loss")
    return game


def test_a_battle_report_with_a_script_in_it_is_shown_inert(page: Page, live_server, player, game):
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("link", name="Write the battle report").click()
    no_axe_violations(page)
    page.get_by_label("Title").fill(f"Night raid {SCRIPT}")
    page.get_by_label("The report").fill(f"We crept in.\n{SCRIPT}\n<img src=x onerror=alert(2)>")
    page.get_by_role("button", name="Save the report").click()

    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/#battle-report$"))
    report = page.locator("#battle-report")
    expect(report.get_by_role("heading", name=f"Battle report: Night raid {SCRIPT}")).to_be_visible()
    body = report.locator(".report-text")
    assert body.inner_text().splitlines() == ["We crept in.", SCRIPT, "<img src=x onerror=alert(2)>"]
    assert body.locator("script, img").count() == 0
    assert page.evaluate("document.querySelectorAll('#battle-report script').length") == 0
    assert "Written by pat_player" in report.inner_text()
    assert report.locator("br").count() == 2  # its line breaks kept
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    no_axe_violations(page)

    page.goto(f"{live_server.url}/campaigns/{game.campaign_id}/history/")
    expect(page.get_by_text(f"wrote the battle report “Night raid {SCRIPT}”")).to_be_visible()
    page.wait_for_timeout(300)
    assert dialogs == []  # nothing ran; the CSP watch (conftest.py) sees no violation either
