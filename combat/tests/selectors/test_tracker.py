"""The board's reads (combat/selectors/tracker.py): which cards are drawn compact, and each card's outcomes worked
out once."""

import pytest

from combat.models import TrackerFighter
from combat.selectors import tracker as selectors
from combat.selectors.tracker import tracker_board
from combat.tests.tracker_helpers import damage

pytestmark = pytest.mark.django_db

# Each mark that takes a fighter off full strength, as the services set it.
MARKS = [
    {"harm": 1},
    {"injuries": 1},
    {"fatigue": 1},
    {"blood": 1},
    {"blessings": 1},
    {"down": True},
    {"tough_used": True},
    {"status": TrackerFighter.Status.FLED},
]


def board_fighter(table, name: str, viewer=None):
    return tracker_board(game=table.game, viewer=viewer).by_id[table[name].pk]


def test_a_fighter_untouched_is_at_full_strength_and_drawn_compact(table):
    vera = board_fighter(table, "Vera")
    assert vera.full_strength
    assert vera.compact


@pytest.mark.parametrize("mark", MARKS)
def test_any_mark_takes_a_fighter_off_full_strength(table, mark):
    TrackerFighter.objects.filter(tracker__game=table.game, fighter=table["Vera"]).update(**mark)
    vera = board_fighter(table, "Vera")
    assert not vera.full_strength
    assert not vera.compact


def test_a_unit_is_at_full_strength_with_every_model_and_no_health_point_lost(tc_table):
    assert board_fighter(tc_table, "The Choir").full_strength
    rows = TrackerFighter.objects.filter(tracker__game=tc_table.game, fighter=tc_table["The Choir"])
    rows.update(lost_hp=1)
    assert not board_fighter(tc_table, "The Choir").full_strength
    rows.update(lost_hp=0, models_left=2)
    assert not board_fighter(tc_table, "The Choir").full_strength


def test_an_opened_card_is_drawn_whole_and_a_picked_damage_opens_its_card(table):
    board = tracker_board(game=table.game)
    vera, kit, brick = (table[name].pk for name in ("Vera", "Kit", "Brick"))
    board.open_cards([vera, 123456789], picked={kit: "2"})
    fighters = board.by_id
    assert not fighters[vera].compact
    assert fighters[vera].full_strength  # still at full strength: opened, not marked
    assert not fighters[kit].compact
    assert fighters[kit].shown_choice.damage == 2
    assert fighters[brick].compact
    assert fighters[brick].shown_choice.damage == 1  # nothing picked: the first


def test_a_card_s_outcomes_are_worked_out_once_however_often_it_reads_them(table, monkeypatch, player2):
    damage(table, "Brick", 2, player2)
    calls = []
    real = selectors.damage_choices
    monkeypatch.setattr(
        selectors, "damage_choices", lambda fighter: calls.append(fighter.id) or real(fighter)
    )
    brick = board_fighter(table, "Brick")
    first = brick.damage_choices
    assert brick.damage_choices is first
    assert brick.shown_choice is first[0]
    assert calls == [table["Brick"].pk]


def test_the_status_badge_says_how_the_fighter_stands(table):
    rows = TrackerFighter.objects.filter(tracker__game=table.game, fighter=table["Vera"])
    assert board_fighter(table, "Vera").status_tone == "ok"
    rows.update(status=TrackerFighter.Status.FLED)
    assert board_fighter(table, "Vera").status_tone == "warn"
    rows.update(status=TrackerFighter.Status.INCAPACITATED)
    assert board_fighter(table, "Vera").status_tone == "danger"


def test_a_marked_fighter_the_table_moved_on_from_is_folded_and_the_last_changed_whole(table, player2):
    """Once a later tap changed another fighter, a marked one is drawn folded (its line with its marks); the one
    the last tap changed is whole, and one opened on the page too."""
    damage(table, "Vera", 2, player2)
    assert not board_fighter(table, "Vera").compact
    damage(table, "Brick", 2, player2)
    board = tracker_board(game=table.game)
    vera, brick = board.by_id[table["Vera"].pk], board.by_id[table["Brick"].pk]
    assert not vera.full_strength
    assert vera.compact
    assert not brick.compact
    board.open_cards([vera.id])
    assert not vera.compact


