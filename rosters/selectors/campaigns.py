"""The campaign page: members, warbands with headline numbers, games, standings."""

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection
from django.db.models import Q

from campaigns.models import Campaign, Game, Membership
from combat.rules import RosterFighter, campaign_stage, rank_standings, warband_value
from combat.rules.campaign_limits import BATTLES
from rosters.models import Fighter, Warband
from rosters.selectors.common import games_with_players, warbands_with_headlines

LATEST_GAMES = 10  # the campaign page lists these; the games page has them all, a page at a time
STAGE_WORDS = {"early": "Early", "mid": "Mid", "endgame": "Endgame", "final": "Final Battle"}


@dataclass(frozen=True)
class StandingRow:
    """A leaderboard row: the warband, where it ranks (RULING W-2), its value (C-2) and its stage (W-1)."""

    place: int
    warband: Warband
    value: int
    stage: str  # the stage of the battle it plays next, in words; "Done" after its 12th


def _values(campaign: Campaign) -> dict[int, int]:
    """Each warband's value (RULING C-2, `rules.warband_value`) from one query of its fighters' costs."""
    fighters: dict[int, list[RosterFighter]] = defaultdict(list)
    rows = (
        Fighter.objects.filter(warband__campaign=campaign)
        .annotate(kit=ArrayAgg("battlekit__cost", filter=Q(battlekit__isnull=False), default=[]))
        .values_list("warband_id", "cost", "kit", "status")
    )
    for warband_id, cost, kit, status in rows:
        fighters[warband_id].append(
            RosterFighter(cost=cost, battlekit=tuple(kit), removed=status != Fighter.Status.ACTIVE)
        )
    return {warband_id: warband_value(rows) for warband_id, rows in fighters.items()}


def _stage(played: int) -> str:
    battle = played + 1
    return STAGE_WORDS[campaign_stage(battle)] if battle in BATTLES else "Done"


def leaderboard(warbands: list[Warband], values: dict[int, int]) -> list[StandingRow]:
    """The standings, ranked by the engine (RULING W-2: Victory Points, then games won, then name; a disbanded
    warband keeps its row, marked)."""
    by_key: dict[tuple, list[Warband]] = defaultdict(list)
    rows = []
    for warband in warbands:
        disbanded = warband.disbanded_at is not None
        key = (warband.name, warband.victory_points, warband.wins, disbanded)
        by_key[key].append(warband)
        rows.append(
            {
                "warband": warband.name,
                "victory_points": warband.victory_points,
                "wins": warband.wins,
                "disbanded": disbanded,
            }
        )
    ranked = []
    for place, standing in enumerate(rank_standings(rows), start=1):
        warband = by_key[(standing.warband, standing.victory_points, standing.wins, standing.disbanded)].pop(
            0
        )
        ranked.append(
            StandingRow(
                place=place,
                warband=warband,
                value=values.get(warband.pk, 0),
                stage=_stage(warband.games_played),
            )
        )
    return ranked


# The campaign page's version: PostgreSQL's triggers change it in the transaction of every write to what the
# page's cached parts show (rosters/migrations/0006_as_of_and_page_version.py); 0 until the first such write.
PAGE_VERSION_SQL = "SELECT version FROM rosters_campaign_page_version WHERE campaign_id = %s"


class CampaignPage:
    """The campaign page's data, each part loaded on first use only: the page caches the parts that show them
    under `version` (templates/rosters/campaign.html), so a page whose campaign has not changed since it was last
    shown, by anyone, through any process, loads none of them."""

    def __init__(self, *, campaign: Campaign, version: int):
        self.campaign = campaign
        self.terms = campaign.terms
        self.version = version

    @cached_property
    def members(self) -> list[Membership]:
        return list(
            Membership.objects.filter(campaign=self.campaign).select_related("user").order_by("joined_at")
        )

    @cached_property
    def warbands(self) -> list[Warband]:
        queryset = Warband.objects.filter(campaign=self.campaign).select_related("owner")
        return list(warbands_with_headlines(queryset).order_by("name", "id"))

    @cached_property
    def games(self) -> list[Game]:
        """The latest LATEST_GAMES, with their warbands."""
        return list(
            games_with_players(Game.objects.filter(campaign=self.campaign)).order_by("-number")[:LATEST_GAMES]
        )

    @cached_property
    def game_count(self) -> int:
        return Game.objects.filter(campaign=self.campaign).count()

    @cached_property
    def leaderboard(self) -> list[StandingRow]:
        return leaderboard(self.warbands, _values(self.campaign))

    @property
    def invitation_folded(self) -> bool:
        """The organiser's invitation box folds away once the group is in: someone besides the organisers has
        joined and every player has a warband."""
        others = [m for m in self.members if m.role != Membership.Role.ORGANISER]
        owners = {warband.owner_id for warband in self.warbands}
        players = [m for m in self.members if m.role == Membership.Role.PLAYER]
        return bool(others) and all(m.user_id in owners for m in players)

    @property
    def joined(self) -> int:
        """Members who joined through the invitation (everyone but the organisers)."""
        return sum(1 for m in self.members if m.role != Membership.Role.ORGANISER)

    @property
    def standings(self) -> list[Warband]:
        """The warbands in the leaderboard's order (RULING W-2)."""
        return [row.warband for row in self.leaderboard]

    @property
    def more_games(self) -> bool:
        return self.game_count > len(self.games)


def campaign_page_version(*, campaign: Campaign) -> int:
    with connection.cursor() as cursor:
        cursor.execute(PAGE_VERSION_SQL, [campaign.pk])
        row = cursor.fetchone()
    return row[0] if row else 0


def campaign_page(*, campaign: Campaign) -> CampaignPage:
    """The campaign page: members, warbands with headline numbers, games with their warbands, standings (each
    read when first used), and the version its cached parts are kept under (one query)."""
    return CampaignPage(campaign=campaign, version=campaign_page_version(campaign=campaign))


def campaign_games(*, campaign: Campaign):
    """Every game of the campaign, newest first, with its warbands (paged by the view)."""
    return games_with_players(Game.objects.filter(campaign=campaign)).order_by("-number")
