"""A five-game Trench Crusade campaign on a 390 px phone in real Chromium, ending on the standings, the XP and the
statistics page.

Pat (Iron Sepulchre: Brick, an ELITE; Vera and Rusty, Troops) meets Quinn (Heretic Legion: Mags, an ELITE; Fidus
and Kit, Troops) five times. Each game is played on the board in the browser: each fighter taken Out of Action is
marked with its "By", and "End the game" records each side's result and the Victory Points typed in. Each
warband's post-game then goes through the wizard's own services with the dice typed in (as the demo's games do):
Troops roll their Survival D6, an ELITE its D66, and the Glorious Deeds are recorded.

By hand, from FIVE_GAMES:
- Victory Points: Iron 3+0+2+5+1 = 11, Heretic 1+4+2+0+3 = 10; two wins each, so the Victory Points typed decide
  (RULING W-2): Iron Sepulchre first.
- XP (RULING X-4: only ELITE models; 1 for taking part and surviving, 1 more for any Glorious Deeds): Brick plays
  all five and survives (Game 2's D66 14 is a Hand Wound), with Deeds in Games 1 and 3 (two there, still 1):
  5 + 2 = 7. Mags plays all five, Deeds in Game 2: 5 + 1 = 6. The Troops gain none, Deeds or not.
- Out of Action: Iron taken out 4 times (Vera twice, Brick, Rusty), caused 4 (Brick 3, Vera 1); Heretic taken
  out 4 times (Kit twice, Fidus, Mags), caused 3 (Mags 2, Kit 1); Vera's second time named no one. Rusty's
  Survival Roll of 1 in Game 2 kills him (RULING T-2): one death, and Iron's value falls by his 20 ducats.
"""

