"""The dashboard's reads: the post-games waiting for each member."""

import datetime

import pytest
from django.db.models import F

from campaigns.models import Game, GamePlayer
from rosters.models import Fighter
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


# Memberships, warbands, the post-games waiting and the games being played (one query), the recent games with their
# players (one query), and the ransom offers waiting (the one provider registered today).
DASHBOARD_QUERIES = 5


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
