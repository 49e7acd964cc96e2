"""A member's home page.

Read in four queries of plain SQL (memberships, warbands with their figures, the post-games waiting and the games
being played, the recent games with their players), plus one per "waiting for you" provider: through the ORM the
same statements cost ten times more of the web process's time to build and to turn into objects than PostgreSQL
took to run them, and the page shows a few columns of each row. The rows come back as model instances holding
those columns (`Model.from_db`), so the template reads them as it reads any model.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (the user, the limit, the choices) is passed as a query parameter.
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache, cached_property

from django.db import connection

from campaigns.models import Campaign, Game, GamePlayer, Membership
from rosters.models import Fighter, Warband
from rosters.selectors.common import WAITING_POST_GAME
from rosters.selectors.waiting import WaitingItem, waiting_items

CAMPAIGN_COLUMNS = ("id", "name", "preset", "status")


@dataclass
class Dashboard:
    memberships: list[Membership]
    warbands: list[Warband]
    waiting: list[GamePlayer]
    playing: list[GamePlayer]
    recent_games: list[Game]
    # What other apps say waits for the user (a ransom offer to answer, one waiting for an answer).
    items: list[WaitingItem] = field(default_factory=list)

    @cached_property
    def digest(self) -> str:
        """A digest of everything the page's kept parts show (all but the providers' items, whose forms carry the
        request's CSRF token) and of the markup: those parts' HTML is kept under it
        (templates/rosters/dashboard.html), so any change to a value they show, or to the template, draws them
        again. It is computed from the rows already read: no query, and nothing the user was not just shown."""
        shown = (
            _markup_version(),
            [
                (
                    m.role,
                    m.warband_count,
                    m.campaign.pk,
                    m.campaign.name,
                    m.campaign.preset,
                    m.campaign.status,
                )
                for m in self.memberships
            ],
            [
                (w.pk, w.name, w.faction, w.disbanded_at, w.campaign.name, w.campaign.preset, w.fighter_count)
                + (w.total_xp, w.wins, w.draws, w.losses)
                for w in self.warbands
            ],
            [_entry_shown(entry) for entry in self.waiting],
            [_entry_shown(entry) for entry in self.playing],
            [
                (g.pk, g.number, g.played_on, g.campaign.name)
                + tuple((p.warband.name, p.result) for p in g.players.all())
                for g in self.recent_games
            ],
        )
        return hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()


def _entry_shown(entry: GamePlayer) -> tuple:
    game = entry.game
    return (game.pk, game.number, game.campaign.name, entry.warband.pk, entry.warband.name, entry.post_game)


@cache
def _markup_version() -> str:
    from django.template.loader import get_template

    source = get_template("rosters/dashboard.html").template.source
    return hashlib.blake2b(source.encode(), digest_size=8).hexdigest()


def dashboard_for(*, user, recent: int = 8) -> Dashboard:
    """A member's home page: campaigns, warbands, the post-games waiting for them, games being played, and the
    latest games in their campaigns."""
    campaigns: dict[int, Campaign] = {}
    waiting, playing = _waiting_and_playing(user, campaigns)
    return Dashboard(
        memberships=_memberships(user, campaigns),
        warbands=_warbands(user, campaigns),
        waiting=waiting,
        playing=playing,
        recent_games=_recent_games(user, recent, campaigns),
        items=waiting_items(user=user),
    )


def _rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as db:
        db.execute(sql, params)
        return db.fetchall()


def _instance(model, **values):
    """A model instance holding only these columns (the others deferred), as a queryset's `only()` builds it:
    `from_db` takes the values in the model's order of fields."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[name] for name in names])


def _campaign(campaigns: dict[int, Campaign], row: tuple) -> Campaign:
    """One instance per campaign, from a row's CAMPAIGN_COLUMNS."""
    if row[0] not in campaigns:
        campaigns[row[0]] = _instance(Campaign, **dict(zip(CAMPAIGN_COLUMNS, row, strict=True)))
    return campaigns[row[0]]


def _tables() -> dict[str, str]:
    models = {"campaign": Campaign, "membership": Membership, "warband": Warband, "fighter": Fighter}
    return {
        **{name: model._meta.db_table for name, model in models.items()},
        "game": Game._meta.db_table,
        "player": GamePlayer._meta.db_table,
    }


def _memberships(user, campaigns: dict[int, Campaign]) -> list[Membership]:
    """The user's memberships, newest campaign first, each with its campaign's number of warbands."""
    t = _tables()
    rows = _rows(
        f"""SELECT m.id, m.role, (SELECT count(*) FROM {t["warband"]} w WHERE w.campaign_id = m.campaign_id),
            c.id, c.name, c.preset, c.status
        FROM {t["membership"]} m JOIN {t["campaign"]} c ON c.id = m.campaign_id
        WHERE m.user_id = %s ORDER BY c.created_at DESC, m.id""",
        [user.pk],
    )
    memberships = []
    for pk, role, warband_count, *campaign in rows:
        membership = _instance(Membership, id=pk, role=role, user_id=user.pk, campaign_id=campaign[0])
        membership.campaign = _campaign(campaigns, campaign)
        membership.warband_count = warband_count
        memberships.append(membership)
    return memberships


