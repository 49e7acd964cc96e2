"""The last polish of the dice log, tracker and post-game wizard pages, as their HTML says it (the layout itself is
checked in Chromium at 390 px: tests/browser/test_phone_polish.py).

- The same breadcrumb as every other page: "›" between the steps, the page itself last.
- Stacked tables put a cell of several parts in one `.cell-value` box; a card's title carries no column name.
- The tracker's buttons say "Damage" (the name is for screen readers), so a row of them stays even.
- In a Fallout: Factions campaign the default Trauma Table is named for what it is, Trench Crusade's, and its words
  are given in the campaign's own.
"""

import re

import pytest
from django.urls import reverse

from campaigns.services.campaigns import campaign_update
from combat.models import DiceRoll
from combat.services.post_game_switches import campaign_set_post_game_switches
from combat.tests.post_game_helpers import enter, record_game
from combat.tests.tracker_helpers import setup_game

pytestmark = pytest.mark.django_db

BREADCRUMB = re.compile(r'<nav class="breadcrumb" aria-label="Breadcrumb">(.*?)</nav>', re.S)


def breadcrumb(html: str) -> str:
    found = BREADCRUMB.findall(html)
    assert len(found) == 1, f"{len(found)} breadcrumbs"
    return found[0]


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


@pytest.fixture
def after(campaign, warband, rival_warband, make_fighter):
    troop = make_fighter(warband, "Yeoman Kell")
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[troop, marcus]
    )
    after.fighters = {"troop": troop, "marcus": marcus}
    return after


def wizard(after, name="post_game"):
    return reverse(name, args=[after.game.pk, after.player.warband_id])


# -- the tracker --------------------------------------------------------------------------------------------


def test_the_tracker_pages_share_the_breadcrumb(client, table, player):
    client.force_login(player)
    game = table.game
    for path, here in (
        (f"/games/{game.pk}/tracker/", "Tracker"),
        (f"/games/{game.pk}/tracker/fighters/{table['Brick'].pk}/", "Brick"),
        (f"/games/{game.pk}/tracker/end/", "End of game"),
    ):
        trail = breadcrumb(client.get(path).content.decode())
        assert f'<a href="/games/{game.pk}/">Game 1</a>' in trail, path
        assert "›" in trail, path
        assert "·" not in trail, path
        assert trail.rstrip().endswith(f'<span aria-current="page">{here}</span>'), path


def test_a_fighter_s_damage_button_says_damage_and_tells_a_screen_reader_whose(client, table, player):
    client.force_login(player)
    # Brick at full strength is one line on the board: his card opened.
    board = client.get(f"/games/{table.game.pk}/tracker/", {"open": table["Brick"].pk}).content.decode()
    brick = f"/games/{table.game.pk}/tracker/fighters/{table['Brick'].pk}/"
    assert f'<a class="button small" href="{brick}" aria-label="Damage Brick">Damage</a>' in board


def test_the_end_of_the_game_speaks_of_crews_in_fallout_factions(client, table, player):
    client.force_login(player)
    board = client.get(f"/games/{table.game.pk}/tracker/").content.decode()
    assert "then each crew's post-game starts." in board
    end = client.get(f"/games/{table.game.pk}/tracker/end/").content.decode()
    assert "then each crew's post-game starts." in end


# -- the dice log -------------------------------------------------------------------------------------------


def test_a_roll_s_card_opens_with_what_it_was_for_and_its_game_in_one_box(
    client, player, campaign, warband, rival_warband
):
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    DiceRoll.objects.create(
        campaign=campaign,
        game=after.game,
        warband=warband,
        source="entered",
        sides=6,
        faces=[4],
        purpose="survival",
        label="Yeoman Kell: Survival Roll D6 4",
    )
    client.force_login(player)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    assert (
        '<td class="primary"><div class="roll-what-for"><span class="roll-purpose">Survival Roll</span>'
        in html
    )
    assert 'data-label="What for"' not in html
    assert re.search(
        r'<td data-label="Game"><div class="cell-value">Game 1 <span class="muted small">· Iron', html
    )


def test_the_dice_log_s_filters_fold_away_until_one_is_on(client, player, campaign, warband, rival_warband):
    record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    client.force_login(player)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    assert '<details class="card history-filters-box">' in html
    filtered = client.get(reverse("campaign_dice_log", args=[campaign.pk]), {"game": 1}).content.decode()
    assert '<details class="card history-filters-box" open>' in filtered
    assert '<summary>Filter <span class="badge">on</span></summary>' in filtered


# -- the post-game wizard -----------------------------------------------------------------------------------


def test_the_wizard_s_breadcrumb_and_overview_link(client, after, player):
    client.force_login(player)
    html = client.get(wizard(after, "post_game_troops")).content.decode()
    trail = breadcrumb(html)
    assert "›" in trail
    assert "·" not in trail
    assert trail.rstrip().endswith('<span aria-current="page">Post-game</span>')
    assert f'<a class="tap" href="{wizard(after)}?watch=1">Overview</a>' in html


def test_the_experience_table_keeps_each_xp_line_in_one_box(client, after, player):
    enter(after, after.fighters["troop"], 4, by=player)
    enter(after, after.fighters["marcus"], 4, 1, by=player)
    client.force_login(player)
    html = client.get(wizard(after, "post_game_experience")).content.decode()
    row = html[html.index(f'id="xp-{after.fighters["marcus"].pk}"') :]
    row = row[: row.index("</tr>")]
    assert '<td class="primary"><span class="fighter-name">Brother Marcus</span>' in row
    assert re.search(
        r'<td data-label="XP"><div class="cell-value"><strong class="num nowrap">3 → 4</strong>\s*'
        r'<span class="small muted xp-words">',
        row,
    )


def test_a_fallout_campaign_s_trauma_step_names_the_table_and_gives_its_words(
    client, after, player, organiser, campaign
):
    campaign_update(campaign=campaign, by=organiser, preset="fallout_factions")
    # Fallout: Factions' own post-game has no Trauma Step: the organiser switches Trench Crusade's on (a house rule).
    campaign_set_post_game_switches(
        campaign=campaign, on=["trauma", "harsh-lessons", "injuries"], by=organiser
    )
    enter(after, after.fighters["troop"], 4, by=player)
    client.force_login(player)
    html = client.get(wizard(after, "post_game_elites")).content.decode()
    assert "looked up on the Trauma Table (Trench Crusade v1.0):" in html
    assert "Trench Crusade campaign rules" not in html
    assert "in Fallout: Factions, read ducats as caps, Strongbox as Stash, Battlekit as Equipment" in html
    # A ransom is asked in the campaign's currency.
    enter(after, after.fighters["marcus"], 1, 2, by=player)
    html = client.get(wizard(after, "post_game_elites")).content.decode()
    assert "Ransom (caps)" in html
    assert "ducats" not in html.replace("read ducats as caps", "")


def test_a_trench_crusade_campaign_s_trauma_step_needs_no_word_list(client, after, player):
    enter(after, after.fighters["troop"], 4, by=player)
    client.force_login(player)
    html = client.get(wizard(after, "post_game_elites")).content.decode()
    assert "looked up on the Trauma Table (Trench Crusade v1.0):" in html
    assert "read ducats as" not in html
