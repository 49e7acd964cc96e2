"""The board's rows in one statement each: each fighter on the board with its roster row, its player's
GamePlayer, warband and owner, as `select_related(...).only(...)` would read them (`board_rows`); the board's own
row with its game, campaign and the reader's membership (`tracker_with_game`). Each statement is written once per
process from the models, not built through the ORM at each request, nor its instances through its iterator: that
was most of a 15 v 15 board's query time in Python, for a board every phone at the table draws at every change.
The board's page, its cards and its poll send the three in one round trip (`board_with_game`).
`combat/selectors/tracker.py` reads them into the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from django.db import connection

from campaigns.models import Campaign, Game, GamePlayer, Membership
from campaigns.plain_rows import Part, Statement, slices
from combat.models import TrackerAction, TrackerFighter, TrackerGame
from combat.models.tracker import FIGHTER_STATE_FIELDS
from rosters.models import Fighter, Warband

# What the board reads of each fighter's roster row.
FIGHTER_COLUMNS = (
    "warband_id",
    "name",
    "fighter_type",
    "champion",
    "keywords",
    "endurance",
    "intelligence",
    "strength",
    "health",
    "harm_limit",
    "unit_size",
    # The rest of each preset's profile, shown on the card (campaigns/profiles.py).
    "movement",
    "perception",
    "charisma",
    "agility",
    "luck",
    "ranged",
    "melee",
    "armour",
    "base_size",
)
# What the board reads of each row (a 15-fighter crew's board is polled by every phone at the table), in the
# ORM's words; `_board_rows_query` reads the same columns.
BOARD_COLUMNS = (
    "tracker_id",
    "player_id",
    "fighter_id",
    # Harm, Injuries, Fatigue, status, a unit's Health Pool, a Trench Crusade model's markers, Down and Tough.
    *FIGHTER_STATE_FIELDS,
    *(f"fighter__{name}" for name in FIGHTER_COLUMNS),
    "player__game_id",
    "player__warband_id",
    "player__result",
    "player__warband__name",
    "player__warband__owner_id",
    "player__warband__owner__username",
    "player__warband__owner__first_name",
)

# What the game log reads of each action, in the ORM's words; `_log_query` reads the same columns.
ACTION_COLUMNS = (
    "tracker_id",
    "version",
    "kind",
    "summary",
    "created_at",
    "undone_at",
    "undone_version",
    "by_id",
    "undone_by_id",
    "by__username",
    "undone_by__username",
    "by__first_name",
    "undone_by__first_name",
    "touched",
)


def board_rows(tracker: TrackerGame, fighter_ids: Iterable[int] | None = None) -> list[TrackerFighter]:
    """The board's fighters (only those of these roster `fighter_ids` when given), in one query: each row with its
    fighter, its player's GamePlayer, warband and owner, as `select_related(...).only(*BOARD_COLUMNS)` would give
    them. The statement is written once per process from the models (`_BoardRowsQuery`): building it anew through
    the ORM, and the five model instances per row through its iterator, was most of a 15 v 15 board's query time
    in Python, for a board every phone at the table draws at every change."""
    query = _board_rows_query()
    sql, params = query.sql, [tracker.pk]
    if fighter_ids is not None:
        sql += query.only_fighters
        params.append(list(fighter_ids))
    with connection.cursor() as cursor:
        cursor.execute(sql + query.order, params)
        return query.build(cursor.fetchall(), tracker)


@dataclass(frozen=True)
class _BoardRowsQuery:
    sql: str
    only_fighters: str
    order: str
    parts: tuple[Part, ...]
    # The same rows found by the board's game rather than its row (`board_with_game`, which reads that row too).
    by_game: str

    def build(self, rows, tracker: TrackerGame) -> list[TrackerFighter]:
        tracked_part, fighter_part, player_part, warband_part, owner_part = self.parts
        tracked_at, fighter_at, player_at, warband_at, owner_at, _ = slices(self.parts)
        players: dict[int, object] = {}
        built = []
        for row in rows:
            tracked = tracked_part.load(row[tracked_at])
            fighter = fighter_part.load(row[fighter_at])
            player = players.get(tracked.player_id)
            if player is None:
                player = players[tracked.player_id] = player_part.load(row[player_at])
                warband = warband_part.load(row[warband_at])
                owner = owner_part.load(row[owner_at])
                Warband.owner.field.set_cached_value(warband, owner)
                GamePlayer.warband.field.set_cached_value(player, warband)
            TrackerFighter.fighter.field.set_cached_value(tracked, fighter)
            TrackerFighter.player.field.set_cached_value(tracked, player)
            TrackerFighter.tracker.field.set_cached_value(tracked, tracker)
            built.append(tracked)
        return built


@cache
def _board_rows_query() -> _BoardRowsQuery:
    """BOARD_COLUMNS as one statement over the five tables, in the order `select_related` reads them."""
    user = Warband.owner.field.related_model
    parts = (
        Part(TrackerFighter, "t", only=("tracker_id", "player_id", "fighter_id", *FIGHTER_STATE_FIELDS)),
        Part(Fighter, "f", only=FIGHTER_COLUMNS),
        Part(GamePlayer, "p", only=("game_id", "warband_id", "result")),
        Part(Warband, "w", only=("name", "owner_id")),
        Part(user, "u", only=("username", "first_name")),
    )
    tables = {part.alias: connection.ops.quote_name(part.model._meta.db_table) for part in parts}
    # Every name comes from the models' own metadata, every value is a parameter.
    select = (
        f"SELECT {', '.join(part.columns for part in parts)}"  # noqa: S608
        f" FROM {tables['t']} t"
        f" JOIN {tables['f']} f ON f.id = t.fighter_id"
        f" JOIN {tables['p']} p ON p.id = t.player_id"
        f" JOIN {tables['w']} w ON w.id = p.warband_id"
        f" JOIN {tables['u']} u ON u.id = w.owner_id"
    )
    order = " ORDER BY t.player_id, t.fighter_id"
    by_game = f"{select} WHERE t.tracker_id = ({_tracker_of_game()}){order}"
    return _BoardRowsQuery(
        f"{select} WHERE t.tracker_id = %s", " AND t.fighter_id = ANY(%s)", order, parts, by_game
    )


def _tracker_of_game() -> str:
    table = connection.ops.quote_name(TrackerGame._meta.db_table)
    return f"SELECT id FROM {table} WHERE game_id = %s"  # noqa: S608 - the model's table, the game a parameter


def tracker_with_game(*, game_id: int, viewer) -> TrackerGame | None:
    """A game's board row, read with the game, the campaign and the `viewer`'s membership of it in one query:
    `member_id`, `member_role` and `member_took_part` on the row, as `campaigns.access.membership_columns` names
    them for `membership_read`. None when the game has no board (or there is no such game). Written once per
    process, as `board_rows` is: the ORM's statement with its subqueries took longer to build than to run."""
    user_id = getattr(viewer, "pk", None)
    with connection.cursor() as cursor:
        cursor.execute(_tracker_query().sql, [user_id, user_id, game_id])
        row = cursor.fetchone()
    return None if row is None else _load_tracker(row)


