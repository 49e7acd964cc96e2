"""A member's home page.

Read in one statement of plain SQL, plus one query per "waiting for you" provider. Each of the page's lists
(memberships, warbands, the post-games waiting and the games being played, the recent games with their players)
comes back as one JSON array that PostgreSQL builds of the few columns the page shows, read as text: through the
ORM the same reads cost ten times more of the web process's time to build and to turn into objects than PostgreSQL
took to run them. The page is kept whole under a digest of those texts and of the providers' items
(`Dashboard.key`), so a page drawn from the cache never parses them; one drawn again reads them as small frozen
lines (`MembershipLine`, `WarbandLine`, `PlayerLine`, `GameLine`), not model instances.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata and fixed column
# names only; every value (the user, the limit, the choices) is passed as a query parameter.
from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass
from functools import cache, cached_property

from django.db import connection

from campaigns.models import Campaign, Game, GamePlayer, Membership
from campaigns.terms import Terms, terms_for
from rosters.models import Fighter, Warband
from rosters.selectors.common import WAITING_POST_GAME, release
from rosters.selectors.waiting import WaitingItem, waiting_items

_PRESETS = dict(Campaign.Preset.choices)
_ROLES = dict(Membership.Role.choices)
_RESULTS = dict(GamePlayer.Result.choices)
_POST_GAMES = dict(GamePlayer.PostGame.choices)


@dataclass(frozen=True, slots=True)
class CampaignLine:
    id: int
    name: str
    preset: str
    status: str

    @property
    def preset_label(self) -> str:
        return _PRESETS.get(self.preset, self.preset)

    @property
    def terms(self) -> Terms:
        return terms_for(self.preset)


@dataclass(frozen=True, slots=True)
class MembershipLine:
    role: str
    warband_count: int  # the campaign's warbands, everyone's
    campaign: CampaignLine

    @property
    def role_label(self) -> str:
        return _ROLES.get(self.role, self.role)


@dataclass(frozen=True, slots=True)
class WarbandLine:
    """One of the user's warbands with its figures: active fighters and their XP, wins, draws and losses."""

    id: int
    name: str
    faction: str
    disbanded: bool
    fighter_count: int
    total_xp: int
    wins: int
    draws: int
    losses: int
    campaign: CampaignLine


@dataclass(frozen=True, slots=True)
class WarbandName:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class GameLine:
    id: int
    number: int
    played_on: datetime.date
    status: str
    campaign: CampaignLine
    players: tuple[PlayerLine, ...] = ()  # in the order they were entered; read for the recent games only


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """A warband's place in a game: its result, and where its post-game stands."""

    warband: WarbandName
    result: str
    post_game: str
    # The entries waiting or being played name their game; a game's players do not.
    game: GameLine | None = None

    @property
    def result_label(self) -> str:
        return _RESULTS.get(self.result, self.result)

    @property
    def post_game_label(self) -> str:
        return _POST_GAMES.get(self.post_game, self.post_game)


class Dashboard:
    """The page's lists, each read from its JSON text on first use; `key` names the page as kept."""

    def __init__(self, texts: tuple[str, str, str, str], items: list[WaitingItem]):
        self._texts = texts
        # What other apps say waits for the user (a ransom offer to answer, one waiting for an answer).
        self.items = items

    @cached_property
    def key(self) -> str:
        """A digest of everything the page shows, and the release: the page's content is kept under it
        (templates/rosters/dashboard.html), so any change to a value it shows, or to the code and templates that
        draw it, draws it again. The providers' items are in it whole; their forms hold no CSRF token while kept
        (rosters/templatetags/csrf_slots.py). No query, and nothing the user was not just shown."""
        digest = hashlib.blake2b(digest_size=16)
        for text in self._texts:
            digest.update(text.encode())
            digest.update(b"\0")
        digest.update(repr(self.items).encode())
        return f"{release()}:{digest.hexdigest()}"

    @cached_property
    def memberships(self) -> list[MembershipLine]:
        campaigns: dict[int, CampaignLine] = {}
        return [
            MembershipLine(role, count, _campaign(campaigns, campaign))
            for role, count, *campaign in json.loads(self._texts[0])
        ]

    @cached_property
    def warbands(self) -> list[WarbandLine]:
        campaigns: dict[int, CampaignLine] = {}
        return [WarbandLine(*row[:9], _campaign(campaigns, row[9:])) for row in json.loads(self._texts[1])]

    @cached_property
    def _entries(self) -> list[PlayerLine]:
        """The user's post-games waiting and their games being played, oldest game first, told apart below."""
        campaigns: dict[int, CampaignLine] = {}
        return [
            PlayerLine(WarbandName(warband_id, name), "", post_game, _game(game, campaigns))
            for post_game, warband_id, name, *game in json.loads(self._texts[2])
        ]

    @property
    def waiting(self) -> list[PlayerLine]:
        """The post-games waiting for the user's warbands, oldest game first."""
        return [entry for entry in self._entries if entry.game.status != Game.Status.IN_PROGRESS]

    @property
    def playing(self) -> list[PlayerLine]:
        """The user's games being played, newest first: a game on the tracker waits for no post-game yet."""
        playing = (entry for entry in self._entries if entry.game.status == Game.Status.IN_PROGRESS)
        return sorted(playing, key=lambda entry: entry.game.played_on, reverse=True)

    @cached_property
    def recent_games(self) -> list[GameLine]:
        """The latest games in the user's campaigns, each with its warbands and results."""
        campaigns: dict[int, CampaignLine] = {}
        return [
            _game(
                game,
                campaigns,
                tuple(PlayerLine(WarbandName(pk, name), result or "", "") for result, pk, name in players),
            )
            for *game, players in json.loads(self._texts[3])
        ]


