"""The changed poll's selector (combat/selectors/tracker_poll.py, `board_changes`): a fixed number of queries
whatever the crews' size and however many cards changed, and only the changed fighters on the board it returns."""

import pytest

from combat.models import TrackerGame
from combat.selectors.tracker import tracker_board
from combat.selectors.tracker_poll import board_changes
from combat.services.tracker.board import tracker_undo
from combat.services.tracker.fatigue import tracker_adjust_fatigue
from combat.tests.tracker_helpers import crews_of
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("changed", [1, 10])
def test_it_reads_the_changed_cards_in_one_query(
    campaign, player, player2, changed, django_assert_num_queries
):
    game, _ = crews_of(10, campaign=campaign, player=player, player2=player2)
    layout = tracker_board(game=game).layout
    fighters = Fighter.objects.filter(warband__game_entries__game=game).order_by("pk")[:changed]
    for version, fighter in enumerate(fighters):
        tracker_adjust_fatigue(game=game, target_id=fighter.pk, change=1, by=player2, version=version)
    # The board with its rows (their fighters and crews) and its log, in one round trip.
    with django_assert_num_queries(1):
        changes = board_changes(game=game, since="0", layout=layout, viewer=player)
    board = changes.board
    cards = [card for crew in board.crews for card in crew.fighters]
    assert sorted(card.id for card in cards) == sorted(fighter.pk for fighter in fighters)
    assert all(card.tracked.fatigue == 1 for card in cards)
    assert board.version == changed
    assert len(board.log) == changed
    assert changes.whole_log  # the page at version 0 had no log yet


def test_it_lists_the_log_entries_the_page_lacks_and_those_that_read_otherwise(campaign, player, player2):
    game, target = crews_of(2, campaign=campaign, player=player, player2=player2)
    layout = tracker_board(game=game).layout
    for version, change in enumerate((1, -1, 1)):
        tracker_adjust_fatigue(game=game, target_id=target.pk, change=change, by=player2, version=version)
    tracker_undo(
        game=game, by=player2, version=3
    )  # the third (version 3) undone: the second is the last again
    changes = board_changes(game=game, since="2", layout=layout)
    assert [action.version for action in changes.added] == [3]
    assert changes.redrawn == []  # the page showed the Undo on the second, and it is there again
    assert changes.board.last_action.version == 2
    changes = board_changes(game=game, since="3", layout=layout)
    assert changes.added == []
    assert [action.version for action in changes.redrawn] == [2, 3]  # the Undo back on 2; 3 undone


def test_it_answers_none_when_the_board_is_ended(campaign, player, player2):
    game, target = crews_of(2, campaign=campaign, player=player, player2=player2)
    layout = tracker_board(game=game).layout
    tracker_adjust_fatigue(game=game, target_id=target.pk, change=1, by=player2, version=0)
    assert board_changes(game=game, since="0", layout=layout) is not None
    TrackerGame.objects.filter(game=game).update(ended_at="2026-11-30T20:00:00Z")
    assert board_changes(game=game, since="0", layout=layout) is None