@pytest.mark.parametrize("board", ["table", "tc_table"])
def test_the_rows_read_in_one_statement_are_the_orm_s(request, board):
    """`board_rows` builds what `select_related(...).only(*BOARD_COLUMNS)` gives: the same rows in the same
    order, the same values, the same fields left unread, and the related rows it follows."""
    from combat.models import TrackerGame
    from combat.selectors.tracker_rows import BOARD_COLUMNS, board_rows

    tracker = TrackerGame.objects.get(game=request.getfixturevalue(board).game)
    first = TrackerFighter.objects.filter(tracker=tracker).order_by("pk").first()
    TrackerFighter.objects.filter(pk=first.pk).update(harm=1, blood=2)
    orm = list(
        TrackerFighter.objects.filter(tracker=tracker)
        .select_related("fighter", "player__warband__owner")
        .only(*BOARD_COLUMNS)
        .order_by("player_id", "fighter_id")
    )
    ours = board_rows(tracker)
    assert [row.pk for row in ours] == [row.pk for row in orm]
    for mine, theirs in zip(ours, orm, strict=True):
        pairs = (
            (mine, theirs),
            (mine.fighter, theirs.fighter),
            (mine.player, theirs.player),
            (mine.player.warband, theirs.player.warband),
            (mine.player.warband.owner, theirs.player.warband.owner),
        )
        for built, read in pairs:
            assert built.get_deferred_fields() == read.get_deferred_fields()
            names = [name for name in read.__dict__ if name != "_state"]
            assert [getattr(built, name) for name in names] == [getattr(read, name) for name in names]
    some = [orm[0].fighter_id, orm[-1].fighter_id]
    assert [row.fighter_id for row in board_rows(tracker, some)] == some


def test_the_board_s_row_is_read_with_its_game_and_the_reader_s_membership(table, player, player2, outsider):
    """`tracker_with_game` gives what `select_related("game__campaign")` with `membership_columns` gives."""
    from campaigns.access import membership_columns
    from combat.models import TrackerGame
    from combat.selectors.tracker_rows import tracker_with_game

    for viewer in (player, player2, outsider):
        ours = tracker_with_game(game_id=table.game.pk, viewer=viewer)
        orm = (
            TrackerGame.objects.filter(game_id=table.game.pk)
            .select_related("game__campaign")
            .annotate(**membership_columns(viewer, game="game"))
            .first()
        )
        for built, read in ((ours, orm), (ours.game, orm.game), (ours.game.campaign, orm.game.campaign)):
            names = [name for name in read.__dict__ if name != "_state"]
            assert [getattr(built, name) for name in names] == [getattr(read, name) for name in names]
            assert built.get_deferred_fields() == read.get_deferred_fields() == set()
    assert tracker_with_game(game_id=987654, viewer=player) is None


def test_the_game_log_read_in_one_statement_is_the_orm_s(table, player, player2):
    """`game_log` gives what `select_related("by", "undone_by").only(*ACTION_COLUMNS)` gives, oldest first."""
    from combat.models import TrackerAction, TrackerGame
    from combat.selectors.tracker_rows import ACTION_COLUMNS, game_log
    from combat.services.tracker.board import tracker_undo

    damage(table, "Vera", 2, player2)
    damage(table, "Brick", 2, player)
    tracker_undo(game=table.game, by=player2, version=table.version)
    tracker = TrackerGame.objects.get(game=table.game)
    orm = list(
        TrackerAction.objects.filter(tracker=tracker)
        .select_related("by", "undone_by")
        .only(*ACTION_COLUMNS)
        .order_by("version")
    )
    ours = game_log(tracker)
    assert [action.pk for action in ours] == [action.pk for action in orm]
    assert any(action.undone_by is not None for action in ours)
    assert any(action.undone_by is None for action in ours)
    for mine, theirs in zip(ours, orm, strict=True):
        pairs = [(mine, theirs)] + [
            (getattr(mine, name), getattr(theirs, name))
            for name in ("by", "undone_by")
            if getattr(theirs, name) is not None
        ]
        assert (mine.undone_by is None) == (theirs.undone_by is None)
        for built, read in pairs:
            assert built.get_deferred_fields() == read.get_deferred_fields()
            names = [name for name in read.__dict__ if name != "_state"]
            assert [getattr(built, name) for name in names] == [getattr(read, name) for name in names]


def test_the_board_read_in_one_round_trip_is_its_three_reads(table, player, player2, outsider):
    """`board_with_game` gives what `tracker_with_game`, `board_rows` and `game_log` give, which are the ORM's
    (above), for a member and an outsider alike; None for a game without a board."""
    from combat.selectors.tracker_rows import board_rows, board_with_game, game_log, tracker_with_game

    damage(table, "Vera", 2, player2)
    damage(table, "Brick", 2, player)
    for viewer in (player, outsider):
        ours = board_with_game(game_id=table.game.pk, viewer=viewer)
        tracker = tracker_with_game(game_id=table.game.pk, viewer=viewer)
        for built, read in (
            (ours.tracker, tracker),
            (ours.tracker.game, tracker.game),
            (ours.tracker.game.campaign, tracker.game.campaign),
        ):
            names = [name for name in read.__dict__ if name != "_state"]
            assert [getattr(built, name) for name in names] == [getattr(read, name) for name in names]
        for mine, theirs in ((ours.rows, board_rows(tracker)), (ours.log, game_log(tracker))):
            assert [row.pk for row in mine] == [row.pk for row in theirs]
            for built, read in zip(mine, theirs, strict=True):
                names = [name for name in read.__dict__ if name != "_state"]
                assert [getattr(built, name) for name in names] == [getattr(read, name) for name in names]
        assert [row.fighter.name for row in ours.rows] == [row.fighter.name for row in board_rows(tracker)]
        assert len(ours.log) == 2
    assert board_with_game(game_id=987654, viewer=player) is None
