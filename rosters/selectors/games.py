"""A game's page and the game form's warbands and Out of Action marks."""

from dataclasses import dataclass, field

from django.db.models import OuterRef, Prefetch, Q, Subquery
from django.db.models.fields.json import KT
from pghistory.models import Context

from campaigns.models import BattleReport, Campaign, Game, GamePlayer, OutOfAction
from campaigns.terms import Terms
from combat.rules import counts_as_elite
from rosters.history import registry
from rosters.history.entries import HistoryEntry, HistoryFilter
from rosters.history.feed import history_page
from rosters.models import Fighter, Warband
from rosters.selectors.common import roster_order

# The tracker's story on the game page: its actions in order, up to this many (a long game's first ones; the
# campaign's history, filtered by the game, holds them all).
STORY_LIMIT = 200


@dataclass
class GamePage:
    game: Game
    terms: Terms
    players: list[GamePlayer]
    report: BattleReport | None = None
    story: list[HistoryEntry] = field(default_factory=list)  # the tracker's actions, oldest first
    story_more: bool = False  # the story goes on past STORY_LIMIT actions


def _tracker_story(game: Game) -> tuple[list[HistoryEntry], bool]:
    """The game's actions on the tracker, oldest first, read from the history as the combat app tells them
    (combat/history/tracker.py registers its events with rosters' history): rosters names no combat table."""
    story = history_page(
        campaign=game.campaign,
        filters=HistoryFilter(campaign_id=game.campaign_id, game_id=game.pk, kind="ingame"),
        limit=STORY_LIMIT,
    )
    return story.entries[::-1], story.older is not None


def _marks_as_then(game: Game):
    """The game's Out of Action marks, each with its fighter's keywords and Champion flag as they stood in the
    game: from the fighter's last history event before the game's first post-game write (a Promotion in that
    post-game or later makes a Troop ELITE after the game, not in it), read in the marks' own query."""
    first_post_game = (
        Context.objects.annotate(game_id=KT("metadata__game"), action=KT("metadata__action"))
        .filter(game_id=str(game.pk), action__startswith="post_game.")
        .order_by("created_at")
        .values("created_at")[:1]
    )
    then = (
        registry.by_name("fighter")
        .model.objects.filter(pgh_obj_id=OuterRef("fighter_id"))
        .exclude(pgh_created_at__gte=Subquery(first_post_game))
        .order_by("-pgh_created_at", "-pgh_id")
    )
    return (
        OutOfAction.objects.select_related("fighter")
        .annotate(
            keywords_then=Subquery(then.values("keywords")[:1]),
            champion_then=Subquery(then.values("champion")[:1]),
        )
        .order_by("id")
    )


def game_page(*, game: Game) -> GamePage:
    """A game: its warbands with result, Out of Action fighters and post-game state, its battle report, and the
    tracker's story if it was played on the tracker. A fixed number of queries whatever the game's size."""
    players = list(
        GamePlayer.objects.filter(game=game)
        .select_related("warband__owner")
        .prefetch_related(
            Prefetch("out_of_action", queryset=_marks_as_then(game)),
            # The fighters fielded, and the warband's active roster to pick them from.
            Prefetch("fielded", queryset=Fighter.objects.order_by("id")),
            Prefetch(
                "warband__fighters",
                queryset=Fighter.objects.filter(status=Fighter.Status.ACTIVE).order_by("id"),
                to_attr="active_fighters",
            ),
        )
        .order_by("id")
    )
    for player in players:
        for mark in player.out_of_action.all():
            # Null when the fighter has no event before the post-game (a row older than its history): as it is.
            keywords = mark.fighter.keywords if mark.keywords_then is None else mark.keywords_then
            champion = mark.fighter.champion if mark.champion_then is None else mark.champion_then
            mark.elite_then = counts_as_elite(keywords=keywords, champion=champion)
    report = BattleReport.objects.select_related("author").filter(game=game).first()
    story, more = _tracker_story(game)
    return GamePage(
        game=game, terms=game.campaign.terms, players=players, report=report, story=story, story_more=more
    )


def warbands_for_game_form(*, campaign: Campaign, game: Game | None = None) -> list[Warband]:
    """The campaign's warbands with their active fighters, for the Out of Action checkboxes: the disbanded ones
    play no more games, but one in `game` (being corrected or finished by hand) keeps its place in it."""
    active = Fighter.objects.filter(status=Fighter.Status.ACTIVE).order_by("id")
    playing = Q(game_entries__game=game) if game is not None else Q(pk__in=[])
    warbands = list(
        Warband.objects.filter(Q(disbanded_at__isnull=True) | playing, campaign=campaign)
        .distinct()
        .select_related("owner")
        .prefetch_related(Prefetch("fighters", queryset=active, to_attr="active_fighters"))
        .order_by("name", "id")
    )
    for warband in warbands:
        warband.active_fighters.sort(key=roster_order)
    return warbands


def out_of_action_ids(*, game: Game) -> dict[int, set[int]]:
    """Per warband id, the ids of its fighters marked Out of Action in the game."""
    marks: dict[int, set[int]] = {}
    for warband_id, fighter_id in OutOfAction.objects.filter(player__game=game).values_list(
        "player__warband_id", "fighter_id"
    ):
        marks.setdefault(warband_id, set()).add(fighter_id)
    return marks


def game_form_initial(*, game: Game) -> dict:
    """The game form's values for a game being corrected: its fields, and per warband that took part, its result
    and the fighters marked Out of Action."""
    marks = out_of_action_ids(game=game)
    initial = {"played_on": game.played_on, "scenario": game.scenario, "notes": game.notes}
    for player in GamePlayer.objects.filter(game=game).order_by("id"):
        initial[f"wb{player.warband_id}_played"] = True
        initial[f"wb{player.warband_id}_result"] = player.result
        initial[f"wb{player.warband_id}_vp"] = player.victory_points
        initial[f"wb{player.warband_id}_out"] = [str(pk) for pk in marks.get(player.warband_id, ())]
    return initial


def game_player(*, game: Game, warband_id: int) -> GamePlayer | None:
    """The warband's entry in the game, with its warband (for fielding its fighters), or None."""
    return GamePlayer.objects.select_related("warband").filter(game=game, warband_id=warband_id).first()


def game_players(*, game: Game) -> list[GamePlayer]:
    """Every warband's entry in the game with its warband and owner, in the order they joined (one query)."""
    return list(GamePlayer.objects.filter(game=game).select_related("warband__owner").order_by("id"))
