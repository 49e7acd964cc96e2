"""Tests for combat/services/scenario.py on PostgreSQL: the scenario roll stored before it is shown, rolled again
when it finds a scenario a warband of the game played in its previous game (CAMPAIGN_PHASE.md, "The campaign
around the battles"), rolled once, refused with nothing changed."""

import pytest

from campaigns.models import Game, GamePlayer
from combat.models import DiceRoll, GameScenario
from combat.services.scenario import ScenarioError, game_scenario_roll
from combat.tests.scenario_helpers import make_game, save_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(campaign, organiser):
    return save_table(campaign, organiser)


def test_a_typed_die_finds_the_scenario_and_the_game_shows_it(
    campaign, warband, rival_warband, player, table
):
    game = make_game(campaign, warband, rival_warband)
    roll, rolled = game_scenario_roll(game=game, by=player, face=3)
    game.refresh_from_db()
    assert rolled
    assert game.scenario == "Hold"
    assert (roll.stage, roll.faces, roll.table_id, roll.kept_rule) == ("early", [3], table.pk, True)
    stored = DiceRoll.objects.get(game=game)
    assert (stored.purpose, stored.faces, stored.source, stored.rolled_by) == (
        "scenario",
        [3],
        "entered",
        player,
    )
    assert stored.label == "Game 1 scenario: D6 3, Hold"


def test_the_scenario_a_warband_played_last_is_rolled_again_die_by_die(
    campaign, warband, rival_warband, make_user, player, table
):
    from rosters.models import Warband

    third = Warband.objects.create(campaign=campaign, owner=make_user("third"), name="Third", faction="x")
    make_game(campaign, warband, third, scenario="Crossing", status=Game.Status.DONE)
    make_game(campaign, rival_warband, third, scenario="raid ", status=Game.Status.DONE)
    game = make_game(campaign, warband, rival_warband)

    roll, _ = game_scenario_roll(game=game, by=player, face=1)  # Crossing: Iron Sepulchre played it last
    assert (roll.faces, roll.scenario, sorted(roll.avoided)) == ([1], "", ["Crossing", "raid"])
    game.refresh_from_db()
    assert game.scenario == ""
    roll, _ = game_scenario_roll(game=game, by=player, face=6)  # Raid: Heretic Legion's last
    roll, _ = game_scenario_roll(game=game, by=player, face=5)
    game.refresh_from_db()
    assert (roll.faces, roll.scenario, game.scenario) == ([1, 6, 5], "Ambush", "Ambush")
    labels = list(DiceRoll.objects.filter(game=game).order_by("id").values_list("label", flat=True))
    assert (
        labels[0] == "Game 3 scenario: D6 1, Crossing (rolled again: a warband of this game played it last)"
    )
    assert len(labels) == 3


def test_the_server_rolls_on_until_the_rule_is_kept_and_stores_every_die(
    campaign, warband, rival_warband, player, table
):
    make_game(campaign, warband, rival_warband, scenario="Crossing", status=Game.Status.DONE)
    game = make_game(campaign, warband, rival_warband)
    for _ in range(20):
        roll, _ = game_scenario_roll(game=game, by=player)
        assert roll.scenario != "Crossing"
        assert [d.faces[0] for d in DiceRoll.objects.filter(game=game).order_by("id")] == roll.faces
        assert all(face not in (1, 4) for face in roll.faces[-1:])
        GameScenario.objects.filter(game=game).delete()  # a test's reset: the service never deletes a roll
        DiceRoll.objects.filter(game=game).delete()
        Game.objects.filter(pk=game.pk).update(scenario="")


def test_asked_twice_it_is_rolled_once(campaign, warband, rival_warband, player, player2, table):
    game = make_game(campaign, warband, rival_warband)
    first, rolled = game_scenario_roll(game=game, by=player, face=2)
    again, rolled_again = game_scenario_roll(game=game, by=player2, face=5)
    assert rolled
    assert not rolled_again
    assert again.pk == first.pk
    assert again.scenario == "Raid"
    assert DiceRoll.objects.filter(game=game).count() == 1


