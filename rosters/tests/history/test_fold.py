"""rosters/history/entries.py `fold`: a run of one folded action's transaction becomes one fold; a lone line, a
line of another action or of another moment is not folded in."""

import datetime as dt

from rosters.history.entries import Change, GameRef, HistoryEntry, HistoryFold, fold
from rosters.history.sources import Cursor

AT = dt.datetime(2026, 12, 2, 9, 0, tzinfo=dt.UTC)
GAME = GameRef(id=7, number=3)


def entry(
    pgh_id: int, action: str | None, *, at: dt.datetime = AT, game: GameRef | None = GAME
) -> HistoryEntry:
    return HistoryEntry(
        cursor=Cursor(at=at, rank=3, pgh_id=pgh_id),
        source="fighter",
        label="update",
        obj_id=pgh_id,
        at=at,
        context={},
        data={},
        prev=None,
        who="Pat",
        action=action,
        game=game,
        changes=[Change(kind="xp", text=f"line {pgh_id}", sentence=f"line {pgh_id}")],
    )


def test_a_revert_run_folds_and_the_lines_around_it_do_not():
    before, one, two, after = (
        entry(1, "post_game.apply"),
        entry(2, "post_game.revert"),
        entry(3, "post_game.revert"),
        entry(4, None),
    )
    items = fold([before, one, two, after])

    assert items[0] is before
    assert items[2] is after
    assert items[1] == HistoryFold(action="post_game.revert", entries=[one, two])
    assert items[1].title == "Post-game of Game 3 undone by Pat: 2 changes taken back"
    assert [change.text for change in items[1].changes] == ["line 2", "line 3"]


def test_a_lone_revert_line_stays_a_line():
    lone = entry(1, "post_game.revert")
    assert fold([lone]) == [lone]


def test_two_reverts_at_two_moments_are_two_folds():
    later = AT + dt.timedelta(minutes=5)
    first = [entry(1, "post_game.revert"), entry(2, "post_game.revert")]
    second = [entry(3, "post_game.revert", at=later), entry(4, "post_game.revert", at=later)]

    items = fold(first + second)

    assert [item.entries for item in items] == [first, second]


def test_a_revert_of_another_game_is_not_folded_in():
    other = GameRef(id=8, number=4)
    items = fold([entry(1, "post_game.revert"), entry(2, "post_game.revert", game=other)])
    assert items == [items[0], items[1]]
    assert not any(item.folded for item in items)


def test_one_change_is_said_in_the_singular():
    run = HistoryFold(action="post_game.revert", entries=[entry(1, "post_game.revert")])
    assert run.title == "Post-game of Game 3 undone by Pat: 1 change taken back"
    nameless = HistoryFold(action="post_game.revert", entries=[entry(1, "post_game.revert", game=None)])
    assert nameless.title.startswith("A post-game undone by Pat")
