"""The end of the game through the page."""

import pytest

from campaigns.models import Game, OutOfAction
from combat.models import TrackerFighter
from combat.services.tracker.damage import tracker_apply_damage
from combat.tests.tracker_helpers import board_url, text

pytestmark = pytest.mark.django_db


def test_the_end_of_the_game_through_the_page(client, table, player, player2):
    tracker_apply_damage(game=table.game, target_id=table["Kit"].pk, damage=8, by=player2, version=0)
    client.force_login(player)
    client.post(board_url(table, "confusion/friends/"), {"version": 1})
    review = text(client.get(board_url(table, "end/")))
    assert "Kit" in review
    assert "No warband earned Harsh Lessons XP." in review or "No crew earned Harsh Lessons XP." in review

    response = client.post(
        board_url(table, "end/"),
        {"version": table.version, f"result_{table.alex.pk}": "win", f"result_{table.sam.pk}": "loss"},
    )
    assert response.status_code == 302
    board = text(client.get(board_url(table)))
    assert "Game over" in board
    assert f"/games/{table.game.pk}/post-game/{table.sam.warband_id}/" in board
    assert list(OutOfAction.objects.values_list("fighter__name", flat=True)) == ["Kit"]
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.RECORDED


def test_the_end_of_the_game_needs_the_results(client, table, player):
    client.force_login(player)
    response = client.post(board_url(table, "end/"), {"version": 0, f"result_{table.alex.pk}": "win"})
    assert response.status_code == 422
    assert "Enter Heretic Legion&#x27;s result." in text(response)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS


def test_the_end_of_the_game_waits_for_an_open_shooting_engagement(
    client, table, player, make_fighter, rival_warband
):
    rats = make_fighter(rival_warband, "Rats", unit_size=3, health=2, endurance=3)
    TrackerFighter.objects.create(tracker=table.tracker, player=table.sam, fighter=rats, models_left=3)
    client.force_login(player)
    shot = {"damage": 2, "distance_1": "1", "distance_2": "2", "distance_3": "3", "shooting": "on"}
    client.post(board_url(table, f"fighters/{rats.pk}/damage/"), {"version": table.version, **shot})
    page = text(client.get(board_url(table, "end/")))
    assert "A shooting engagement is still open on Rats" in page
    assert 'id="end-form"' not in page
    results = {f"result_{table.alex.pk}": "win", f"result_{table.sam.pk}": "loss"}
    response = client.post(board_url(table, "end/"), {"version": table.version, **results})
    assert response.status_code == 409
    assert "end the shooting first" in text(response)
    assert Game.objects.get(pk=table.game.pk).status == Game.Status.IN_PROGRESS


def test_a_spectator_is_refused_the_end_of_the_game_page_and_its_post(client, table, spectator, organiser):
    client.force_login(spectator)
    page = client.get(board_url(table, "end/"))
    assert page.status_code == 403
    refused = client.post(board_url(table, "end/"), {"version": 0, f"result_{table.alex.pk}": "win"})
    assert refused.status_code == 403
    assert Game.objects.get(pk=table.game.pk).status == Game.Status.IN_PROGRESS
    # The organiser and the players keep it (the board's own tests cover the players).
    client.force_login(organiser)
    assert client.get(board_url(table, "end/")).status_code == 200


def test_the_end_of_the_game_records_both_sides_victory_points_and_the_standings_follow(
    client, table, player
):
    from rosters.selectors.campaigns import campaign_page

    client.force_login(player)
    page = text(client.get(board_url(table, "end/")))
    assert "Iron Sepulchre&#x27;s Victory Points" in page
    assert "Heretic Legion&#x27;s Victory Points" in page
    response = client.post(
        board_url(table, "end/"),
        {
            "version": table.version,
            f"result_{table.alex.pk}": "loss",
            f"vp_{table.alex.pk}": "3",
            f"result_{table.sam.pk}": "win",
            f"vp_{table.sam.pk}": "7",
        },
    )
    assert response.status_code == 302
    table.alex.refresh_from_db()
    table.sam.refresh_from_db()
    assert (table.alex.victory_points, table.sam.victory_points) == (3, 7)
    # RULING W-2: Victory Points first.
    standings = campaign_page(campaign=table.game.campaign).leaderboard
    assert [(row.warband.name, row.warband.victory_points) for row in standings] == [
        ("Heretic Legion", 7),
        ("Iron Sepulchre", 3),
    ]


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ("-1", "Victory Points are at least 0."),
        ("101", "Victory Points are at most 100."),
        ("x", "whole number"),
    ],
)
def test_the_end_of_the_game_refuses_bad_victory_points_and_changes_nothing(
    client, table, player, typed, error
):
    client.force_login(player)
    response = client.post(
        board_url(table, "end/"),
        {
            "version": table.version,
            f"result_{table.alex.pk}": "win",
            f"vp_{table.alex.pk}": typed,
            f"result_{table.sam.pk}": "loss",
        },
    )
    assert response.status_code == 422
    assert error in text(response)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS


def test_a_trench_crusade_end_of_the_game_says_nothing_of_harsh_lessons(client, tc_table, player):
    """Harsh Lessons are Fallout: Factions' crew XP (RULING D-11); a Trench Crusade board's end never earns them, so
    its review does not list them, while a Fallout: Factions board's does (the test above)."""
    client.force_login(player)
    review = text(client.get(board_url(tc_table, "end/")))
    assert "End the game and record it" in review
    assert "Harsh Lessons" not in review


def test_the_end_of_a_trench_crusade_game_says_each_warbands_post_game_is_waiting(client, tc_table, player):
    """The message speaks the campaign's words (a Fallout: Factions board's says "crew", the board above)."""
    client.force_login(player)
    results = {f"result_{tc_table.alex.pk}": "win", f"result_{tc_table.sam.pk}": "loss"}
    response = client.post(board_url(tc_table, "end/"), {"version": tc_table.version, **results}, follow=True)
    assert "is recorded. Each warband&#x27;s post-game is waiting." in text(response)


def test_the_end_of_a_fallout_factions_game_says_each_crews_post_game_is_waiting(client, table, player):
    client.force_login(player)
    results = {f"result_{table.alex.pk}": "win", f"result_{table.sam.pk}": "loss"}
    response = client.post(board_url(table, "end/"), {"version": table.version, **results}, follow=True)
    assert "is recorded. Each crew&#x27;s post-game is waiting." in text(response)
