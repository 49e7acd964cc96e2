"""The board's rows in one statement: each fighter on the board with its roster row, its player's GamePlayer,
warband and owner, as `select_related(...).only(...)` would read them, without building the statement and the
instances through the ORM at each request (most of a 15 v 15 board's query time in Python, for a board every
phone at the table draws at every change). `combat/selectors/tracker.py` reads them into the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connection

from campaigns.models import GamePlayer
from combat.models import TrackerFighter, TrackerGame
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
class _Part:
    """One model of a board row: its class, the attnames read (in its concrete fields' order) and their columns."""

    model: type
    names: tuple[str, ...]
    alias: str

    @property
    def columns(self) -> list[str]:
        fields = {field.attname: field.column for field in self.model._meta.concrete_fields}
        return [f'{self.alias}."{fields[name]}"' for name in self.names]

    def load(self, values) -> object:
        return self.model.from_db(DEFAULT_DB_ALIAS, self.names, values)


def _part(model, alias: str, wanted) -> _Part:
    wanted = set(wanted) | {"id"}
    return _Part(model, tuple(f.attname for f in model._meta.concrete_fields if f.attname in wanted), alias)


@dataclass(frozen=True)
class _BoardRowsQuery:
    sql: str
    only_fighters: str
    order: str
    parts: tuple[_Part, ...]

    def build(self, rows, tracker: TrackerGame) -> list[TrackerFighter]:
        tracked_part, fighter_part, player_part, warband_part, owner_part = self.parts
        bounds, start = [], 0
        for part in self.parts:
            bounds.append((start, start + len(part.names)))
            start += len(part.names)
        players: dict[int, object] = {}
        built = []
        for row in rows:
            tracked = tracked_part.load(row[bounds[0][0] : bounds[0][1]])
            fighter = fighter_part.load(row[bounds[1][0] : bounds[1][1]])
            player = players.get(tracked.player_id)
            if player is None:
                player = players[tracked.player_id] = player_part.load(row[bounds[2][0] : bounds[2][1]])
                warband = warband_part.load(row[bounds[3][0] : bounds[3][1]])
                owner = owner_part.load(row[bounds[4][0] : bounds[4][1]])
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
        _part(TrackerFighter, "t", ("tracker_id", "player_id", "fighter_id", *FIGHTER_STATE_FIELDS)),
        _part(Fighter, "f", FIGHTER_COLUMNS),
        _part(GamePlayer, "p", ("game_id", "warband_id", "result")),
        _part(Warband, "w", ("name", "owner_id")),
        _part(user, "u", ("username", "first_name")),
    )
    tables = {part.alias: connection.ops.quote_name(part.model._meta.db_table) for part in parts}
    # Every name comes from the models' own metadata, every value is a parameter.
    sql = (
        f"SELECT {', '.join(column for part in parts for column in part.columns)}"  # noqa: S608
        f" FROM {tables['t']} t"
        f" JOIN {tables['f']} f ON f.id = t.fighter_id"
        f" JOIN {tables['p']} p ON p.id = t.player_id"
        f" JOIN {tables['w']} w ON w.id = p.warband_id"
        f" JOIN {tables['u']} u ON u.id = w.owner_id"
        " WHERE t.tracker_id = %s"
    )
    return _BoardRowsQuery(sql, " AND t.fighter_id = ANY(%s)", " ORDER BY t.player_id, t.fighter_id", parts)
