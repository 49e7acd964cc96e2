"""rosters/history/net.py: the events of a `net` context folded per row into what changed in the end."""

import datetime as dt

from rosters.history.net import net_rows
from rosters.history.registry import EventRow

AT = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
NET = {"action": "post_game.correct", "net": True, "roll": [1, 2]}


def row(pgh_id, label, obj_id, data, prev=None, *, context=NET, src=1):
    return EventRow(src, pgh_id, AT, label, obj_id, context, data, prev)


def test_a_row_changed_and_changed_back_says_nothing():
    rows = [
        row(2, "update", 7, {"xp": 4}, {"xp": 3}),
        row(1, "update", 7, {"xp": 3}, {"xp": 4}),
    ]  # newest first
    assert net_rows(rows) == []


def test_a_row_changed_twice_is_one_change_from_first_to_last():
    rows = [row(2, "update", 7, {"xp": 1}, {"xp": 3}), row(1, "update", 7, {"xp": 3}, {"xp": 4})]
    (only,) = net_rows(rows)
    assert (only.label, only.prev, only.data) == ("update", {"xp": 4}, {"xp": 1})


def test_a_row_recreated_then_removed_again_says_nothing_and_a_removal_stays():
    rows = [
        row(3, "delete", 8, {"id": 8, "name": "Rifle"}),
        row(2, "update", 8, {"id": 8, "name": "Rifle"}, {"id": 8, "name": "Rifle"}),
        row(1, "insert", 8, {"id": 8, "name": "Rifle"}),
        row(4, "delete", 9, {"id": 9, "name": "Club"}),
    ]
    assert [(r.label, r.obj_id) for r in net_rows(rows)] == [("delete", 9)]


def test_an_equal_row_removed_and_inserted_under_a_new_id_cancels_out():
    rows = [
        row(2, "insert", 21, {"id": 21, "code": "dark_memory", "fighter_id": 5, "created_at": "b"}),
        row(1, "delete", 20, {"id": 20, "code": "dark_memory", "fighter_id": 5, "created_at": "a"}),
        row(0, "delete", 19, {"id": 19, "code": "hand_wound", "fighter_id": 4, "created_at": "a"}),
    ]
    assert [(r.label, r.obj_id) for r in net_rows(rows)] == [("delete", 19)]


def test_events_outside_a_net_context_are_kept_as_they_are():
    plain = {"action": "post_game.apply"}
    rows = [
        row(2, "update", 7, {"xp": 4}, {"xp": 3}, context=plain),
        row(1, "update", 7, {"xp": 3}, {"xp": 4}, context=plain),
    ]
    assert net_rows(rows) == rows