def _warbands(user, campaigns: dict[int, Campaign]) -> list[Warband]:
    """The user's warbands with the figures the page shows: active fighters and their XP, wins, draws and losses."""
    t = _tables()
    rows = _rows(
        f"""SELECT w.id, w.name, w.faction, w.disbanded_at, f.n, f.xp, r.wins, r.draws, r.losses,
            c.id, c.name, c.preset, c.status
        FROM {t["warband"]} w JOIN {t["campaign"]} c ON c.id = w.campaign_id
        CROSS JOIN LATERAL (
            SELECT count(*) AS n, coalesce(sum(xp), 0) AS xp FROM {t["fighter"]}
            WHERE warband_id = w.id AND status = %s
        ) f
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE result = %s) AS wins, count(*) FILTER (WHERE result = %s) AS draws,
                count(*) FILTER (WHERE result = %s) AS losses
            FROM {t["player"]} WHERE warband_id = w.id
        ) r
        WHERE w.owner_id = %s ORDER BY c.name, w.name, w.id""",
        [
            Fighter.Status.ACTIVE,
            GamePlayer.Result.WIN,
            GamePlayer.Result.DRAW,
            GamePlayer.Result.LOSS,
            user.pk,
        ],
    )
    warbands = []
    for pk, name, faction, disbanded_at, count, xp, wins, draws, losses, *campaign in rows:
        warband = _instance(
            Warband, id=pk, campaign_id=campaign[0], owner_id=user.pk, name=name, faction=faction,
            disbanded_at=disbanded_at,
        )  # fmt: skip
        warband.campaign = _campaign(campaigns, campaign)
        warband.fighter_count, warband.total_xp = count, xp
        warband.wins, warband.draws, warband.losses = wins, draws, losses
        warbands.append(warband)
    return warbands


def _game(row: tuple, campaigns: dict[int, Campaign]) -> Game:
    """A game from (id, number, played_on, status, *CAMPAIGN_COLUMNS)."""
    pk, number, played_on, status, *campaign = row
    game = _instance(Game, id=pk, campaign_id=campaign[0], number=number, played_on=played_on, status=status)
    game.campaign = _campaign(campaigns, campaign)
    return game


def _player(
    pk: int, game: Game, result: str, post_game: str, warband_id: int, warband_name: str
) -> GamePlayer:
    player = _instance(
        GamePlayer, id=pk, game_id=game.pk, warband_id=warband_id, result=result, post_game=post_game
    )
    player.game = game
    player.warband = _instance(Warband, id=warband_id, name=warband_name)
    return player


def _waiting_and_playing(user, campaigns: dict[int, Campaign]) -> tuple[list[GamePlayer], list[GamePlayer]]:
    """The post-games waiting for the user's warbands (oldest game first) and their games being played (newest
    first), read in one query and told apart here."""
    t = _tables()
    rows = _rows(
        f"""SELECT gp.id, gp.result, gp.post_game, w.id, w.name,
            g.id, g.number, g.played_on, g.status, c.id, c.name, c.preset, c.status
        FROM {t["player"]} gp JOIN {t["warband"]} w ON w.id = gp.warband_id
        JOIN {t["game"]} g ON g.id = gp.game_id JOIN {t["campaign"]} c ON c.id = g.campaign_id
        WHERE w.owner_id = %s AND (g.status = %s OR gp.post_game = ANY(%s))
        ORDER BY g.played_on, g.number, gp.id""",
        [user.pk, Game.Status.IN_PROGRESS, [str(state) for state in WAITING_POST_GAME]],
    )
    entries = [
        _player(pk, _game(game, campaigns), result, post_game, warband_id, warband_name)
        for pk, result, post_game, warband_id, warband_name, *game in rows
    ]
    waiting = [row for row in entries if row.game.status != Game.Status.IN_PROGRESS]
    playing = sorted(
        (row for row in entries if row.game.status == Game.Status.IN_PROGRESS),
        key=lambda row: row.game.played_on,
        reverse=True,
    )
    return waiting, playing


def _recent_games(user, recent: int, campaigns: dict[int, Campaign]) -> list[Game]:
    """The latest games in the user's campaigns, each with its warbands and results (`game.players.all`, in the
    order they were entered): the page names nothing else of them."""
    t = _tables()
    rows = _rows(
        f"""WITH recent AS (
            SELECT id, number, played_on, status, campaign_id FROM {t["game"]}
            WHERE campaign_id IN (SELECT campaign_id FROM {t["membership"]} WHERE user_id = %s)
            ORDER BY played_on DESC, id DESC LIMIT %s
        )
        SELECT g.id, g.number, g.played_on, g.status, c.id, c.name, c.preset, c.status,
            gp.id, gp.result, gp.post_game, w.id, w.name
        FROM recent g JOIN {t["campaign"]} c ON c.id = g.campaign_id
        LEFT JOIN {t["player"]} gp ON gp.game_id = g.id LEFT JOIN {t["warband"]} w ON w.id = gp.warband_id
        ORDER BY g.played_on DESC, g.id DESC, gp.id""",
        [user.pk, recent],
    )
    games: dict[int, Game] = {}
    for row in rows:
        game = games.get(row[0])
        if game is None:
            game = games[row[0]] = _game(row[:8], campaigns)
            # Read by the template as `game.players.all`, as a prefetch would have left them.
            game._prefetched_objects_cache = {"players": []}
        if row[8] is not None:
            game._prefetched_objects_cache["players"].append(_player(row[8], game, *row[9:]))
    return list(games.values())
