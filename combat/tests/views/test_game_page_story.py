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


def test_the_story_lists_each_injury_roll_in_the_historys_words(client, tc_table, player, player2):
    """A Trench Crusade game's story tells each Injury Roll from its stored record (RULING I-8): the pool, the
    faces, the modifiers, the total and the result; the markers' taps and an undone roll too."""
    from combat.services.tracker.board import tracker_undo
    from combat.services.tracker.injury import injury_roll, tracker_marker

    kit = tc_table["Kit"].pk
    for what in ("down", "blood"):
        tracker_marker(
            game=tc_table.game, target_id=kit, what=what, change=1, by=player, version=tc_table.version
        )
    injury_roll(
        game=tc_table.game,
        target_id=kit,
        by=player,
        version=tc_table.version,
        faces=[5, 4, 1],
        blood_spent=1,
        armour="standard",
    )
    injury_roll(
        game=tc_table.game, target_id=tc_table["Vera"].pk, by=player2, version=tc_table.version, faces=[1, 2]
    )
    tracker_undo(game=tc_table.game, by=player2, version=tc_table.version)
    injury_roll(
        game=tc_table.game, target_id=tc_table["Vera"].pk, by=player2, version=tc_table.version, faces=[6, 5]
    )
    client.force_login(player)

    story = story_of(client.get(f"/games/{tc_table.game.pk}/").content.decode())

    told = [
        "Kit is Down",
        "+1 Blood Marker on Kit (1 Blood Marker now)",
        "Kit: Injury Roll 3D6 keep 2 highest (5, 4, 1) -1 armour = 8: Down, 2 Blood Markers (1 Blood Marker spent)",
        "<del>Vera: Injury Roll 2D6 (1, 2) = 3: Minor Hit, 1 Blood Marker",
        "Vera: Injury Roll 2D6 (6, 5) = 11: Out of Action",
    ]
    at = [story.index(sentence) for sentence in told]
    assert at == sorted(at)  # in the order they were rolled


def test_the_story_of_injury_rolls_costs_the_same_queries_for_1_or_6_rolls(client, tc_table, player):
    from combat.services.tracker.injury import injury_roll

    def roll(name):
        injury_roll(
            game=tc_table.game, target_id=tc_table[name].pk, by=player, version=tc_table.version, faces=[1, 1]
        )

    client.force_login(player)
    roll("Kit")
    few = _queries(client, tc_table.game)
    for name in ("Vera", "Rusty", "Fidus", "Kit", "Vera"):
        roll(name)
    assert _queries(client, tc_table.game) == few
