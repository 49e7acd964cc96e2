"""A member's home page."""

from dataclasses import dataclass, field

from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, Subquery, Value
from django.db.models.functions import Coalesce

from campaigns.models import Game, GamePlayer, Membership
from rosters.models import Fighter, Warband
from rosters.selectors.common import WAITING_POST_GAME, count_of, sum_of
from rosters.selectors.waiting import WaitingItem, waiting_items


@dataclass
class Dashboard:
    memberships: list[Membership]
    warbands: list[Warband]
    waiting: list[GamePlayer]
    playing: list[GamePlayer]
    recent_games: list[Game]
    # What other apps say waits for the user (a ransom offer to answer, one waiting for an answer).
    items: list[WaitingItem] = field(default_factory=list)


def dashboard_for(*, user, recent: int = 8) -> Dashboard:
    """A member's home page: campaigns, warbands, the post-games waiting for them, games being played, and the
    latest games in their campaigns."""
    memberships = list(
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .annotate(
            warband_count=Coalesce(
                Subquery(
                    Warband.objects.filter(campaign=OuterRef("campaign"))
                    .order_by()
                    .values("campaign")
                    .annotate(n=Count("pk"))
                    .values("n")[:1],
                    output_field=IntegerField(),
                ),
                Value(0),
            )
        )
        .order_by("-campaign__created_at")
    )
    waiting, playing = _waiting_and_playing(user)
    return Dashboard(
        memberships=memberships,
        warbands=_warbands(user),
        waiting=waiting,
        playing=playing,
        recent_games=_recent_games(user, recent),
        items=waiting_items(user=user),
    )


def _warbands(user) -> list[Warband]:
    """The user's warbands with the figures the page shows (active fighters, their XP, wins, draws and losses):
    only those of `warbands_with_headlines`, whose other five subqueries the page never read."""
    active = Fighter.objects.filter(warband=OuterRef("pk"), status=Fighter.Status.ACTIVE)
    entries = GamePlayer.objects.filter(warband=OuterRef("pk"))
    return list(
        Warband.objects.filter(owner=user)
        .select_related("campaign")
        .annotate(
            fighter_count=count_of(active),
            total_xp=sum_of(active, "xp"),
            wins=count_of(entries.filter(result=GamePlayer.Result.WIN)),
            draws=count_of(entries.filter(result=GamePlayer.Result.DRAW)),
            losses=count_of(entries.filter(result=GamePlayer.Result.LOSS)),
        )
        .order_by("campaign__name", "name")
    )


def _waiting_and_playing(user) -> tuple[list[GamePlayer], list[GamePlayer]]:
    """The post-games waiting for the user's warbands (oldest game first) and their games being played (newest
    first), read in one query and told apart here."""
    in_progress = Q(game__status=Game.Status.IN_PROGRESS)
    rows = list(
        GamePlayer.objects.filter(warband__owner=user)
        .filter(in_progress | Q(post_game__in=WAITING_POST_GAME))
        .select_related("game__campaign", "warband")
        .order_by("game__played_on", "game__number", "id")
    )
    waiting = [row for row in rows if row.game.status != Game.Status.IN_PROGRESS]
    playing = sorted(
        (row for row in rows if row.game.status == Game.Status.IN_PROGRESS),
        key=lambda row: row.game.played_on,
        reverse=True,
    )
    return waiting, playing


def _recent_games(user, recent: int) -> list[Game]:
    """The latest games in the user's campaigns, each with its warbands and results: the page names nothing
    else of them (`games_with_players` also counts each player's Out of Action marks and reads its owner)."""
    players = GamePlayer.objects.select_related("warband").order_by("id")
    return list(
        Game.objects.filter(campaign__memberships__user=user)
        .select_related("campaign")
        .prefetch_related(Prefetch("players", queryset=players))
        .order_by("-played_on", "-id")[:recent]
    )
