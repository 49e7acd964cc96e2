"""Recording games through the page: both ways, who may record, corrections, the game page."""

import re

import pytest

from campaigns.models import Game, GamePlayer, OutOfAction

pytestmark = pytest.mark.django_db


def game_data(world, *, mode="record", out=(), results=("win", "loss"), **extra):
    data = {
        "mode": mode,
        "played_on": "2025-04-01",
        "scenario": "Hold the Line",
        f"wb{world.warband.pk}_played": "on",
        f"wb{world.warband.pk}_result": results[0],
        f"wb{world.warband.pk}_out": [str(f.pk) for f in out],
        f"wb{world.rival.pk}_played": "on",
        f"wb{world.rival.pk}_result": results[1],
    }
    data.update(extra)
    return data


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


def test_the_new_game_page_has_out_of_action_checkboxes_per_warband(as_player, world):
    html = as_player.get(f"/campaigns/{world.campaign.pk}/games/new/").content.decode()
    assert f'id="game-warband-{world.warband.pk}"' in html
    assert f'name="wb{world.warband.pk}_out" value="{world.anselm.pk}"' in html
    assert f'name="wb{world.rival.pk}_out" value="{world.heretic.pk}"' in html
    assert "Fallen Pilgrim" not in html  # only the active roster can be taken Out of Action
    assert "Play it now with the tracker" in html


def test_recording_a_finished_game(as_player, world):
    response = as_player.post(
        f"/campaigns/{world.campaign.pk}/games/new/", game_data(world, out=[world.anselm])
    )
    game = Game.objects.get(number=3)
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.RECORDED
    assert set(game.players.values_list("post_game", flat=True)) == {GamePlayer.PostGame.PENDING}
    assert list(OutOfAction.objects.filter(player__game=game).values_list("fighter_id", flat=True)) == [
        world.anselm.pk
    ]

    html = as_player.get(f"/games/{game.pk}/").content.decode()
    assert "Brother Anselm" in html
    assert f'href="/games/{game.pk}/post-game/{world.warband.pk}/"' in html
    assert "Open the post-game" in html


def test_a_fallout_factions_game_recorded_says_each_crews_post_game_is_waiting(as_player, world):
    """The message speaks the campaign's words: a Fallout: Factions campaign has crews, not warbands."""
    type(world.campaign).objects.filter(pk=world.campaign.pk).update(preset="fallout_factions")
    response = as_player.post(f"/campaigns/{world.campaign.pk}/games/new/", game_data(world), follow=True)
    html = response.content.decode()
    assert "Game 3 recorded. Each crew&#x27;s post-game is waiting." in html


def test_starting_a_game_for_the_tracker(as_player, world):
    response = as_player.post(
        f"/campaigns/{world.campaign.pk}/games/new/", game_data(world, mode="play", results=("", ""))
    )
    game = Game.objects.get(number=3)
    assert game.status == Game.Status.IN_PROGRESS
    assert response["Location"] in (f"/games/{game.pk}/tracker/", f"/games/{game.pk}/")
    html = as_player.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/tracker/"' in html
    # Nobody is Out of Action *yet*: "No one." read as a result while the game is still being played.
    assert "No one yet: the tracker records it when the game ends." in html
    assert "No one.</p>" not in html


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"results": ("win", "")}, "result"),
        ({"results": ("win", "win")}, "Not every warband can win the same game."),
        ({"played_on": "not a date"}, "Enter a valid date."),
    ],
)
def test_a_bad_game_is_refused_and_nothing_is_recorded(as_player, world, change, message):
    games = Game.objects.count()
    response = as_player.post(f"/campaigns/{world.campaign.pk}/games/new/", game_data(world, **change))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Game.objects.count() == games


def test_a_game_needs_two_warbands(as_player, world):
    data = game_data(world)
    del data[f"wb{world.rival.pk}_played"]
    response = as_player.post(f"/campaigns/{world.campaign.pk}/games/new/", data)
    assert response.status_code == 422
    assert "Tick at least two warbands" in response.content.decode()


def test_a_refused_way_of_playing_is_shown_on_the_form(as_player, world):
    """A bad "How" was refused with a 422 and no message at all: the radio buttons showed no errors."""
    response = as_player.post(f"/campaigns/{world.campaign.pk}/games/new/", game_data(world, mode="chess"))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Select a valid choice. chess is not one of the available choices." in html
    assert html.index("Select a valid choice.") > html.index("<legend>How</legend>")


def test_a_fallout_game_needs_two_crews(as_player, world, organiser):
    from campaigns.services.campaigns import campaign_update

    campaign_update(campaign=world.campaign, by=organiser, preset="fallout_factions")
    data = game_data(world)
    del data[f"wb{world.rival.pk}_played"]
    response = as_player.post(f"/campaigns/{world.campaign.pk}/games/new/", data)
    assert response.status_code == 422
    assert "Tick at least two crews that took part." in response.content.decode()