from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from campaigns.models import Game, GamePlayer
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.rolls import post_game_roll
from rosters.models import Fighter
from tests.browser.axe import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Per game: (result, Victory Points) of Iron and of Heretic; who was taken Out of Action by whom (None: no one
# named) with the dice of its Trauma Step (a Troop's Survival D6, an ELITE's D66); the Glorious Deeds recorded.
FIVE_GAMES = (
    (("win", 3), ("loss", 1), [("Vera", "Mags", [5])], {"Brick": 1, "Vera": 3}),
    (("loss", 0), ("win", 4), [("Brick", "Kit", [1, 4]), ("Rusty", "Mags", [1])], {"Mags": 1, "Kit": 2}),
    (("draw", 2), ("draw", 2), [("Kit", "Brick", [6])], {"Brick": 2}),
    (("win", 5), ("loss", 0), [("Fidus", "Brick", [4]), ("Mags", "Vera", [4, 2])], {}),
    (("loss", 1), ("win", 3), [("Vera", None, [3]), ("Kit", "Brick", [5])], {}),
)


@pytest.fixture
def crews(warband, rival_warband, make_fighter):
    return {
        "Brick": make_fighter(warband, "Brick", elite=True, cost=60),
        "Vera": make_fighter(warband, "Vera", cost=30),
        "Rusty": make_fighter(warband, "Rusty", cost=20),
        "Mags": make_fighter(rival_warband, "Mags", elite=True, cost=70),
        "Fidus": make_fighter(rival_warband, "Fidus", cost=25),
        "Kit": make_fighter(rival_warband, "Kit", cost=15),
    }


def phone(browser: Browser, live_server, user) -> Page:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    return context.new_page()


def play_on_the_board(page: Page, live_server, game: Game, crews: dict, played) -> None:
    """The board set up, each mark with its "By", then "End the game" with the results and Victory Points."""
    (iron_result, iron_vp), (heretic_result, heretic_vp), out, _deeds = played
    page.goto(f"{live_server.url}/games/{game.pk}/tracker/")
    page.get_by_role("button", name="Track this game live").click()
    for victim, attacker, _dice in out:
        card = page.locator(f"#fighter-{crews[victim].pk}")
        if card.locator("a.tf-open").count():  # one line at full strength: its card opened first
            card.locator("a.tf-open").click()
            expect(card.locator("a.tf-open")).to_have_count(0)
        if attacker:
            card.locator(f"#by-out-{crews[victim].pk}").select_option(str(crews[attacker].pk))
        card.get_by_role("button", name=f"Out of Action: {victim}").click()
        expect(page.locator("#last-action")).to_contain_text(f"{victim} is taken Out of Action")
        if attacker:
            expect(page.locator("#last-action")).to_contain_text(f"By {attacker} (")
    page.get_by_role("link", name="End the game…").click()
    page.get_by_role("combobox", name="Iron Sepulchre").select_option(iron_result)
    page.get_by_role("combobox", name="Heretic Legion").select_option(heretic_result)
    page.get_by_label("Iron Sepulchre's Victory Points").fill(str(iron_vp))
    page.get_by_label("Heretic Legion's Victory Points").fill(str(heretic_vp))
    page.get_by_role("button", name="End the game and record it").click()
    expect(page.locator("#game-over")).to_be_visible()


def post_game(game: Game, warband, crews: dict, played, by) -> None:
    """The warband's post-game through the wizard's own services, the dice typed in (RULING T-7)."""
    _iron, _heretic, out, deeds = played
    entry = GamePlayer.objects.select_related("game__campaign", "warband").get(game=game, warband=warband)
    marked = list(entry.out_of_action.values_list("fighter_id", flat=True))
    post_game_set_out_of_action(player=entry, fighter_ids=marked, by=by)
    ours = [row for row in out if crews[row[0]].warband_id == warband.pk]
    # RULING T-1: the Troops' Survival Rolls first, then the ELITE's Trauma Rolls.
    for victim, _attacker, dice in sorted(ours, key=lambda row: len(row[2])):
        purpose = "survival" if len(dice) == 1 else "trauma"
        post_game_roll(
            player=entry, fighter_id=crews[victim].pk, purpose=purpose, sequence=1, faces=dice, by=by
        )
    answers = {
        crews[name].pk: ExperienceAnswer(took_part=True, glorious_deeds=count)
        for name, count in deeds.items()
        if crews[name].warband_id == warband.pk
    }
    if answers:
        post_game_record_experience(player=entry, by=by, answers=answers)
    post_game_apply(player=entry, by=by)


def numbers(page: Page, row_id: str, labels: list[str]) -> list[str]:
    row = page.locator(f"#{row_id}")
    return [row.locator(f'td[data-label="{label}"]').inner_text().strip() for label in labels]


def test_five_games_end_on_standings_by_the_typed_victory_points_xp_by_x_4_and_the_statistics(
    browser: Browser, live_server, campaign, warband, rival_warband, crews, organiser, player, player2
):
    pat = phone(browser, live_server, player)
    for number, played in enumerate(FIVE_GAMES, start=1):
        game = Game.objects.create(
            campaign=campaign,
            number=number,
            played_on=date(2026, 11, number),
            status=Game.Status.IN_PROGRESS,
            created_by=organiser,
        )
        for side in (warband, rival_warband):
            GamePlayer.objects.create(game=game, warband=side)
        play_on_the_board(pat, live_server, game, crews, played)
        post_game(game, warband, crews, played, player)
        post_game(game, rival_warband, crews, played, player2)

    # The standings rank by the Victory Points typed at the end of each game (RULING W-2).
    pat.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    standings = pat.locator("#leaderboard tbody tr")
    expect(standings.locator("td.primary")).to_have_text(["Iron Sepulchre", "Heretic Legion"])
    assert numbers(pat, f"standing-{warband.pk}", ["Place", "Victory Points", "Wins"]) == ["1", "11", "2"]
    assert numbers(pat, f"standing-{rival_warband.pk}", ["Place", "Victory Points", "Wins"]) == [
        "2",
        "10",
        "2",
    ]

    # XP by RULING X-4, worked out by hand above.
    xp = dict(Fighter.objects.filter(warband__campaign=campaign).values_list("name", "xp"))
    assert xp == {"Brick": 7, "Vera": 0, "Rusty": 0, "Mags": 6, "Fidus": 0, "Kit": 0}
    pat.goto(f"{live_server.url}/fighters/{crews['Brick'].pk}/")
    expect(pat.locator("dt:text-is('XP') + dd")).to_have_text("7")

    # The statistics page, from the campaign page's link, against the games played.
    pat.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    pat.get_by_role("link", name="Statistics").click()
    expect(pat.get_by_role("heading", name="Statistics", level=1)).to_be_visible()
    labels = [
        "Games",
        "Wins",
        "Victory Points",
        "Taken Out of Action",
        "Caused Out of Action",
        "Deaths",
        "Battle Scars",
        "XP gained",
    ]
    assert numbers(pat, f"warband-stats-{warband.pk}", labels) == ["5", "2", "11", "4", "4", "1", "1", "7"]
    assert numbers(pat, f"warband-stats-{rival_warband.pk}", labels) == [
        "5",
        "2",
        "10",
        "4",
        "3",
        "0",
        "0",
        "6",
    ]
    brick = numbers(
        pat, f"fighter-stats-row-{crews['Brick'].pk}", ["Games", "Caused Out of Action", "XP gained"]
    )
    assert brick == ["5", "3", "7"]
    assert numbers(pat, f"fighter-stats-row-{crews['Rusty'].pk}", ["Games", "Status"]) == ["2", "Dead"]
    records = pat.locator("#records li")
    expect(records).to_have_text(
        [
            "Most Out of Action caused: Brick (Iron Sepulchre), 3 Out of Action",
            "Most XP gained: Brick (Iron Sepulchre), 7 XP",
            "Oldest survivor: Brick (Iron Sepulchre), 5 games",
        ]
    )
    expect(pat.locator("#taken-out tbody tr")).to_have_count(7)
    standings_table = pat.locator("#standings-table tbody tr").filter(has_text="Iron Sepulchre").locator("td")
    expect(standings_table).to_have_text(["1 (3 VP)", "2 (3 VP)", "2 (5 VP)", "1 (10 VP)", "1 (11 VP)"])
    # Rusty (20 ducats) died in Game 2's post-game: counted no more from Game 2 on (RULING C-2).
    value_table = pat.locator("#value-table tbody tr").filter(has_text="Iron Sepulchre").locator("td")
    expect(value_table).to_have_text(["110", "90", "90", "90", "90"])
    for chart in ("#standings-chart svg", "#value-chart svg"):
        expect(pat.locator(chart)).to_be_visible()
    assert pat.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    found = violations(pat)
    assert not found, f"{len(found)} axe-core violation(s) on the statistics page:\n" + "\n".join(found)
