"""combat/services/post_game/out_of_action.py: step 1, the Out of Action list corrected."""

import pytest

from campaigns.models import OutOfAction
from campaigns.tests.history import last_context
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.tests.post_game_helpers import (
    enter,
)

pytestmark = pytest.mark.django_db


pytestmark = pytest.mark.django_db


# -- Step 1: the Out of Action list ---------------------------------------------------------------------------------


def test_the_owner_corrects_the_out_of_action_list(after, fighters, warband, make_fighter, player):
    extra = make_fighter(warband, "Forgotten")
    post_game_set_out_of_action(player=after.player, fighter_ids=[fighters["marcus"].pk, extra.pk], by=player)

    marked = set(OutOfAction.objects.filter(player=after.player).values_list("fighter_id", flat=True))
    assert marked == {fighters["marcus"].pk, extra.pk}
    assert last_context(OutOfAction.objects.get(fighter=extra))["action"] == "post_game.out_of_action"


def test_a_fighter_already_rolled_for_stays_out_of_action(after, fighters, player):
    enter(after, fighters["troop"], 5, by=player)
    with pytest.raises(PostGameError, match="already rolled for Yeoman Kell"):
        post_game_set_out_of_action(player=after.player, fighter_ids=[fighters["marcus"].pk], by=player)
    assert OutOfAction.objects.filter(player=after.player).count() == 3


def test_a_fighter_of_another_warband_cannot_be_marked(after, rival_warband, make_fighter, player):
    stranger = make_fighter(rival_warband, "Stranger")
    with pytest.raises(PostGameError, match="not in Iron Sepulchre"):
        post_game_set_out_of_action(player=after.player, fighter_ids=[stranger.pk], by=player)
