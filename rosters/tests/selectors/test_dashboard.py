"""The dashboard's reads: the post-games waiting for each member."""

import pytest

from rosters.selectors import dashboard as dashboard_selectors

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
