"""Tests for combat/views/scenario.py: the scenario roll page. Members read the stage, the table, the scenarios to
avoid and the odds before the roll; the organiser or a player of the game rolls; bad input answers 4xx with the
reason beside the field and changes nothing; the page reads a fixed number of queries."""

import pytest

from campaigns.models import Game
from combat.models import DiceRoll, GameScenario
from combat.services.campaign_data import campaign_data_save
from combat.tests.scenario_helpers import make_game, save_table

pytestmark = pytest.mark.django_db


def url(game):
    return f"/games/{game.pk}/scenario/"


@pytest.fixture
def game(campaign, organiser, warband, rival_warband):
    save_table(campaign, organiser)
    make_game(campaign, warband, rival_warband, scenario="Crossing", status=Game.Status.DONE)
    return make_game(campaign, warband, rival_warband)


def nothing_stored(game):
    game.refresh_from_db()
    return game.scenario == "" and not GameScenario.objects.exists() and not DiceRoll.objects.exists()


@pytest.mark.parametrize("who", ["organiser", "player", "spectator"])
def test_members_read_the_odds_before_the_roll(client, game, who, request):
    client.force_login(request.getfixturevalue(who))
    html = client.get(url(game)).content.decode()
    assert "The Early scenario table" in html
    assert "a warband of this game played in its previous game is rolled again" in html
    assert "Iron Sepulchre played it in Game 1" in html
    assert "Raid" in html
    assert "1 in 2" in html  # Raid: 2 of the 4 faces left
    assert "no chance" in html  # Crossing, rolled again
    assert ("Roll for me" in html) == (who != "spectator")


def test_an_outsider_gets_404(client, game, outsider):
    client.force_login(outsider)
    assert client.get(url(game)).status_code == 404
    assert client.post(url(game), {"mode": "roll"}).status_code == 404
    assert nothing_stored(game)


def test_a_spectator_cannot_roll(client, game, spectator):
    client.force_login(spectator)
    assert client.post(url(game), {"mode": "roll"}).status_code == 403
    assert nothing_stored(game)


def test_a_player_rolls_and_the_game_shows_its_scenario(client, game, player):
    client.force_login(player)
    response = client.post(url(game), {"mode": "enter", "face": "3"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.scenario == "Hold"
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Game 2: Hold" in html
    page = client.get(url(game)).content.decode()
    assert "D6 3: Hold." in page
    assert "Roll for me" not in page


def test_a_typed_reroll_is_asked_for_then_settles(client, game, player):
    client.force_login(player)
    client.post(url(game), {"mode": "enter", "face": "1"})
    html = client.get(url(game)).content.decode()
    assert "D6 1: Crossing, which a warband of this game played in its previous game. Roll again." in html
    assert "roll again" in html
    client.post(url(game), {"mode": "enter", "face": "5"})
    game.refresh_from_db()
    assert game.scenario == "Ambush"
    assert "Rolled again before (1 found Crossing)" in client.get(url(game)).content.decode()


def test_the_server_roll_answers_htmx_with_the_section(client, game, player):
    client.force_login(player)
    response = client.post(url(game), {"mode": "roll"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card scenario-roll" id="scenario-roll"')
    game.refresh_from_db()
    assert game.scenario in {"Raid", "Hold", "Ambush"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"mode": "enter", "face": "7"}, "A D6 shows 1 to 6."),
        ({"mode": "enter", "face": "0"}, "A D6 shows 1 to 6."),
        ({"mode": "enter", "face": "x"}, "Enter the face the D6 shows, a whole number."),
        ({"mode": "enter"}, "Enter the face the D6 shows, or let the server roll."),
        ({"mode": "cheat"}, "nothing else rolls a scenario"),
    ],
)
def test_bad_input_answers_422_beside_the_field_and_changes_nothing(client, game, player, data, message):
    client.force_login(player)
    response = client.post(url(game), data)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert nothing_stored(game)


def test_without_a_table_the_page_says_how_to_enter_one_and_a_roll_is_refused(
    client, campaign, organiser, warband, rival_warband
):
    game = make_game(campaign, warband, rival_warband)
    client.force_login(organiser)
    html = client.get(url(game)).content.decode()
    assert "The campaign has no Early scenario table yet." in html
    assert f"/campaigns/{campaign.pk}/data/" in html
    response = client.post(url(game), {"mode": "roll"})
    assert response.status_code == 422
    assert "The organiser enters or imports one on the campaign data pages." in response.content.decode()
    assert nothing_stored(game)


def test_a_second_tab_rolling_gets_the_first_result(client, game, player, player2):
    client.force_login(player)
    client.post(url(game), {"mode": "enter", "face": "2"})
    client.force_login(player2)
    response = client.post(url(game), {"mode": "enter", "face": "6"}, follow=True)
    assert "Already rolled: Raid. Shown again, not rolled twice." in response.content.decode()
    assert DiceRoll.objects.count() == 1


def test_the_page_reads_a_fixed_number_of_queries(
    client, campaign, organiser, warband, rival_warband, django_assert_max_num_queries
):
    from rosters.models import Warband

    save_table(campaign, organiser)
    for number in range(10):
        other = Warband.objects.create(campaign=campaign, owner=organiser, name=f"W{number}", faction="x")
        make_game(campaign, warband, other, scenario=f"S{number}", status=Game.Status.DONE)
    game = make_game(campaign, warband, rival_warband)
    client.force_login(organiser)
    client.get(url(game))  # warm the session and the campaign's caches
    with django_assert_max_num_queries(12) as few:
        assert client.get(url(game)).status_code == 200
    for number in range(10, 20):
        other = Warband.objects.create(campaign=campaign, owner=organiser, name=f"W{number}", faction="x")
        make_game(campaign, warband, other, status=Game.Status.DONE)
    campaign_data_save(
        campaign=campaign,
        kind="scenario_table:early",
        rows=[{"roll": face, "name": f"N{face}"} for face in range(1, 7)],
        by=organiser,
    )
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url(game)).status_code == 200
