"""Use Glory told in the history (combat/history/post_game.py): each spend of an applied post-game is its own line
beside the Glory's change (CAMPAIGN_PHASE.md step 7), and a revert tells the Glory given back."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.revert import post_game_revert
from combat.tests.money_helpers import glory_opening_entry, spend
from combat.tests.post_game_helpers import record_game
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_each_spend_is_told_and_the_glory_change_with_them(campaign, warband, rival_warband, marcus, player):
    glory_opening_entry(warband, 10)
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=4)
    spend(after, player, "item", "Saint's Finger", 4, holder=marcus)
    spend(after, player, "benefit", "Vow", 2, benefit="a vow of silence")
    post_game_apply(player=after.player, by=player)

    # Told with the post-game's other results (the games' kind), the Glory's own change with the Strongbox's.
    found = sentences(campaign, kind="games")
    told = [sentence for sentence in found if sentence.startswith("Use Glory: ")]
    assert len(told) == 2, found
    assert told[0].startswith("Use Glory: Glory Item Saint's Finger for 4 Glory (Brother Marcus)"), found
    assert told[1].startswith("Use Glory: Vow for 2 Glory: a vow of silence"), found
    boxes = sentences(campaign, kind="strongbox")
    assert any(sentence.startswith("Iron Sepulchre: Glory 10 → 4") for sentence in boxes), boxes

    post_game_revert(player=after.player, by=player)
    assert any(
        sentence.startswith("Iron Sepulchre: Glory 4 → 10")
        for sentence in sentences(campaign, kind="strongbox")
    )