def _load_tracker(row) -> TrackerGame:
    tracker_part, game_part, campaign_part = _tracker_query().parts
    tracker_at, game_at, campaign_at, member_at = slices(_tracker_query().parts)
    tracker = tracker_part.load(row[tracker_at])
    game = game_part.load(row[game_at])
    campaign = campaign_part.load(row[campaign_at])
    Game.campaign.field.set_cached_value(game, campaign)
    TrackerGame.game.field.set_cached_value(tracker, game)
    tracker.member_id, tracker.member_role, tracker.member_took_part = row[member_at]
    return tracker


@cache
def _tracker_query() -> Statement:
    """The board's row, its game and its campaign whole (as `select_related("game__campaign")` reads them), the
    viewer's first membership of the campaign and whether a warband of theirs took part in the game."""

    parts = (
        Part(TrackerGame, "t"),
        Part(Game, "g"),
        Part(Campaign, "c"),
    )
    models = (TrackerGame, Game, Campaign, Membership, GamePlayer, Warband)
    table = {model: connection.ops.quote_name(model._meta.db_table) for model in models}
    # Every name comes from the models' own metadata, every value is a parameter.
    sql = (
        f"SELECT {', '.join(part.columns for part in parts)},"  # noqa: S608
        " m.id, m.role,"
        f" EXISTS (SELECT 1 FROM {table[GamePlayer]} gp JOIN {table[Warband]} w ON w.id = gp.warband_id"
        "  WHERE gp.game_id = t.game_id AND w.owner_id = %s)"
        f" FROM {table[TrackerGame]} t"
        f" JOIN {table[Game]} g ON g.id = t.game_id"
        f" JOIN {table[Campaign]} c ON c.id = g.campaign_id"
        f" LEFT JOIN LATERAL (SELECT id, role FROM {table[Membership]}"
        "  WHERE campaign_id = g.campaign_id AND user_id = %s ORDER BY joined_at LIMIT 1) m ON true"
        " WHERE t.game_id = %s"
    )
    return Statement(sql, parts)


