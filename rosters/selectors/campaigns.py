"""The campaign page: members, warbands with headline numbers, games, standings."""

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Q

from campaigns.models import Campaign, Game, Membership
from campaigns.terms import Terms
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


@dataclass
class CampaignPage:
    campaign: Campaign
    terms: Terms
    members: list[Membership]
    warbands: list[Warband]
    games: list[Game]  # the latest LATEST_GAMES
    game_count: int
    leaderboard: list[StandingRow]

    @property
    def invitation_folded(self) -> bool:
        """The organiser's invitation box folds away once the group is in: someone besides the organisers has
        joined and every player has a warband (issue 16)."""
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


def campaign_page(*, campaign: Campaign) -> CampaignPage:
    """The campaign page: members, warbands with headline numbers, games with their warbands, standings."""
    members = list(Membership.objects.filter(campaign=campaign).select_related("user").order_by("joined_at"))
    warbands = list(
        warbands_with_headlines(Warband.objects.filter(campaign=campaign).select_related("owner")).order_by(
            "name", "id"
        )
    )
    games = list(
        games_with_players(Game.objects.filter(campaign=campaign)).order_by("-number")[:LATEST_GAMES]
    )
    game_count = Game.objects.filter(campaign=campaign).count()
    return CampaignPage(
        campaign=campaign,
        terms=campaign.terms,
        members=members,
        warbands=warbands,
        games=games,
        game_count=game_count,
        leaderboard=leaderboard(warbands, _values(campaign)),
    )


def campaign_games(*, campaign: Campaign):
    """Every game of the campaign, newest first, with its warbands (paged by the view)."""
    return games_with_players(Game.objects.filter(campaign=campaign)).order_by("-number")
