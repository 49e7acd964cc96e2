"""A member's home page."""

from dataclasses import dataclass, field

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from campaigns.models import Game, GamePlayer, Membership
from rosters.models import Warband
from rosters.selectors.common import WAITING_POST_GAME, games_with_players, warbands_with_headlines
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
    warbands = list(
        warbands_with_headlines(Warband.objects.filter(owner=user).select_related("campaign")).order_by(
            "campaign__name", "name"
        )
    )
    mine = GamePlayer.objects.filter(warband__owner=user).select_related("game__campaign", "warband")
    waiting = list(
        mine.filter(post_game__in=WAITING_POST_GAME)
        .exclude(game__status=Game.Status.IN_PROGRESS)
        .order_by("game__played_on", "game__number")
    )
    playing = list(mine.filter(game__status=Game.Status.IN_PROGRESS).order_by("-game__played_on"))
    games = list(
        games_with_players(
            Game.objects.filter(campaign__memberships__user=user).select_related("campaign")
        ).order_by("-played_on", "-id")[:recent]
    )
    return Dashboard(
        memberships=memberships,
        warbands=warbands,
        waiting=waiting,
        playing=playing,
        recent_games=games,
        items=waiting_items(user=user),
    )
