""" "Pilgrims's". A warband or fighter name that ends in s takes only the apostrophe on the post-game's
pages, the feed and the dashboard (`possessive`, combat/rules/words.py)."""

import pytest
from django.urls import reverse

from campaigns.models import GamePlayer
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_offer_ransom
from combat.tests.post_game_helpers import enter, record_game
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def pilgrims(campaign, warband, rival_warband, make_fighter, player):
    """The player's warband is called Pilgrims; its Brother Marcus is Captured in Game 1."""
    warband.name = "Pilgrims"
    warband.save()
    rival_warband.name = "The Heretics"
    rival_warband.save()
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[marcus]
    )
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    after.marcus = marcus
    return after


def page(client, after, name) -> str:
    return client.get(reverse(name, args=[after.game.pk, after.player.warband_id])).content.decode()


def test_the_post_game_pages_write_pilgrims_apostrophe(client, pilgrims, player):
    client.force_login(player)
    for name in ("post_game_out_of_action", "post_game_elites", "post_game_review"):
        content = page(client, pilgrims, name)
        assert "Pilgrims&#x27;s" not in content, name
        assert "Pilgrims&#x27; " in content, name


def test_the_offer_and_its_refusal_write_pilgrims_apostrophe(client, pilgrims, player):
    client.force_login(player)
    response = client.post(
        reverse("post_game_ransom", args=[pilgrims.game.pk, pilgrims.player.warband_id]),
        {"fighter": pilgrims.marcus.pk, "paid": "yes", "ransom": "500"},
    )
    assert "Pilgrims&#x27; Strongbox holds only 50 ducats" in response.content.decode()


def test_the_feed_and_the_dashboard_write_pilgrims_apostrophe(client, pilgrims, player, player2):
    post_game_offer_ransom(
        player=pilgrims.player, fighter_id=pilgrims.marcus.pk, paid=True, ransom=5, by=player
    )
    entry = GamePlayer.objects.get(pk=pilgrims.player.pk)
    entry.result = GamePlayer.Result.DRAW
    entry.save()
    found = sentences(pilgrims.game.campaign)
    assert any(sentence.startswith("Pilgrims' result in Game 1: loss → draw") for sentence in found)
    assert any("as Brother Marcus' ransom" in sentence for sentence in found)
    assert not [sentence for sentence in found if "s's " in sentence]

    client.force_login(player)
    board = client.get(reverse("dashboard")).content.decode()
    assert "Brother Marcus&#x27; ransom (Game 1): 5 ducats offered to The Heretics" in board
