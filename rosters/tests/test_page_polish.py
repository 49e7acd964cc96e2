"""The last polish of the roster, campaign and history pages, as their HTML says it (the layout itself is checked
in Chromium at 390 px: tests/browser/test_phone_polish.py).

- One breadcrumb on every page: `<nav class="breadcrumb">`, "›" between the steps, the page itself last.
- Read-only roster tables (as of a game, shared) put a cell of several parts in one `.cell-value` box.
- A link that stands alone is a 44 px tap target (`a.tap`).
- Only what cannot be undone asks first (PRODUCT.md: "confirmation dialogs only where undo cannot exist").
- The default Trauma Table is named for what it is, never as a Fallout: Factions campaign's rules.
"""

import re

import pytest
from django.urls import reverse

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
