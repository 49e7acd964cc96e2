"""The dashboard's reads: the post-games waiting for each member."""

import datetime

import pytest
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaigns.models import Campaign, Game, GamePlayer, Membership
from rosters.models import Fighter, Warband
from rosters.selectors import dashboard as dashboard_selectors
from rosters.services import games as game_services
from rosters.services.games import GameEntry

pytestmark = pytest.mark.django_db


def test_the_dashboard_shows_the_post_games_waiting(player, player2, outsider, played):
    dashboard = dashboard_selectors.dashboard_for(user=player)
    assert [(p.game.number, p.warband.name) for p in dashboard.waiting] == [
        (1, "Iron Sepulchre"),
        (2, "Iron Sepulchre"),
    ]
    assert [g.number for g in dashboard.recent_games] == [2, 1]
    assert [m.campaign.name for m in dashboard.memberships] == ["The Long Trench"]
    assert dashboard.memberships[0].warband_count == 2
    empty = dashboard_selectors.dashboard_for(user=outsider)
    assert (empty.memberships, empty.warbands, empty.waiting, empty.recent_games) == ([], [], [], [])


def test_a_game_being_played_is_not_a_post_game_waiting_and_the_newest_is_first(player, campaign, played):
    """The post-games waiting and the games being played come from one query and are told apart by the game's
    status: a game on the tracker waits for no post-game yet."""
    first, second = Game.objects.filter(campaign=campaign).order_by("number")
    Game.objects.filter(pk__in=[first.pk, second.pk]).update(status=Game.Status.IN_PROGRESS)
    dashboard = dashboard_selectors.dashboard_for(user=player)
    assert dashboard.waiting == []
    assert [(p.game.number, p.warband.name) for p in dashboard.playing] == [
        (2, "Iron Sepulchre"),
        (1, "Iron Sepulchre"),
    ]
    Game.objects.filter(pk=first.pk).update(status=Game.Status.DONE)
    dashboard = dashboard_selectors.dashboard_for(user=player)
    assert [p.game.number for p in dashboard.waiting] == [1]
    assert [p.game.number for p in dashboard.playing] == [2]


def test_the_dashboard_reads_its_warbands_figures(player, played):
    (warband,) = dashboard_selectors.dashboard_for(user=player).warbands
    # Active fighters only: the dead Fallen Pilgrim's 9 XP is not counted.
    assert (warband.fighter_count, warband.total_xp) == (2, 7)
    assert (warband.wins, warband.draws, warband.losses) == (1, 1, 0)


# Memberships, warbands, the post-games waiting and the games being played, the recent games with their players (one
# statement), and the ransom offers waiting (the one provider registered today).
DASHBOARD_QUERIES = 2


def test_the_dashboard_costs_the_same_whatever_the_games(
    player, campaign, warband, rival_warband, played, django_assert_num_queries
):
    with django_assert_num_queries(DASHBOARD_QUERIES):
        dashboard_selectors.dashboard_for(user=player)
    for day in range(3, 10):
        game_services.game_record(
            campaign=campaign,
            by=player,
            played_on=datetime.date(2025, 4, day),
            entries=[GameEntry(warband, "loss"), GameEntry(rival_warband, "win")],
        )
    with django_assert_num_queries(DASHBOARD_QUERIES):
        dashboard = dashboard_selectors.dashboard_for(user=player)
    assert len(dashboard.waiting) == 9
    assert len(dashboard.recent_games) == 8


def _drawn(user) -> str:
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    from rosters.views.dashboard import _kept_words

    request = RequestFactory().get("/")
    request.user = user
    board = dashboard_selectors.dashboard_for(user=user)
    context = {"dashboard": board, "kept": _kept_words(board.warbands)}
    return render_to_string("rosters/dashboard.html", context, request=request)


def test_the_dashboards_kept_parts_are_drawn_again_when_what_they_show_changes(player, played):
    """The parts are kept under a digest of the rows they show: a change made behind the services' back (no page
    generation told of it) still shows at the next read."""
    first = _drawn(player)
    assert first.split("<main")[1] == _drawn(player).split("<main")[1]
    assert "Open the post-game" in first
    assert '<td data-label="XP" class="num">7</td>' in first
    GamePlayer.objects.filter(warband__owner=player).update(post_game=GamePlayer.PostGame.DONE)
    Fighter.objects.filter(warband__owner=player, status=Fighter.Status.ACTIVE).update(xp=F("xp") + 10)
    after = _drawn(player)
    assert "Open the post-game" not in after
    assert '<td data-label="XP" class="num">27</td>' in after


