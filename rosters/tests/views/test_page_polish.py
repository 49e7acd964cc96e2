"""The last polish of the roster, campaign and history pages, as their HTML says it (the layout itself is checked
in Chromium at 390 px: tests/browser/test_phone_polish.py).

- One breadcrumb on every page: `<nav class="breadcrumb">`, "›" between the steps, the page itself last.
- Read-only roster tables (as of a game, shared) put a cell of several parts in one `.cell-value` box.
- A link that stands alone is a 44 px tap target (`a.tap`).
- Only what cannot be undone asks first (docs/architecture.md: "confirmation dialogs only where undo cannot exist").
- The default Trauma Table is named for what it is, never as a Fallout: Factions campaign's rules.
"""

import re

import pytest
from django.urls import reverse

from campaigns.services.campaigns import campaign_update
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services

pytestmark = pytest.mark.django_db

BREADCRUMB = re.compile(r'<nav class="breadcrumb" aria-label="Breadcrumb">(.*?)</nav>', re.S)


def breadcrumb(html: str) -> str:
    found = BREADCRUMB.findall(html)
    assert len(found) == 1, f"{len(found)} breadcrumbs"
    return found[0]


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def test_every_roster_and_history_page_has_the_same_breadcrumb(as_organiser, world):
    pages = [
        reverse("warband_detail", args=[world.warband.pk]),
        reverse("warband_edit", args=[world.warband.pk]),
        reverse("warband_create", args=[world.campaign.pk]),
        reverse("warband_import", args=[world.campaign.pk]),
        reverse("fighter_detail", args=[world.anselm.pk]),
        reverse("fighter_edit", args=[world.anselm.pk]),
        reverse("fighter_create", args=[world.warband.pk]),
        reverse("item_edit", args=[world.sword.pk]),
        reverse("game_detail", args=[world.game.pk]),
        reverse("game_edit", args=[world.game.pk]),
        reverse("game_create", args=[world.campaign.pk]),
        reverse("campaign_settings", args=[world.campaign.pk]),
        reverse("campaign_share", args=[world.campaign.pk]),
        reverse("campaign_history", args=[world.campaign.pk]),
        reverse("warband_history", args=[world.warband.pk]),
        reverse("fighter_history", args=[world.anselm.pk]),
        reverse("warband_as_of", args=[world.warband.pk, world.game.pk]),
        reverse("campaign_dice_log", args=[world.campaign.pk]),
    ]
    for path in pages:
        response = as_organiser.get(path)
        assert response.status_code == 200, path
        trail = breadcrumb(response.content.decode())
        assert f'<a href="/campaigns/{world.campaign.pk}/">The Long Trench</a>' in trail, path
        assert "›" in trail, path
        assert "·" not in trail, path
        assert re.search(r'<span aria-current="page">[^<]+</span>\s*$', trail), path


def test_the_roster_as_of_a_game_stacks_each_cell_s_parts_in_one_box(as_player, world):
    html = as_player.get(reverse("warband_as_of", args=[world.warband.pk, world.game.pk])).content.decode()
    row = html[html.index(f'id="as-of-fighter-{world.anselm.pk}"') :]
    row = row[: row.index("</tr>")]
    # The fighter's name is the card's title (no column name beside it), its ELITE badge beside the name.
    assert '<td class="primary"><span class="fighter-name">Brother Anselm</span>' in row
    assert 'data-label="Fighter"' not in row
    assert '<span class="badge elite">ELITE</span>' in row
    for label, part in (
        ("Injuries", '<span class="tag">Hand Wound</span>'),
        ("Battlekit", '<span class="tag">Trench Sword</span>'),
        ("Status", '<span class="badge ok">Active</span>'),
    ):
        assert re.search(rf'<td data-label="{label}"><div class="cell-value">[^\n]*{re.escape(part)}', row), (
            label
        )
    # The fighters already off the roster then print with it: their fold is marked to print open.
    assert '<details class="print-open">' in html
    assert "Off the roster (1)" in html


def test_lone_links_on_the_history_pages_are_tap_targets(as_player, world):
    campaign_history = as_player.get(reverse("campaign_history", args=[world.campaign.pk])).content.decode()
    assert f'<a class="tap" href="/games/{world.game.pk}/">Game 1</a>' in campaign_history
    warband_history = as_player.get(reverse("warband_history", args=[world.warband.pk])).content.decode()
    as_of = reverse("warband_as_of", args=[world.warband.pk, world.game.pk])
    assert f'<a class="tap" href="{as_of}">After Game 1</a>' in warband_history
    latest = as_player.get(reverse("campaign_history", args=[world.campaign.pk]) + "?part=latest")
    assert ">The whole history</a>" in latest.content.decode()
    assert '<a class="tap" href="/campaigns/' in latest.content.decode()
    campaign_page = as_player.get(reverse("campaign_detail", args=[world.campaign.pk])).content.decode()
    dice_log = reverse("campaign_dice_log", args=[world.campaign.pk])
    assert f'<a class="tap" href="{dice_log}">Dice log</a>' in campaign_page


# -- confirmation only where undo cannot exist --------------------------------------------------------------


