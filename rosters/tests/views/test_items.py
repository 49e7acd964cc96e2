"""Editing a piece of Battlekit from where it was opened."""

import re

import pytest

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


def test_editing_battlekit_from_a_fighter_card_cancels_back_to_the_card(as_player, world):
    """Cancel always went to the roster, even from the fighter's card; the breadcrumb skipped the campaign; the
    'can be removed' box sat alone under its label instead of beside its words."""
    card = f"/fighters/{world.anselm.pk}/"
    html = as_player.get(f"/items/{world.sword.pk}/edit/?next={card}").content.decode()
    assert f'<a class="button secondary" href="{card}">Cancel</a>' in html
    assert f'<a href="/campaigns/{world.campaign.pk}/">The Long Trench</a>' in html
    assert f'<a href="{card}">Brother Anselm</a>' in html
    assert re.search(
        r'<label class="check" for="id_removable"><input[^>]+> Can be removed from the model</label>', html
    )
    elsewhere = as_player.get(f"/items/{world.relic.pk}/edit/?next=https://evil.example/").content.decode()
    assert f'href="/warbands/{world.warband.pk}/#arsenal">Cancel</a>' in elsewhere


def test_a_refused_new_battlekit_keeps_the_holder_chosen(as_player, world):
    """The Add form sent back with an error still has the fighter it was for selected, and no other."""
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/new/", {"name": "", "holder": str(world.anselm.pk)}
    )
    assert response.status_code == 422
    html = response.content.decode()
    start = html.index('id="add-item-holder"')
    holders = html[start : html.index("</select>", start)]
    assert f'<option value="{world.anselm.pk}" selected>Brother Anselm</option>' in holders
    assert holders.count(" selected") == 1
