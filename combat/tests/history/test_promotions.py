"""A promotion and a dismissal told in the history feed (rosters/history/roster_events.py): the Fighter events the
Apply writes read "promoted to ELITE" and "dismissed", in the campaign's words."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.dismiss import post_game_dismiss
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import assign, fresh_player, promotion_die
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_a_promotion_and_a_dismissal_read_as_such(campaign, warband, rival_warband, make_fighter, player):
    tom = make_fighter(warband, "Brother Tom", keywords=["PILGRIM"])
    ada = make_fighter(warband, "Sister Ada", elite=True, battle_scars=2)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    assign(after, player, {tom: 1})
    promotion_die(after, tom, 6, by=player)
    post_game_dismiss(player=fresh_player(after), by=player, fighter_ids=[ada.pk])
    post_game_apply(player=fresh_player(after), by=player)

    found = sentences(campaign)
    assert any(sentence.startswith("Brother Tom was promoted to ELITE") for sentence in found), found
    assert not any("gained ELITE" in sentence for sentence in found)
    assert any(sentence.startswith("Sister Ada was dismissed") for sentence in found), found
