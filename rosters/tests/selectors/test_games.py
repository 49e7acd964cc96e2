"""A game page's reads: who was taken Out of Action."""

import pytest

from rosters.selectors import games as game_selectors

pytestmark = pytest.mark.django_db


def test_a_game_page_lists_who_was_out_of_action(campaign, played):
    game = campaign.games.get(number=1)
    page = game_selectors.game_page(game=game)
    assert [[m.fighter.name for m in p.out_of_action.all()] for p in page.players] == [["Brother Anselm"], []]
    assert game_selectors.out_of_action_ids(game=game) == {played.warband_id: {played.pk}}
