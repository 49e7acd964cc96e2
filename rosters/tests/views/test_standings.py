"""Victory Points and the leaderboard: each game records VP per warband, range-checked; the
campaign page ranks the warbands by the engine (RULING W-2) with a constant query count, and lists only the
latest games, with all of them on a paged games page."""

import datetime

import pytest

from campaigns.models import Game, GamePlayer
from rosters.models import Warband
from rosters.selectors import campaigns as campaign_selectors
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services.games import GameEntry
from rosters.tests.views.test_games import game_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


def test_a_game_records_victory_points_per_warband(as_player, world):
    data = game_data(world, **{f"wb{world.warband.pk}_vp": 7, f"wb{world.rival.pk}_vp": 3})
    assert as_player.post(f"/campaigns/{world.campaign.pk}/games/new/", data).status_code == 302
    game = Game.objects.get(number=3)
    points = dict(GamePlayer.objects.filter(game=game).values_list("warband_id", "victory_points"))
    assert points == {world.warband.pk: 7, world.rival.pk: 3}


@pytest.mark.parametrize(
    ("vp", "message"),
    [
        (-1, "Victory Points are at least 0."),
        (101, "Victory Points are at most 100."),
        ("x", "Victory Points must be a whole number."),
    ],
)
def test_victory_points_out_of_range_are_refused_and_nothing_is_recorded(as_player, world, vp, message):
    data = game_data(world, **{f"wb{world.warband.pk}_vp": vp})
    response = as_player.post(f"/campaigns/{world.campaign.pk}/games/new/", data)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Game.objects.filter(number=3).exists()


def _game(campaign, by, day, *entries):
    return game_services.game_record(
        campaign=campaign,
        by=by,
        played_on=datetime.date(2026, 1, 1) + datetime.timedelta(days=day),
        entries=entries,
    )


def test_the_leaderboard_ranks_by_victory_points_then_wins_then_name(campaign, player, player2, make_user):
    alpha = Warband.objects.create(campaign=campaign, owner=player, name="Alpha")
    beta = Warband.objects.create(campaign=campaign, owner=player2, name="beta")
    gamma = Warband.objects.create(campaign=campaign, owner=player2, name="Gamma")
    _game(
        campaign,
        player,
        1,
        GameEntry(alpha, "win", victory_points=3),
        GameEntry(beta, "loss", victory_points=5),
    )
    _game(
        campaign,
        player,
        2,
        GameEntry(gamma, "win", victory_points=5),
        GameEntry(alpha, "loss", victory_points=2),
    )
    gamma.disbanded_at = datetime.datetime(2026, 2, 1, tzinfo=datetime.UTC)
    gamma.save(update_fields=["disbanded_at"])
    page = campaign_selectors.campaign_page(campaign=campaign)
    # Alpha 5 VP 1 win; Gamma 5 VP 1 win (disbanded, kept); beta 5 VP 0 wins.
    assert [row.warband.name for row in page.leaderboard] == ["Alpha", "Gamma", "beta"]
    assert [row.place for row in page.leaderboard] == [1, 2, 3]
    assert [row.warband.victory_points for row in page.leaderboard] == [5, 5, 5]
    assert page.leaderboard[1].warband.disbanded_at is not None


def test_the_leaderboard_shows_value_fighters_lost_and_stage(
    as_player, campaign, player, player2, warband, rival_warband
):
    fighter_services.fighter_create(warband=warband, by=player, name="Odo", cost=60)
    lost = fighter_services.fighter_create(warband=warband, by=player, name="Lost", cost=30)
    fighter_services.fighter_remove(fighter=lost, status="dead", by=player)
    for day in range(4):
        _game(
            campaign,
            player,
            day,
            GameEntry(warband, "win", victory_points=2),
            GameEntry(rival_warband, "loss"),
        )
    row = next(
        r for r in campaign_selectors.campaign_page(campaign=campaign).leaderboard if r.warband == warband
    )
    assert (row.value, row.warband.fighters_lost, row.stage, row.warband.victory_points) == (60, 1, "Mid", 8)
    html = as_player.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'id="standing-{warband.pk}"' in html
    assert "60 ducats" in html


def test_the_campaign_page_costs_the_same_with_12_warbands_and_100_games(
    client, campaign, organiser, make_user, django_assert_max_num_queries
):
    owners = [make_user(f"owner_{n}") for n in range(12)]
    bands = [Warband.objects.create(campaign=campaign, owner=owners[n], name=f"Band {n}") for n in range(12)]
    client.force_login(organiser)
    _game(campaign, organiser, 0, GameEntry(bands[0], "win", victory_points=1), GameEntry(bands[1], "loss"))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(f"/campaigns/{campaign.pk}/")
    for day in range(1, 100):
        first, second = bands[day % 12], bands[(day + 5) % 12]
        _game(
            campaign,
            organiser,
            day,
            GameEntry(first, "win", victory_points=day % 7),
            GameEntry(second, "loss"),
        )
    with django_assert_max_num_queries(len(few)):
        html = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert html.count('id="standing-') == 12
    assert html.count('<tr id="game-') == campaign_selectors.LATEST_GAMES
    assert f'href="/campaigns/{campaign.pk}/games/"' in html
    all_games = client.get(f"/campaigns/{campaign.pk}/games/?page=4").content.decode()
    assert all_games.count('<tr id="game-') == 100 - 3 * 25
    assert "Page 4 of 4" in all_games


def test_disbanding_from_the_roster_marks_it_in_the_standings(as_player, world):
    assert as_player.post(f"/warbands/{world.warband.pk}/disband/").status_code == 302
    html = as_player.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    row = html[html.index(f'id="standing-{world.warband.pk}"') :]
    assert "Disbanded" in row[: row.index("</tr>")]


def test_a_rival_cannot_disband_my_warband(client, world, player2):
    client.force_login(player2)
    assert client.post(f"/warbands/{world.warband.pk}/disband/").status_code == 403
    world.warband.refresh_from_db()
    assert world.warband.disbanded_at is None
