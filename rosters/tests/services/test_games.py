"""Recording, correcting, starting and finishing games; post-game states; numbering under concurrency."""

import datetime
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from campaigns.models import Game, GamePlayer, OutOfAction
from campaigns.tests.history import deleted_context, last_context
from rosters.services import games as game_services
from rosters.services import warbands as warband_services
from rosters.services.games import GameEntry

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 3, 1)


@pytest.fixture
def anselm(warband, make_fighter):
    return make_fighter(warband, "Brother Anselm", elite=True)


@pytest.fixture
def odo(warband, make_fighter):
    return make_fighter(warband, "Pilgrim Odo")


@pytest.fixture
def heretic(rival_warband, make_fighter):
    return make_fighter(rival_warband, "Heretic Priest", elite=True)


def record(campaign, warband, rival_warband, by, *, out=(), rival_out=(), results=("win", "loss")):
    return game_services.game_record(
        campaign=campaign,
        by=by,
        played_on=DAY,
        scenario="Hold the Line",
        entries=[
            GameEntry(warband=warband, result=results[0], out_of_action=list(out)),
            GameEntry(warband=rival_warband, result=results[1], out_of_action=list(rival_out)),
        ],
    )


def test_it_records_a_game_with_out_of_action_fighters(
    campaign, warband, rival_warband, player, anselm, heretic
):
    game = record(campaign, warband, rival_warband, player, out=[anselm], rival_out=[heretic])

    assert (game.number, game.status, game.scenario) == (1, Game.Status.RECORDED, "Hold the Line")
    players = {p.warband_id: p for p in game.players.all()}
    assert players[warband.pk].result == "win"
    assert players[rival_warband.pk].result == "loss"
    assert all(p.post_game == GamePlayer.PostGame.PENDING for p in players.values())
    assert set(OutOfAction.objects.values_list("fighter_id", flat=True)) == {anselm.pk, heretic.pk}
    context = last_context(game, "insert")
    assert context["action"] == "game.record"
    assert context["game"] == game.pk
    assert context["user"] == player.pk
    assert context["reason"] == "Recorded Game 1: Iron Sepulchre (win) v Heretic Legion (loss)"
    mark = OutOfAction.objects.get(fighter=anselm)
    assert last_context(mark, "insert")["game"] == game.pk


def test_games_are_numbered_per_campaign(campaign, warband, rival_warband, player):
    assert [record(campaign, warband, rival_warband, player).number for _ in range(3)] == [1, 2, 3]


def test_a_deleted_games_number_is_not_given_again(campaign, warband, rival_warband, organiser, player):
    record(campaign, warband, rival_warband, player)
    second = record(campaign, warband, rival_warband, player)
    game_services.game_delete(game=second, by=organiser)
    # The history of Game 2 stays the deleted game's: the next game is Game 3.
    assert record(campaign, warband, rival_warband, player).number == 3


def test_the_counter_update_leaves_no_campaign_event(campaign, warband, rival_warband, player):
    from campaigns.models import Campaign

    events = Campaign.pgh_event_model.objects.filter(pgh_obj=campaign, pgh_label="update")
    before = events.count()
    record(campaign, warband, rival_warband, player)
    assert events.count() == before


def test_games_made_in_the_admin_are_counted(campaign, warband, rival_warband, player):
    Game.objects.create(campaign=campaign, number=7, played_on=DAY)
    assert record(campaign, warband, rival_warband, player).number == 8


@pytest.mark.django_db(transaction=True)
def test_two_games_recorded_at_once_get_different_numbers(campaign, warband, rival_warband, player):
    errors = []

    def go():
        try:
            record(campaign, warband, rival_warband, player)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert sorted(Game.objects.values_list("number", flat=True)) == [1, 2, 3]


@pytest.mark.parametrize(
    ("results", "message"),
    [
        (("win", "win"), "Not every warband can win"),
        (("win", "draw"), "draw is a draw"),
        (("win", ""), "result"),
    ],
)
def test_it_refuses_results_that_cannot_be(campaign, warband, rival_warband, player, results, message):
    with pytest.raises(ValidationError, match=message):
        record(campaign, warband, rival_warband, player, results=results)
    assert Game.objects.count() == 0
    assert GamePlayer.objects.count() == 0


def test_it_refuses_a_game_of_one_warband(campaign, warband, player):
    with pytest.raises(ValidationError, match="at least two"):
        game_services.game_record(
            campaign=campaign, by=player, played_on=DAY, entries=[GameEntry(warband, "win")]
        )
    assert Game.objects.count() == 0


def test_it_refuses_a_fighter_of_another_warband_out_of_action(
    campaign, warband, rival_warband, player, heretic
):
    with pytest.raises(ValidationError, match="Heretic Priest is not in Iron Sepulchre"):
        record(campaign, warband, rival_warband, player, out=[heretic])
    assert Game.objects.count() == 0
    assert OutOfAction.objects.count() == 0


def test_it_refuses_a_dead_fighter_out_of_action(campaign, warband, rival_warband, player, make_fighter):
    fallen = make_fighter(warband, "Fallen", status="dead")
    with pytest.raises(ValidationError, match="not on the active roster"):
        record(campaign, warband, rival_warband, player, out=[fallen])
    assert Game.objects.count() == 0


