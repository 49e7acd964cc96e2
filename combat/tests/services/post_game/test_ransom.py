"""combat/services/post_game/ransom.py: a Captured fighter's ransom (TRAUMA_TABLE.md 12), paid or not, and what
the Apply then moves between Strongboxes."""

import pytest

from campaigns.tests.history import last_context
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.tests.post_game_helpers import (
    casualty,
    enter,
    kit,
)
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


pytestmark = pytest.mark.django_db


def test_captured_and_ransomed_moves_ducats_and_counts_as_full_recovery(
    after, fighters, player, warband, rival_warband
):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    assert casualty(after, marcus).waiting_for == "ransom"
    with pytest.raises(PostGameError, match="ransom"):
        post_game_apply(player=after.player, by=player)

    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=20, by=player)
    post_game_apply(player=after.player, by=player)

    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    marcus.refresh_from_db()
    assert (warband.strongbox, rival_warband.strongbox) == (30, 50)
    assert marcus.status == Fighter.Status.ACTIVE
    assert marcus.battle_scars == 0  # RULING T-8: a paid ransom counts as Full Recovery
    assert kit(marcus) == ["Reliquary", "Trench Club"]


def test_the_apply_says_whose_ransom_moved_each_strongbox_in_its_history_context(
    after, fighters, player, warband, rival_warband
):
    marcus, ada = fighters["marcus"], fighters["ada"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk, ada.pk], by=player)
    enter(after, marcus, 1, 2, by=player)  # Captured
    enter(after, ada, 1, 2, by=player)  # Captured
    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=20, by=player)
    post_game_answer_ransom(player=after.player, fighter_id=ada.pk, paid=True, ransom=5, by=player)

    post_game_apply(player=after.player, by=player)

    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    assert (warband.strongbox, rival_warband.strongbox) == (25, 55)
    expected = {
        str(warband.pk): "ransom for Brother Marcus and Sister Ada",
        str(rival_warband.pk): "ransom for Brother Marcus and Sister Ada (from Iron Sepulchre)",
    }
    # The same context on both Strongbox changes, for the history feed (rosters.history) to read.
    for paying_or_receiving in (warband, rival_warband):
        context = last_context(paying_or_receiving)
        assert context["action"] == "post_game.apply"
        assert context["ransoms"] == expected


def test_a_ransom_of_nothing_and_an_unpaid_one_move_no_strongbox_and_say_no_ransom(
    after, fighters, player, warband
):
    marcus, ada = fighters["marcus"], fighters["ada"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk, ada.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    enter(after, ada, 1, 2, by=player)
    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=0, by=player)
    post_game_answer_ransom(player=after.player, fighter_id=ada.pk, paid=False, by=player)

    post_game_apply(player=after.player, by=player)

    context = last_context(marcus)  # ransomed for nothing: Full Recovery, and +1 XP for surviving
    assert context["action"] == "post_game.apply"
    assert "ransoms" not in context
    warband.refresh_from_db()
    assert warband.strongbox == 50


def test_captured_and_not_ransomed_is_executed(after, fighters, player, warband, rival_warband):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)

    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=False, by=player)
    post_game_apply(player=after.player, by=player)

    marcus.refresh_from_db()
    warband.refresh_from_db()
    assert marcus.status == Fighter.Status.EXECUTED
    assert kit(marcus) == []
    assert warband.strongbox == 50


def test_a_ransom_larger_than_the_strongbox_is_refused_and_changes_nothing(after, fighters, player, warband):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)

    with pytest.raises(PostGameError, match="holds only 50 ducats"):
        post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=51, by=player)

    assert casualty(after, marcus).waiting_for == "ransom"
    warband.refresh_from_db()
    assert warband.strongbox == 50