def test_a_player_records_only_games_their_warband_played(client, player, world):
    client.force_login(player)
    data = {
        "mode": "record",
        "played_on": "2025-04-01",
        f"wb{world.rival.pk}_played": "on",
        f"wb{world.rival.pk}_result": "win",
        f"wb{world.organisers_band.pk}_played": "on",
        f"wb{world.organisers_band.pk}_result": "loss",
    }
    games = Game.objects.count()
    response = client.post(f"/campaigns/{world.campaign.pk}/games/new/", data)
    assert response.status_code == 422
    assert "one of your warbands played in" in response.content.decode()
    assert Game.objects.count() == games


def test_the_organiser_records_any_game(client, organiser, world):
    client.force_login(organiser)
    response = client.post(f"/campaigns/{world.campaign.pk}/games/new/", game_data(world))
    assert response.status_code == 302


def test_correcting_a_game_before_its_post_game(client, organiser, world):
    # Both sides change (a draw for both): the organiser's to do; a player sets only their own side (the game policy's
    # game policy, rosters/tests/test_game_policy.py).
    client.force_login(organiser)
    html = client.get(f"/games/{world.game.pk}/edit/").content.decode()
    # The form starts from the game as recorded: Anselm's Out of Action box is ticked.
    assert re.search(rf'name="wb{world.warband.pk}_out" value="{world.anselm.pk}"[^>]*checked', html)
    data = game_data(world, results=("draw", "draw"), out=[], played_on="2025-03-01")
    del data["mode"]
    response = client.post(f"/games/{world.game.pk}/edit/", data)
    assert response.status_code == 302
    assert set(world.game.players.values_list("result", flat=True)) == {"draw"}
    assert not OutOfAction.objects.filter(player__game=world.game).exists()


def test_a_game_whose_post_game_started_cannot_be_corrected(as_player, world, player):
    from rosters.services.games import game_post_game_mark

    game_post_game_mark(player=world.game.players.get(warband=world.warband), state="in_progress", by=player)
    response = as_player.get(f"/games/{world.game.pk}/edit/", follow=True)
    assert "post-game has started" in response.content.decode()
    data = game_data(world, results=("loss", "win"))
    del data["mode"]
    response = as_player.post(f"/games/{world.game.pk}/edit/", data)
    assert response.status_code == 302
    assert list(world.game.players.order_by("id").values_list("result", flat=True)) == ["win", "loss"]


def test_deleting_a_game_entered_by_mistake(as_player, world):
    response = as_player.post(f"/games/{world.game.pk}/delete/")
    assert response["Location"] == f"/campaigns/{world.campaign.pk}/"
    assert not Game.objects.filter(pk=world.game.pk).exists()


def test_the_campaign_page_shows_warbands_games_standings_and_members(as_player, world):
    html = as_player.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    assert f'id="warband-{world.warband.pk}"' in html
    assert f'id="game-{world.game.pk}"' in html
    assert 'id="standings"' in html
    assert "sam_spectator" in html
    assert 'id="campaign-latest-history"' in html  # the history's slot
    assert 'id="invitation"' not in html  # only the organiser sees the invitation link


def test_the_dashboard_shows_what_waits(as_player, world):
    html = as_player.get("/").content.decode()
    assert "The Long Trench" in html
    assert "Iron Sepulchre" in html
    assert f'href="/games/{world.game.pk}/post-game/{world.warband.pk}/"' in html


def test_the_scenario_roll_shows_only_in_a_campaign_run_in_stages(client, organiser, world):
    """The scenario tables are the campaign stages' (RULING W-1): a Fallout: Factions campaign, which has no
    stages unless its organiser switches them on, offers no scenario roll."""
    from campaigns.services.campaigns import campaign_update

    client.force_login(organiser)
    world.game.scenario = ""
    world.game.save(update_fields=["scenario"])
    html = client.get(f"/games/{world.game.pk}/").content.decode()
    assert "Roll the scenario" in html
    assert 'id="scenario-roll"' in html
    campaign_update(campaign=world.campaign, by=organiser, preset="fallout_factions", uses_limits=False)
    html = client.get(f"/games/{world.game.pk}/").content.decode()
    assert "Roll the scenario" not in html
    assert "Scenario roll" not in html
    assert 'id="scenario-roll"' not in html
    campaign_update(campaign=world.campaign, by=organiser, uses_limits=True)
    assert "Roll the scenario" in client.get(f"/games/{world.game.pk}/").content.decode()
