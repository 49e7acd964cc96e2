"""The game page tells the tracker's story: every action on the board, in order, read from the history
the combat app registers (combat/history/tracker.py), at a fixed number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat.tests.tracker_helpers import damage, setup_game

pytestmark = pytest.mark.django_db


def story_of(html: str) -> str:
    start = html.index('id="tracker-story"')
    return html[start : html.index("</section>", start)]


def test_the_game_page_tells_the_boards_actions_in_order(client, table, player):
    damage(table, "Fidus", 0, player)
    damage(table, "Kit", 0, player)
    client.force_login(player)

    html = client.get(f"/games/{table.game.pk}/").content.decode()

    story = story_of(html)
    assert "began on the tracker" in story
    began, fidus, kit = (
        story.index(t) for t in ("began on the tracker", "Fidus took no Damage", "Kit took no Damage")
    )
    assert began < fidus < kit  # oldest first


def test_a_game_never_tracked_has_no_story(client, campaign, warband, rival_warband, make_fighter, player):
    untracked = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        start=False,
    )
    client.force_login(player)
    html = client.get(f"/games/{untracked.game.pk}/").content.decode()
    assert "Battle report" in html
    assert 'id="tracker-story"' not in html


def _queries(client, game) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/games/{game.pk}/").status_code == 200
    return len(queries)


def test_the_story_costs_the_same_queries_for_1_or_8_actions(client, table, player):
    client.force_login(player)
    damage(table, "Fidus", 0, player)
    few = _queries(client, table.game)
    for name in ("Kit", "Mags", "Double-Joe", "Vera", "Rusty", "Brick", "Kit"):
        damage(table, name, 0, player)
    assert _queries(client, table.game) == few
