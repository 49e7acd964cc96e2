"""The polish pass in real Chromium on a 390-pixel phone, over the demo campaign (`manage.py load_demo`): stacked
tables keep each cell's parts in one box inside the card, lone links are 44 px tall, the tracker's buttons line up
evenly, and what cannot be undone asks first, with nothing changed when the answer is no."""

import io

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Page, expect

from campaigns.models import Campaign, Game
from combat.models import TrackerFighter
from rosters.models import Item, Warband

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
TAP = 44


@pytest.fixture
def demo(django_user_model):
    call_command("load_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name="The Long Trench")
    return {
        "campaign": campaign,
        "organiser": django_user_model.objects.get(username="organiser"),
        "sepulchre": Warband.objects.get(campaign=campaign, name="The Iron Sepulchre"),
        "games": {game.number: game for game in Game.objects.filter(campaign=campaign)},
    }


def log_in(page: Page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size(PHONE)


def no_sideways_scroll(page: Page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def height(page: Page, locator) -> float:
    return locator.bounding_box()["height"]


def test_stacked_tables_keep_each_cell_inside_its_card(page: Page, live_server, demo):
    log_in(page, live_server, demo["organiser"])
    pages = [
        f"/warbands/{demo['sepulchre'].pk}/as-of/{demo['games'][2].pk}/",
        f"/campaigns/{demo['campaign'].pk}/dice/",
        f"/games/{demo['games'][2].pk}/post-game/{demo['sepulchre'].pk}/experience/",
    ]
    for path in pages:
        page.goto(live_server.url + path)
        no_sideways_scroll(page)
        # Every part of a stacked cell's value lies inside its card, right of the column's name.
        outside = page.evaluate(
            """() => [...document.querySelectorAll('table.stack td > .cell-value')].filter(box => {
                const card = box.closest('tr').getBoundingClientRect();
                const label = box.parentElement.getBoundingClientRect();
                return [...box.children].some(part => {
                    const r = part.getBoundingClientRect();
                    return r.right > card.right + 0.5 || r.left < label.left;
                });
            }).length"""
        )
        assert outside == 0, path
    # The as-of summary strip has room inside its card.
    page.goto(live_server.url + pages[0])
    padding = page.locator("#as-of-roster ul.stats").evaluate(
        "el => parseFloat(getComputedStyle(el).paddingLeft)"
    )
    assert padding >= 10
    # The dice log's card starts with what the roll was for, above its time.
    page.goto(live_server.url + pages[1])
    first = page.locator("table.dice-log tbody tr").first
    assert first.locator("td.primary").bounding_box()["y"] < first.locator("td time").bounding_box()["y"]


def test_lone_links_are_44_px_tall(page: Page, live_server, demo):
    log_in(page, live_server, demo["organiser"])
    page.goto(live_server.url + f"/campaigns/{demo['campaign'].pk}/")
    latest = page.locator("#campaign-latest-history")
    expect(latest.get_by_role("link", name="The whole history")).to_be_visible()
    for name in ("The whole history", "Dice log"):
        assert height(page, latest.get_by_role("link", name=name, exact=True)) >= TAP, name
    page.goto(live_server.url + f"/campaigns/{demo['campaign'].pk}/history/")
    assert height(page, page.locator("h2.history-game a").first) >= TAP
    page.goto(live_server.url + f"/warbands/{demo['sepulchre'].pk}/history/")
    assert height(page, page.get_by_role("link", name="After Game 1", exact=True)) >= TAP
    page.goto(live_server.url + f"/games/{demo['games'][3].pk}/post-game/{demo['sepulchre'].pk}/")
    assert height(page, page.get_by_role("link", name="Overview")) >= TAP
    for link in page.locator("nav.breadcrumb a").all():
        assert height(page, link) >= TAP


def test_the_tracker_s_buttons_line_up_evenly(page: Page, live_server, demo):
    log_in(page, live_server, demo["organiser"])
    game = demo["games"][4]
    # Every card opened: a fighter at full strength is otherwise one line, its buttons one tap away.
    tracked = TrackerFighter.objects.filter(tracker__game=game).values_list("fighter_id", flat=True)
    page.goto(live_server.url + f"/games/{game.pk}/tracker/?open={','.join(map(str, tracked))}")
    no_sideways_scroll(page)
    expect(page.locator("nav.breadcrumb")).to_contain_text("The Long Trench › Game 4 › Tracker")
    # The demo is a Trench Crusade campaign: its board offers each single model one tap, Out of Action (no
    # Damage and Fatigue row: those are Fallout: Factions' single-model rules, combat/rules/board_rules.py).
    buttons = page.locator(".tracker-fighter .tf-mark button", has_text="Out of Action").all()
    assert len(buttons) > 10
    boxes = [button.bounding_box() for button in buttons]
    for box in boxes:
        assert abs(box["width"] - boxes[0]["width"]) < 1  # as wide as each other
        assert abs(box["height"] - boxes[0]["height"]) < 1  # one line each, whatever the name
        assert box["height"] >= TAP
    # The visible words are "Out of Action"; a screen reader hears whose.
    expect(page.get_by_role("button", name="Out of Action: Prophet Anselm the Unbowed")).to_have_text(
        "Out of Action"
    )


def test_deleting_a_game_asks_first_and_no_changes_nothing(page: Page, live_server, demo):
    log_in(page, live_server, demo["organiser"])
    game = demo["games"][3]  # recorded, its post-games not started: it can still be deleted
    page.goto(live_server.url + f"/games/{game.pk}/")
    page.get_by_text("Delete this game").click()
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Delete Game 3").click()
    assert len(asked) == 1
    assert "cannot be undone" in asked[0]
    assert Game.objects.filter(pk=game.pk).exists()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete Game 3").click()
    expect(page).to_have_url(live_server.url + f"/campaigns/{demo['campaign'].pk}/")
    assert not Game.objects.filter(pk=game.pk).exists()


def test_deleting_arsenal_battlekit_asks_first(page: Page, live_server, demo):
    log_in(page, live_server, demo["organiser"])
    item = Item.objects.get(warband=demo["sepulchre"], fighter__isnull=True)
    page.goto(live_server.url + f"/warbands/{demo['sepulchre'].pk}/")
    remove = page.get_by_role("button", name=f"Remove {item.name} from the roster")
    page.once("dialog", lambda dialog: dialog.dismiss())
    remove.click()
    assert Item.objects.filter(pk=item.pk).exists()
    page.once("dialog", lambda dialog: dialog.accept())
    remove.click()
    # Gone from the Arsenal's list (the add form's price list below still offers the name to buy again).
    expect(page.locator(f"#item-{item.pk}")).to_have_count(0)
    expect(page.locator("#arsenal li", has_text=item.name)).to_have_count(0)
    assert not Item.objects.filter(pk=item.pk).exists()