def test_deleting_a_game_asks_first_and_says_it_cannot_be_undone(as_organiser, world):
    html = as_organiser.get(reverse("game_detail", args=[world.game.pk])).content.decode()
    delete = html[html.index(f'action="/games/{world.game.pk}/delete/"') :]
    delete = delete[: delete.index(">")]
    assert 'data-confirm="Delete Game 1?' in delete
    assert "this cannot be undone" in delete


def test_removing_a_member_asks_first(as_organiser, world, player):
    html = as_organiser.get(reverse("campaign_settings", args=[world.campaign.pk])).content.decode()
    assert 'data-confirm="Remove pat_player from The Long Trench?' in html
    # Changing a role can be changed back: it does not ask.
    assert html.count("data-confirm=") == 4  # the four members' Remove buttons, nothing else


def test_going_back_to_the_default_trauma_table_asks_first(as_organiser, world):
    as_organiser.post(f"/campaigns/{world.campaign.pk}/settings/trauma-table/", {"action": "copy"})
    html = as_organiser.get(reverse("campaign_settings", args=[world.campaign.pk])).content.decode()
    form = html[: html.index('value="default"')]
    form = form[form.rindex("<form") :]
    assert 'data-confirm="Go back to the default Trauma Table?' in form
    assert "this cannot be undone" in form


def test_deleting_arsenal_battlekit_asks_first_moving_it_does_not(as_player, world):
    html = as_player.get(reverse("warband_detail", args=[world.warband.pk])).content.decode()
    remove = html[html.index(f'formaction="/items/{world.relic.pk}/delete/"') :]
    remove = remove[: remove.index("</button>")]
    assert 'data-confirm="Take Holy Relic off the roster for good?' in remove
    # Besides it, only Disband asks: it has no undo. Moving and selling Battlekit ask nothing.
    assert html.count("data-confirm=") == 2
    assert 'data-confirm="Disband Iron Sepulchre?' in html


def test_taking_a_fighter_off_asks_only_when_its_battlekit_is_lost(as_player, world, warband, player):
    card = as_player.get(reverse("fighter_detail", args=[world.anselm.pk])).content.decode()
    assert (
        'data-confirm-if="battlekit=lost" data-confirm="Take Brother Anselm off the roster with its Battlekit lost?'
    ) in card
    assert "Lost Battlekit does not come back." in card
    # With no Battlekit there is nothing to lose, and putting the fighter back is the undo: no question.
    bare = fighter_services.fighter_create(warband=warband, by=player, name="Pilgrim Hale")
    assert "data-confirm" not in as_player.get(reverse("fighter_detail", args=[bare.pk])).content.decode()


def test_names_in_a_confirmation_cannot_break_out_of_it(as_player, world, warband, player):
    battlekit_services.item_create(warband=warband, name='Saint\'s "Relic" </script>', by=player)
    html = as_player.get(reverse("warband_detail", args=[world.warband.pk])).content.decode()
    # Inside an HTML attribute the name is escaped: its quotes and brackets cannot end the attribute or the tag.
    assert 'data-confirm="Take Saint&#x27;s &quot;Relic&quot; &lt;/script&gt; off the roster' in html


# -- the default Trauma Table in a Fallout: Factions campaign ------------------------------------------------


def test_a_fallout_campaign_names_the_default_table_as_trench_crusade_s(as_organiser, world, organiser):
    campaign_update(campaign=world.campaign, by=organiser, preset="fallout_factions")
    settings = as_organiser.get(reverse("campaign_settings", args=[world.campaign.pk])).content.decode()
    assert "Trench Crusade campaign rules" not in settings
    assert "the Trauma Table (Trench Crusade v1.0, with the 1.0.2 changes)" in settings
    assert "in Fallout: Factions, read ducats as caps, Strongbox as Stash, Battlekit as Equipment" in settings
    page = as_organiser.get(reverse("campaign_detail", args=[world.campaign.pk])).content.decode()
    assert "the Trauma Table (Trench Crusade v1.0)" in page


def test_a_trench_crusade_campaign_needs_no_word_list(as_organiser, world):
    settings = as_organiser.get(reverse("campaign_settings", args=[world.campaign.pk])).content.decode()
    assert "the Trauma Table (Trench Crusade v1.0, with the 1.0.2 changes)" in settings
    assert "read ducats as" not in settings


def test_a_game_being_played_shows_its_story_so_far_unfolded(
    as_player, warband, rival_warband, player, make_fighter
):
    from combat.services.tracker.board import tracker_start
    from combat.services.tracker.damage import tracker_apply_damage

    # Damage against Endurance is Fallout: Factions' (seed 000): a Trench Crusade board marks Out of Action instead.
    warband.campaign.preset = "fallout_factions"
    warband.campaign.save(update_fields=["preset"])
    brick = make_fighter(warband, "Brick", endurance=6, health=3)
    game = game_services.game_start(
        campaign=warband.campaign, by=player, played_on="2026-06-01", warbands=[warband, rival_warband]
    )
    tracker = tracker_start(game=game, by=player)
    tracker_apply_damage(game=game, target_id=brick.pk, damage=2, by=player, version=tracker.version)
    html = as_player.get(reverse("warband_as_of", args=[warband.pk, game.pk])).content.decode()
    assert "The tracker&#x27;s actions so far are in the story below." in html
    assert "<details open>\n      <summary>Every change, one by one</summary>" in html
