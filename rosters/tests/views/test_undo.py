"""The roster's Undo offer rides in its URL, signed: showing it writes nothing, and no one can forge one."""

import pytest
from django.core import signing

from rosters.tests.views.test_reads_write_nothing import every_table
from rosters.views import undo

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


def remove_anselm(as_player, world) -> str:
    response = as_player.post(
        f"/fighters/{world.anselm.pk}/remove/", {"status": "retired", "battlekit": "lost"}
    )
    assert response.status_code == 302
    return response["Location"]


def test_the_roster_showing_the_offer_writes_nothing(as_player, world):
    location = remove_anselm(as_player, world)
    assert location.startswith(f"/warbands/{world.warband.pk}/?undo=")
    before = every_table()

    html = as_player.get(location).content.decode()

    assert 'id="undo"' in html
    assert "Lost: Trench Sword." in html
    assert every_table() == before


def test_a_forged_or_tampered_offer_shows_nothing(as_player, world):
    location = remove_anselm(as_player, world)
    forged = signing.dumps(
        {"warband": world.warband.pk, "fighter": world.anselm.pk, "name": "X"}, salt="other"
    )
    for url in (f"/warbands/{world.warband.pk}/?undo={forged}", location.replace("?undo=", "?undo=x")):
        assert 'id="undo"' not in as_player.get(url).content.decode(), url


def test_an_offer_for_one_warband_shows_nothing_on_another(client, player2, as_player, world):
    token = remove_anselm(as_player, world).split("?undo=")[1].split("#")[0]
    client.force_login(player2)
    html = client.get(f"/warbands/{world.rival.pk}/?undo={token}").content.decode()
    assert 'id="undo"' not in html


def test_a_stale_offer_shows_nothing(as_player, world, monkeypatch):
    location = remove_anselm(as_player, world)
    monkeypatch.setattr(undo, "MAX_AGE_SECONDS", -1)
    assert 'id="undo"' not in as_player.get(location).content.decode()
