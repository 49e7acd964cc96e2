"""rosters/views/game_scores.py: who corrects a game's score (the game policy: the organiser every side, a player
their own), bad input answered 422 with nothing changed."""

import datetime

import pytest

from campaigns.models import GamePlayer
from rosters.services.games import GameEntry, game_post_game_mark, game_record, game_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(campaign, player, warband, rival_warband):
    game = game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2025, 3, 1),
        entries=[
            GameEntry(warband, "win", victory_points=4),
            GameEntry(rival_warband, "loss", victory_points=6),
        ],
    )
    # After a post-game started, "Correct the game" is locked; the score is not.
    game_post_game_mark(player=game.players.get(warband=warband), state="done", by=player)
    return game


def scores(game):
    return {p.warband.name: (p.result, p.victory_points) for p in GamePlayer.objects.filter(game=game)}


def post(client, user, game, data):
    client.force_login(user)
    return client.post(f"/games/{game.pk}/score/", data)


def test_the_organiser_corrects_every_side(client, game, organiser, warband, rival_warband):
    client.force_login(organiser)
    page = client.get(f"/games/{game.pk}/score/").content.decode()
    assert f'name="vp_{warband.pk}"' in page
    assert f'name="vp_{rival_warband.pk}"' in page
    response = post(
        client,
        organiser,
        game,
        {
            f"result_{warband.pk}": "loss",
            f"vp_{warband.pk}": "4",
            f"result_{rival_warband.pk}": "win",
            f"vp_{rival_warband.pk}": "8",
            "reason": "the sides were swapped",
        },
    )
    assert response.status_code == 302
    assert scores(game) == {"Iron Sepulchre": ("loss", 4), "Heretic Legion": ("win", 8)}
    game_page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Correct the score" in game_page


def test_a_player_corrects_only_their_own_side(client, game, player, warband, rival_warband):
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/score/").content.decode()
    assert f'name="vp_{warband.pk}"' in page
    assert f'name="vp_{rival_warband.pk}"' not in page
    response = post(
        client,
        player,
        game,
        {
            f"result_{warband.pk}": "win",
            f"vp_{warband.pk}": "5",
            # The other side is not this player's: whatever is sent for it is ignored.
            f"result_{rival_warband.pk}": "win",
            f"vp_{rival_warband.pk}": "0",
            "reason": "one more objective",
        },
    )
    assert response.status_code == 302
    assert scores(game) == {"Iron Sepulchre": ("win", 5), "Heretic Legion": ("loss", 6)}


@pytest.mark.parametrize(("who", "status"), [("spectator", 403), ("outsider", 404)])
def test_a_spectator_or_an_outsider_corrects_nothing(client, request, game, warband, who, status):
    user = request.getfixturevalue(who)
    client.force_login(user)
    assert client.get(f"/games/{game.pk}/score/").status_code == status
    data = {f"result_{warband.pk}": "loss", f"vp_{warband.pk}": "0", "reason": "mine now"}
    assert post(client, user, game, data).status_code == status
    assert scores(game) == {"Iron Sepulchre": ("win", 4), "Heretic Legion": ("loss", 6)}


@pytest.mark.parametrize(
    ("vp", "reason", "error"),
    [
        ("5", "", "Say why the score changes"),
        ("-1", "typo", "Victory Points are at least 0."),
        ("101", "typo", "Victory Points are at most 100."),
        ("lots", "typo", "whole number"),
    ],
)
def test_bad_input_answers_422_and_changes_nothing(client, game, player, warband, vp, reason, error):
    response = post(
        client, player, game, {f"result_{warband.pk}": "win", f"vp_{warband.pk}": vp, "reason": reason}
    )
    assert response.status_code == 422
    assert error in response.content.decode()
    assert scores(game) == {"Iron Sepulchre": ("win", 4), "Heretic Legion": ("loss", 6)}


def test_results_that_no_longer_agree_answer_422(client, game, player, warband):
    response = post(
        client, player, game, {f"result_{warband.pk}": "draw", f"vp_{warband.pk}": "4", "reason": "x"}
    )
    assert response.status_code == 422
    assert "A draw is a draw for both warbands" in response.content.decode()
    assert scores(game) == {"Iron Sepulchre": ("win", 4), "Heretic Legion": ("loss", 6)}


def test_a_game_being_played_answers_409(client, campaign, player, warband, rival_warband):
    playing = game_start(
        campaign=campaign, by=player, played_on=datetime.date(2025, 3, 2), warbands=[warband, rival_warband]
    )
    response = post(
        client, player, playing, {f"result_{warband.pk}": "win", f"vp_{warband.pk}": "4", "reason": "x"}
    )
    assert response.status_code == 409
    assert "still being played" in response.content.decode()