def game_log(tracker: TrackerGame) -> list[TrackerAction]:
    """Every action of the game in one query, oldest first, with who made it and who undid it, as
    `select_related("by", "undone_by").only(*ACTION_COLUMNS)` reads them: the game log, the latest few, the last
    to undo. Written once per process, as `board_rows` is."""
    with connection.cursor() as cursor:
        cursor.execute(_log_query().sql, [tracker.pk])
        return _build_log(cursor.fetchall(), tracker)


def _build_log(rows, tracker: TrackerGame) -> list[TrackerAction]:
    action_part, by_part, undone_part = _log_query().parts
    action_at, by_at, undone_at, _ = slices(_log_query().parts)
    users: dict[int, object] = {}
    log = []
    for row in rows:
        action = action_part.load(row[action_at])
        for part, values, field in (
            (by_part, row[by_at], TrackerAction.by.field),
            (undone_part, row[undone_at], TrackerAction.undone_by.field),
        ):
            user = users.get(values[0])
            if user is None and values[0] is not None:
                user = users[values[0]] = part.load(values)
            field.set_cached_value(action, user)
        TrackerAction.tracker.field.set_cached_value(action, tracker)
        log.append(action)
    return log


@dataclass(frozen=True)
class _LogStatement(Statement):
    # The same log found by the board's game rather than its row (`board_with_game`).
    by_game: str


@cache
def _log_query() -> _LogStatement:
    user = TrackerAction.by.field.related_model
    parts = (
        Part(TrackerAction, "a", only=tuple(name for name in ACTION_COLUMNS if "__" not in name)),
        Part(user, "b", only=("username", "first_name")),
        Part(user, "ub", only=("username", "first_name")),
    )
    actions, users = (connection.ops.quote_name(model._meta.db_table) for model in (TrackerAction, user))
    # Every name comes from the models' own metadata, every value is a parameter.
    select = (
        f"SELECT {', '.join(part.columns for part in parts)}"  # noqa: S608
        f" FROM {actions} a LEFT JOIN {users} b ON b.id = a.by_id LEFT JOIN {users} ub ON ub.id = a.undone_by_id"
    )
    order = " ORDER BY a.version"
    return _LogStatement(
        f"{select} WHERE a.tracker_id = %s{order}",
        parts,
        f"{select} WHERE a.tracker_id = ({_tracker_of_game()}){order}",
    )


@dataclass(frozen=True)
class BoardReads:
    """A board's row (with its game, campaign and the reader's membership, as `tracker_with_game` reads them),
    every fighter's row on it (`board_rows`) and its game log (`game_log`)."""

    tracker: TrackerGame
    rows: list[TrackerFighter]
    log: list[TrackerAction]


def board_with_game(*, game_id: int, viewer) -> BoardReads | None:
    """What the board shows, read in one round trip: `tracker_with_game`, `board_rows` and `game_log` sent as
    three statements in one execute, their results read one after another (psycopg's client-side binding cursor,
    Django's default, takes several statements with parameters). None when the game has no board (or there is no
    such game). On a loaded server each round trip waits its turn: the board drawn for every phone at the table
    at every change waited three times."""
    user_id = getattr(viewer, "pk", None)
    statements = (_tracker_query().sql, _board_rows_query().by_game, _log_query().by_game)
    with connection.cursor() as cursor:
        cursor.execute("; ".join(statements), [user_id, user_id, game_id, game_id, game_id])
        found = cursor.fetchone()
        cursor.nextset()
        rows = cursor.fetchall()
        cursor.nextset()
        log = cursor.fetchall()
    if found is None:
        return None
    tracker = _load_tracker(found)
    return BoardReads(tracker, _board_rows_query().build(rows, tracker), _build_log(log, tracker))
