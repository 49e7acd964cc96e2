"""The history in real Chromium: the feed fills itself in while open, filters swap in place, older pages append,
the roster as of a game, and a read-only link opened by someone with no account — on a 390-pixel phone."""

import datetime as dt

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from rosters.models import Fighter
from rosters.services.fighters import fighter_adjust_xp, fighter_create
from rosters.services.games import GameEntry, game_record, game_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def log_in(page: Page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.fixture
def fast_polling(monkeypatch):
    # The feed polls every ten seconds; a second keeps the test short (live_server runs in this process).
    monkeypatch.setattr("rosters.views.history.POLL_SECONDS", 1)


def no_sideways_scroll(page: Page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_the_feed_fills_itself_in_and_filters_in_place(
    page: Page, live_server, fast_polling, player, player2, campaign, warband, rival_warband
):
    page.set_viewport_size(PHONE)
    marcus = fighter_create(warband=warband, by=player, name="Brother Marcus", elite=True, xp=5)
    fighter_create(warband=rival_warband, by=player2, name="Heretic Priest")
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/history/")
    expect(page.get_by_role("heading", name=f"{campaign.name}: history")).to_be_visible()
    expect(page.locator("#history-entries")).to_contain_text("added Brother Marcus")
    no_sideways_scroll(page)

    # Another player's change arrives without a reload, on top.
    fighter_adjust_xp(fighter=marcus, delta=2, by=player, reason="killed the Heretic Priest")
    first = page.locator("#history-entries .history-sentence").first
    expect(first).to_contain_text(
        "Brother Marcus gained 2 XP (now 7; killed the Heretic Priest)", timeout=8000
    )
    assert (
        page.evaluate("performance.getEntriesByType('navigation').length") == 1
    )  # still the first page load

    # A filter (folded away on a phone until opened) swaps the feed in place and keeps the address.
    page.locator("summary", has_text="Filter").click()
    page.get_by_label("Warband").select_option(label=rival_warband.name)
    expect(page.locator("#history-entries")).to_contain_text("Heretic Priest")
    expect(page.locator("#history-entries")).not_to_contain_text("Brother Marcus")
    assert f"warband={rival_warband.pk}" in page.url


def test_older_changes_append_below(page: Page, live_server, player, campaign, warband):
    for n in range(60):
        Fighter.objects.create(warband=warband, name=f"Recruit {n:02d}")
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/history/")
    sentences = page.locator("#history-feed .history-sentence")
    expect(sentences).to_have_count(50)
    page.get_by_role("link", name="Older changes").click()
    expect(sentences.nth(50)).to_be_visible()
    assert sentences.count() > 50
    texts = sentences.all_inner_texts()
    assert len(texts) == len(set(texts))


def test_the_roster_after_a_game_and_a_read_only_link(
    page: Page,
    live_server,
    organiser,
    player,
    campaign,
    warband,
    rival_warband,
):
    page.set_viewport_size(PHONE)
    marcus = fighter_create(warband=warband, by=player, name="Brother Marcus", elite=True, xp=5)
    game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 5, 1),
        entries=[
            GameEntry(warband=warband, result="loss", out_of_action=[marcus]),
            GameEntry(warband=rival_warband, result="win"),
        ],
    )
    fighter_adjust_xp(fighter=marcus, delta=3, by=player, reason="after the game")
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/warbands/{warband.pk}/history/")
    page.get_by_role("link", name="After Game 1").click()
    expect(page.get_by_role("heading", name="Iron Sepulchre after Game 1")).to_be_visible()
    expect(page.locator("#as-of-moment")).to_contain_text("not applied yet")
    expect(page.locator(f"#as-of-fighter-{marcus.pk}")).to_contain_text("5")  # not the 8 it has today
    no_sideways_scroll(page)

    # The organiser shares the campaign; someone without an account reads it.
    organiser_page = page.context.browser.new_context().new_page()
    log_in(organiser_page, live_server, organiser)
    organiser_page.goto(f"{live_server.url}/campaigns/{campaign.pk}/settings/")
    organiser_page.get_by_role("button", name="Make a read-only link").click()
    link = organiser_page.locator("#share-url").inner_text().strip()
    assert "/share/" in link

    visitor = page.context.browser.new_context(viewport=PHONE).new_page()
    visitor.goto(link)
    expect(visitor.get_by_role("heading", name=campaign.name)).to_be_visible()
    visitor.get_by_role("link", name="Iron Sepulchre").first.click()
    expect(visitor.locator("body")).to_contain_text("Brother Marcus")
    assert visitor.locator("form[method=post]").count() == 0
    no_sideways_scroll(visitor)

    organiser_page.get_by_role("button", name="Stop sharing").click()
    expect(organiser_page.get_by_role("button", name="Make a read-only link")).to_be_visible()
    response = visitor.goto(link)
    assert response.status == 404


def test_a_game_on_the_tracker_reads_as_a_battle_report_as_it_is_played(
    page: Page, live_server, fast_polling, player, player2, campaign, warband, rival_warband, make_fighter
):
    from combat.services.tracker.board import tracker_start, tracker_undo
    from combat.services.tracker.damage import tracker_apply_damage

    # Damage on a single model: Fallout: Factions' board (a Trench Crusade one marks Out of Action instead).
    campaign.preset = campaign.Preset.FALLOUT_FACTIONS
    campaign.save(update_fields=["preset"])
    page.set_viewport_size(PHONE)
    brick = make_fighter(warband, "Brick", endurance=6, health=3)
    game = game_start(
        campaign=campaign, by=player, played_on=dt.date(2026, 6, 1), warbands=[warband, rival_warband]
    )
    tracker = tracker_start(game=game, by=player)
    log_in(page, live_server, player)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/history/?kind=ingame")
    expect(page.locator(".history-game").first).to_contain_text("being played")

    # Damage applied on another phone arrives while the feed is open; its undo strikes it out on the next page.
    tracker_apply_damage(game=game, target_id=brick.pk, damage=2, by=player2, version=tracker.version)
    first = page.locator("#history-entries .history-sentence").first
    expect(first).to_contain_text("Brick took 2 Damage: 1 Harm", timeout=8000)
    tracker_undo(game=game, by=player, version=tracker.version + 1)
    page.reload()
    expect(page.locator("#history-entries del").first).to_contain_text("Brick took 2 Damage: 1 Harm")
    expect(page.locator("#history-entries .history-sentence").first).to_contain_text(
        "undid “Brick took 2 Damage"
    )
    no_sideways_scroll(page)