def test_the_lower_stage_s_table_is_used(campaign, warband, rival_warband, organiser, player, table):
    save_table(campaign, organiser, names=["Mid A", "Mid B"] * 3, stage="mid")
    for _ in range(3):
        make_game(campaign, warband, status=Game.Status.DONE)  # Iron Sepulchre's battles 1-3
    game = make_game(campaign, warband, rival_warband)  # its battle 4 (Mid), the rival's battle 1 (Early)
    roll, _ = game_scenario_roll(game=game, by=player, face=1)
    assert (roll.stage, roll.scenario) == ("early", "Crossing")


def test_a_past_roll_keeps_the_table_version_it_read(
    campaign, warband, rival_warband, organiser, player, table
):
    game = make_game(campaign, warband, rival_warband)
    roll, _ = game_scenario_roll(game=game, by=player, face=5)
    newer = save_table(campaign, organiser, names=["Other"] * 6)
    roll.refresh_from_db()
    assert newer.version == 2
    assert (roll.table.version, roll.scenario) == (1, "Ambush")


def test_without_a_table_it_is_refused_and_nothing_is_stored(campaign, warband, rival_warband, player):
    game = make_game(campaign, warband, rival_warband)
    with pytest.raises(ScenarioError, match="no Early scenario table yet"):
        game_scenario_roll(game=game, by=player, face=1)
    assert not GameScenario.objects.exists()
    assert not DiceRoll.objects.exists()


def test_a_face_off_the_die_is_refused_and_nothing_is_stored(campaign, warband, rival_warband, player, table):
    game = make_game(campaign, warband, rival_warband)
    with pytest.raises(ScenarioError, match="a D6 shows 1 to 6, got 7"):
        game_scenario_roll(game=game, by=player, face=7)
    assert not GameScenario.objects.exists()
    assert not DiceRoll.objects.exists()


def test_a_scenario_entered_with_the_game_or_a_started_post_game_is_not_rolled(
    campaign, warband, rival_warband, player, table
):
    typed = make_game(campaign, warband, rival_warband, scenario="Hold")
    with pytest.raises(ScenarioError, match="is Hold already"):
        game_scenario_roll(game=typed, by=player, face=1)
    started = make_game(campaign, warband, rival_warband, status=Game.Status.RECORDED)
    GamePlayer.objects.filter(game=started, warband=warband).update(post_game=GamePlayer.PostGame.IN_PROGRESS)
    with pytest.raises(ScenarioError, match="post-game has started"):
        game_scenario_roll(game=started, by=player, face=1)
    assert not DiceRoll.objects.exists()


def test_history_tells_the_roll(campaign, warband, rival_warband, player, table):
    from rosters.history.entries import HistoryFilter
    from rosters.history.feed import history_page

    make_game(campaign, warband, rival_warband, scenario="Crossing", status=Game.Status.DONE)
    game = make_game(campaign, warband, rival_warband)
    game_scenario_roll(game=game, by=player, face=1)
    game_scenario_roll(game=game, by=player, face=3)
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk), limit=50)
    sentences = [change.sentence for entry in page.entries for change in entry.changes]
    assert any(
        "rolled Game 2's scenario on the Early table: Hold (D6 3 after rerolls)" in s for s in sentences
    )
    assert any("rolled D6 1 for Game 2's scenario" in s for s in sentences)
    # The roll's own sentence tells the scenario: the game's row does not say its details were edited too.
    assert not any("Game 2's details were edited" in s for s in sentences), sentences


def test_correcting_the_game_keeps_a_rolled_scenario(campaign, warband, rival_warband, player, table):
    from rosters.services.errors import RosterRefused
    from rosters.services.games import GameEntry, game_update

    game = make_game(campaign, warband, rival_warband)
    Game.objects.filter(pk=game.pk).update(created_by=player)
    game_scenario_roll(game=game, by=player, face=3)
    entries = [GameEntry(warband=warband, result="win"), GameEntry(warband=rival_warband, result="loss")]
    with pytest.raises(RosterRefused, match="Game 1's scenario was rolled: Hold. It stays as rolled."):
        game_update(game=game, by=player, entries=entries, scenario="Crossing", notes="typo")
    game.refresh_from_db()
    assert (game.scenario, game.notes, game.status) == ("Hold", "", Game.Status.IN_PROGRESS)
    # The same scenario (the form sends it back as it is) is no change: the rest is corrected.
    game_update(game=game, by=player, entries=entries, scenario="Hold", notes="typo")
    game.refresh_from_db()
    assert (game.scenario, game.notes) == ("Hold", "typo")