def test_a_warband_of_another_campaign_cannot_play(campaign, warband, player, organiser):
    from campaigns.services.campaigns import campaign_create

    other = campaign_create(name="Elsewhere", by=organiser)
    stranger = warband_services.warband_create(
        campaign=other, owner=organiser, name="Strangers", by=organiser
    )
    with pytest.raises(ValidationError, match="Strangers is not in The Long Trench"):
        record(campaign, warband, stranger, player)
    assert Game.objects.count() == 0


def test_a_fighter_who_misses_the_next_game_sits_this_one_out(
    campaign, warband, rival_warband, player, make_fighter
):
    wounded = make_fighter(warband, "Minor Wound", elite=True, misses_next_game=True)
    game = record(campaign, warband, rival_warband, player)
    wounded.refresh_from_db()
    assert not wounded.misses_next_game
    assert last_context(wounded, "update")["game"] == game.pk


def test_it_corrects_a_recorded_game(
    campaign, warband, rival_warband, organiser, player, anselm, odo, heretic
):
    game = record(campaign, warband, rival_warband, player, out=[anselm])
    game_services.game_update(
        game=game,
        by=organiser,
        scenario="Raid",
        entries=[
            GameEntry(warband=warband, result="draw", out_of_action=[odo]),
            GameEntry(warband=rival_warband, result="draw", out_of_action=[heretic]),
        ],
    )
    game.refresh_from_db()
    assert game.scenario == "Raid"
    assert set(game.players.values_list("result", flat=True)) == {"draw"}
    assert set(OutOfAction.objects.values_list("fighter_id", flat=True)) == {odo.pk, heretic.pk}
    context = last_context(game, "update")
    assert context["action"] == "game.update"
    assert context["reason"].startswith("Corrected Game 1")


def test_a_game_cannot_change_once_its_post_game_started(campaign, warband, rival_warband, player, anselm):
    game = record(campaign, warband, rival_warband, player, out=[anselm])
    game_services.game_post_game_mark(
        player=game.players.get(warband=warband), state="in_progress", by=player
    )
    with pytest.raises(ValidationError, match="post-game has started"):
        game_services.game_update(
            game=game, by=player, entries=[GameEntry(warband, "loss"), GameEntry(rival_warband, "win")]
        )
    with pytest.raises(ValidationError, match="post-game has started"):
        game_services.game_delete(game=game, by=player)
    assert list(game.players.order_by("id").values_list("result", flat=True)) == ["win", "loss"]
    assert OutOfAction.objects.filter(fighter=anselm).exists()


def test_post_game_states_move_the_game_status(campaign, warband, rival_warband, player, player2):
    game = record(campaign, warband, rival_warband, player)
    mine = game.players.get(warband=warband)
    theirs = game.players.get(warband=rival_warband)

    game_services.game_post_game_mark(player=mine, state="in_progress", by=player)
    game.refresh_from_db()
    assert game.status == Game.Status.POST_GAME
    game_services.game_post_game_mark(player=mine, state="done", by=player)
    game.refresh_from_db()
    assert game.status == Game.Status.POST_GAME
    game_services.game_post_game_mark(player=theirs, state="done", by=player2)
    game.refresh_from_db()
    assert game.status == Game.Status.DONE
    context = last_context(theirs, "update")
    assert context["action"] == "post_game.mark"
    assert context["reason"] == "Heretic Legion's post-game of Game 1: done"
    # A reverted post-game goes back to waiting.
    game_services.game_post_game_mark(player=mine, state="pending", by=player, action="post_game.revert")
    game.refresh_from_db()
    assert game.status == Game.Status.POST_GAME
    assert last_context(mine, "update")["action"] == "post_game.revert"


def test_a_game_started_for_the_tracker_is_finished_with_its_results(
    campaign, warband, rival_warband, player, anselm
):
    game = game_services.game_start(
        campaign=campaign, by=player, played_on=DAY, warbands=[warband, rival_warband]
    )
    assert game.status == Game.Status.IN_PROGRESS
    assert set(game.players.values_list("result", flat=True)) == {""}
    assert last_context(game, "insert")["action"] == "game.start"
    with pytest.raises(ValidationError, match="still being played"):
        game_services.game_post_game_mark(player=game.players.first(), state="in_progress", by=player)

    game_services.game_finish(
        game=game,
        by=player,
        entries=[GameEntry(warband, "loss", [anselm]), GameEntry(rival_warband, "win")],
        action="tracker.end_game",
    )
    game.refresh_from_db()
    assert game.status == Game.Status.RECORDED
    assert OutOfAction.objects.get().fighter == anselm
    assert last_context(game, "update")["action"] == "tracker.end_game"
    with pytest.raises(ValidationError, match="not in progress"):
        game_services.game_finish(
            game=game, by=player, entries=[GameEntry(warband, "loss"), GameEntry(rival_warband, "win")]
        )


def test_a_game_entered_by_mistake_can_be_deleted(campaign, warband, rival_warband, organiser, player):
    game = record(campaign, warband, rival_warband, player)
    pk = game.pk
    game_services.game_delete(game=game, by=organiser)
    assert not Game.objects.filter(pk=pk).exists()
    context = deleted_context(Game, pk)
    assert context["action"] == "game.delete"
    assert context["user"] == organiser.pk