def test_the_dashboards_statement_reads_what_the_orm_would(player, player2, campaign, warband, played):
    """The page's one statement of plain SQL against the same reads through the ORM, over two campaigns of two
    presets, an archived one, a disbanded warband, a game being played and a game of a campaign left."""
    wastes = Campaign.objects.create(
        name="Wastes", preset=Campaign.Preset.FALLOUT_FACTIONS, status="archived", created_by=player
    )
    Membership.objects.create(campaign=wastes, user=player, role=Membership.Role.ORGANISER)
    crew = Warband.objects.create(
        campaign=wastes, owner=player, name="Diamond Crew", disbanded_at=timezone.now()
    )
    Warband.objects.create(campaign=wastes, owner=player2, name="Raiders")
    being_played = Game.objects.create(
        campaign=wastes, number=1, played_on=datetime.date(2025, 3, 9), status=Game.Status.IN_PROGRESS
    )
    GamePlayer.objects.create(game=being_played, warband=crew)
    Game.objects.create(campaign=wastes, number=2, played_on=datetime.date(2025, 3, 10))  # no players yet
    left = Campaign.objects.create(name="Left", created_by=player2)
    gone = Warband.objects.create(campaign=left, owner=player, name="Left Behind")
    game = Game.objects.create(campaign=left, number=1, played_on=datetime.date(2025, 3, 2))
    GamePlayer.objects.create(game=game, warband=gone, post_game=GamePlayer.PostGame.IN_PROGRESS)

    board = dashboard_selectors.dashboard_for(user=player)

    memberships = (
        Membership.objects.filter(user=player)
        .select_related("campaign")
        .annotate(count=Count("campaign__warbands"))
        .order_by("-campaign__created_at", "pk")
    )
    assert [(m.role, m.warband_count, _campaign(m.campaign)) for m in board.memberships] == [
        (m.role, m.count, _campaign(m.campaign)) for m in memberships
    ]
    warbands = (
        Warband.objects.filter(owner=player)
        .select_related("campaign")
        .annotate(
            count=Count("fighters", filter=Q(fighters__status=Fighter.Status.ACTIVE), distinct=True),
            xp=Coalesce(Sum("fighters__xp", filter=Q(fighters__status=Fighter.Status.ACTIVE)), 0),
        )
        .order_by("campaign__name", "name", "pk")
    )
    results = {
        (row["warband_id"], row["result"]): row["n"]
        for row in GamePlayer.objects.values("warband_id", "result").annotate(n=Count("pk"))
    }
    assert [
        (w.id, w.name, w.faction, w.disbanded, w.fighter_count, w.total_xp, w.wins, w.draws, w.losses)
        + (_campaign(w.campaign),)
        for w in board.warbands
    ] == [
        (w.pk, w.name, w.faction, w.disbanded_at is not None, w.count, w.xp)
        + tuple(results.get((w.pk, result), 0) for result in ("win", "draw", "loss"))
        + (_campaign(w.campaign),)
        for w in warbands
    ]
    entries = (
        GamePlayer.objects.filter(warband__owner=player)
        .filter(Q(game__status=Game.Status.IN_PROGRESS) | Q(post_game__in=["pending", "in_progress"]))
        .select_related("game__campaign", "warband")
        .order_by("game__played_on", "game__number", "pk")
    )
    waiting = [e for e in entries if e.game.status != Game.Status.IN_PROGRESS]
    playing = sorted(
        (e for e in entries if e.game.status == Game.Status.IN_PROGRESS),
        key=lambda e: e.game.played_on,
        reverse=True,
    )
    for lines, rows in [(board.waiting, waiting), (board.playing, playing)]:
        assert [
            (e.game.id, e.game.number, _campaign(e.game.campaign), e.warband.id, e.warband.name)
            for e in lines
        ] == [
            (e.game.pk, e.game.number, _campaign(e.game.campaign), e.warband.pk, e.warband.name) for e in rows
        ]
        assert [(e.post_game, e.post_game_label) for e in lines] == [
            (e.post_game, e.get_post_game_display()) for e in rows
        ]
    recent = (
        Game.objects.filter(campaign__memberships__user=player)
        .select_related("campaign")
        .prefetch_related("players__warband")
        .order_by("-played_on", "-pk")[:8]
    )
    assert [
        (g.id, g.number, g.played_on, _campaign(g.campaign))
        + tuple((p.warband.name, p.result, p.result_label) for p in g.players)
        for g in board.recent_games
    ] == [
        (g.pk, g.number, g.played_on, _campaign(g.campaign))
        + tuple(
            (p.warband.name, p.result, p.get_result_display())
            for p in sorted(g.players.all(), key=lambda p: p.pk)
        )
        for g in recent
    ]
    assert [w.name for w in board.warbands] == ["Left Behind", "Iron Sepulchre", "Diamond Crew"]
    assert [e.game.number for e in board.playing] == [1]
    assert len(board.waiting) == 3
    assert [m.campaign.preset_label for m in board.memberships] == ["Fallout: Factions", "Trench Crusade"]


def _campaign(campaign) -> tuple:
    return (campaign.id, campaign.name, campaign.preset, campaign.status)