def _campaign(campaigns: dict[int, CampaignLine], values: list) -> CampaignLine:
    """One line per campaign, from (id, name, preset, status)."""
    if values[0] not in campaigns:
        campaigns[values[0]] = CampaignLine(*values)
    return campaigns[values[0]]


def _game(values: list, campaigns: dict[int, CampaignLine], players: tuple = ()) -> GameLine:
    """A game from (id, number, played_on, status, *campaign)."""
    pk, number, played_on, status, *campaign = values
    return GameLine(
        pk, number, datetime.date.fromisoformat(played_on), status, _campaign(campaigns, campaign), players
    )


@cache
def _sql() -> str:
    """The page's four lists as four JSON texts, for the parameters `user`, `active`, `win`, `draw`, `loss`,
    `in_progress`, `waiting` and `recent`."""
    t = {
        name: model._meta.db_table
        for name, model in {
            "campaign": Campaign,
            "membership": Membership,
            "warband": Warband,
            "fighter": Fighter,
            "game": Game,
            "player": GamePlayer,
        }.items()
    }
    campaign = "c.id, c.name, c.preset, c.status"
    return f"""SELECT
        (SELECT coalesce(json_agg(json_build_array(m.role,
                (SELECT count(*) FROM {t["warband"]} w WHERE w.campaign_id = m.campaign_id), {campaign})
              ORDER BY c.created_at DESC, m.id), '[]')
           FROM {t["membership"]} m JOIN {t["campaign"]} c ON c.id = m.campaign_id
          WHERE m.user_id = %(user)s)::text,
        (SELECT coalesce(json_agg(json_build_array(w.id, w.name, w.faction, w.disbanded_at IS NOT NULL,
                f.n, f.xp, r.wins, r.draws, r.losses, {campaign}) ORDER BY c.name, w.name, w.id), '[]')
           FROM {t["warband"]} w JOIN {t["campaign"]} c ON c.id = w.campaign_id
           CROSS JOIN LATERAL (
               SELECT count(*) AS n, coalesce(sum(xp), 0) AS xp FROM {t["fighter"]}
                WHERE warband_id = w.id AND status = %(active)s
           ) f
           CROSS JOIN LATERAL (
               SELECT count(*) FILTER (WHERE result = %(win)s) AS wins,
                   count(*) FILTER (WHERE result = %(draw)s) AS draws,
                   count(*) FILTER (WHERE result = %(loss)s) AS losses
                 FROM {t["player"]} WHERE warband_id = w.id
           ) r
          WHERE w.owner_id = %(user)s)::text,
        (SELECT coalesce(json_agg(json_build_array(gp.post_game, w.id, w.name,
                g.id, g.number, g.played_on, g.status, {campaign}) ORDER BY g.played_on, g.number, gp.id), '[]')
           FROM {t["player"]} gp JOIN {t["warband"]} w ON w.id = gp.warband_id
           JOIN {t["game"]} g ON g.id = gp.game_id JOIN {t["campaign"]} c ON c.id = g.campaign_id
          WHERE w.owner_id = %(user)s AND (g.status = %(in_progress)s OR gp.post_game = ANY(%(waiting)s)))::text,
        (SELECT coalesce(json_agg(json_build_array(g.id, g.number, g.played_on, g.status, {campaign},
                (SELECT coalesce(json_agg(json_build_array(gp.result, w.id, w.name) ORDER BY gp.id), '[]')
                   FROM {t["player"]} gp JOIN {t["warband"]} w ON w.id = gp.warband_id WHERE gp.game_id = g.id))
              ORDER BY g.played_on DESC, g.id DESC), '[]')
           FROM (
               SELECT id, number, played_on, status, campaign_id FROM {t["game"]}
                WHERE campaign_id IN (SELECT campaign_id FROM {t["membership"]} WHERE user_id = %(user)s)
                ORDER BY played_on DESC, id DESC LIMIT %(recent)s
           ) g JOIN {t["campaign"]} c ON c.id = g.campaign_id)::text"""


def dashboard_for(*, user, recent: int = 8) -> Dashboard:
    """A member's home page: campaigns, warbands, the post-games waiting for them, games being played, and the
    latest games in their campaigns."""
    params = {
        "user": user.pk,
        "active": Fighter.Status.ACTIVE,
        "win": GamePlayer.Result.WIN,
        "draw": GamePlayer.Result.DRAW,
        "loss": GamePlayer.Result.LOSS,
        "in_progress": Game.Status.IN_PROGRESS,
        "waiting": [str(state) for state in WAITING_POST_GAME],
        "recent": recent,
    }
    with connection.cursor() as db:
        db.execute(_sql(), params)
        texts = db.fetchone()
    return Dashboard(texts, waiting_items(user=user))
