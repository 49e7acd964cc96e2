"""Tests for combat/rules/xp_track.py: the printed card's XP boxes (CAMPAIGN_PHASE.md, Experience and
Advancement: 2, 4, 7, 10, 14 and 18 XP each give a Skill Advancement Roll)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules.campaign_advancement import ADVANCEMENT_XP
from combat.rules.xp_track import XP_TRACK_MOST, XpBox, xp_track


def test_a_new_fighter_sees_two_thresholds_ahead():
    boxes = xp_track(0)
    assert [b.xp for b in boxes] == [1, 2, 3, 4]
    assert not any(b.ticked for b in boxes)
    assert [b.xp for b in boxes if b.threshold] == [2, 4]


def test_ticked_up_to_the_xp_and_on_to_the_second_threshold_above():
    boxes = xp_track(5)
    assert len(boxes) == 10  # thresholds above 5: 7 and 10
    assert [b.xp for b in boxes if b.ticked] == [1, 2, 3, 4, 5]
    assert [b.xp for b in boxes if b.threshold] == [2, 4, 7, 10]


def test_one_threshold_left_runs_to_it():
    boxes = xp_track(15)
    assert len(boxes) == 18
    assert boxes[-1].threshold
    assert not boxes[-1].ticked


def test_past_the_last_threshold_a_few_boxes_beyond():
    boxes = xp_track(18)
    assert len(boxes) == 20
    assert sum(b.ticked for b in boxes) == 18


def test_never_more_boxes_than_a_card_holds():
    boxes = xp_track(500)
    assert len(boxes) == XP_TRACK_MOST
    assert all(b.ticked for b in boxes)


def test_negative_xp_is_refused():
    with pytest.raises(ValueError, match="negative"):
        xp_track(-1)


@given(st.integers(min_value=0, max_value=10_000))
def test_the_track_is_ticked_then_empty_and_marks_only_thresholds(xp):
    boxes = xp_track(xp)
    ticks = [b.ticked for b in boxes]
    assert ticks == sorted(ticks, reverse=True)  # ticked boxes first, then empty ones
    assert sum(ticks) == min(xp, len(boxes))
    assert all(b.threshold == (b.xp in ADVANCEMENT_XP) for b in boxes)
    assert [b.xp for b in boxes] == list(range(1, len(boxes) + 1))
    if xp < XP_TRACK_MOST:
        assert any(not b.ticked for b in boxes)  # room to tick the next XP


def test_one_threshold_ahead_of_a_new_fighter_is_two_boxes():
    # the first Skill Advancement Roll is at 2 XP, so a track one threshold ahead of 0 XP has 2 boxes.
    assert xp_track(0, ahead=1) == (XpBox(1, False, False), XpBox(2, False, True))
