"""Two phones racing on one Trench Crusade model (combat/services/tracker/injury.py), in real threads with their
own connections on PostgreSQL: an Injury Roll or a marker tap made on the same board as another is either applied
after it or refused as stale naming who changed the model; nothing is half-applied, and every roll stored stays
in the dice log, tied to the action that used it (RULING I-8: a roll is stored before its result is shown)."""

import pytest

from combat.models import DiceRoll, TrackerAction, TrackerGame
from combat.services.tracker.errors import TrackerConflict
from combat.services.tracker.injury import injury_roll, tracker_marker
from combat.tests.tracker_helpers import snapshot
from combat.tests.views.test_tracker_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)


def answer_of(job):
    """What the job returned, or the stale-board refusal it raised."""
    try:
        return job()
    except TrackerConflict as refusal:
        return refusal


def racing(jobs: dict) -> dict:
    """Run each named job at the same moment; what each returned or the refusal it raised."""
    answers = {}

    def attempt(name, job):
        return lambda: answers.setdefault(name, answer_of(job))

    run_together(*(attempt(name, job) for name, job in jobs.items()))
    return answers


def roll_on(table, name, by, *, faces, version=0):
    return lambda: injury_roll(game=table.game, target_id=table[name].pk, by=by, version=version, faces=faces)


def tap_on(table, name, by, *, what, change, version=0):
    return lambda: tracker_marker(
        game=table.game, target_id=table[name].pk, what=what, change=change, by=by, version=version
    )


def one_applied(answers: dict) -> tuple:
    applied = [name for name, answer in answers.items() if isinstance(answer, TrackerAction)]
    refused = [name for name, answer in answers.items() if isinstance(answer, TrackerConflict)]
    assert len(applied) == len(refused) == 1, answers
    return applied[0], refused[0]


def every_roll_is_kept_and_used(game) -> list[DiceRoll]:
    rolls = list(DiceRoll.objects.filter(game_id=game.pk).order_by("pk"))
    used = [pk for action in TrackerAction.objects.filter(tracker__game=game) for pk in action.rolls]
    assert sorted(used) == [roll.pk for roll in rolls]
    assert all(roll.status == DiceRoll.Status.COUNTED for roll in rolls)
    return rolls


def test_two_injury_rolls_on_one_model_one_applies_the_other_is_refused_naming_who(tc_table, player, player2):
    answers = racing(
        {
            "pat": roll_on(tc_table, "Vera", player, faces=[5, 2]),  # 7: Down, 1 Blood Marker
            "quinn": roll_on(tc_table, "Vera", player2, faces=[1, 1]),  # 2: a Minor Hit
        }
    )

    winner, loser = one_applied(answers)
    who = {"pat": "pat_player", "quinn": "quinn_player"}[winner]
    assert f"Vera was changed by {who}" in answers[loser].message
    vera = tc_table.tracked("Vera")
    expected = {"pat": (1, True), "quinn": (1, False)}[winner]
    assert (vera.blood, vera.down) == expected  # the winner's roll whole, none of the loser's
    (stored,) = every_roll_is_kept_and_used(tc_table.game)
    assert stored.faces == {"pat": [5, 2], "quinn": [1, 1]}[winner]
    assert TrackerGame.objects.get(game=tc_table.game).version == 1


def test_a_roll_with_the_servers_dice_racing_a_marker_tap(tc_table, player, player2):
    answers = racing(
        {
            "pat": roll_on(tc_table, "Kit", player, faces=None),
            "quinn": tap_on(tc_table, "Kit", player2, what="blessings", change=1),
        }
    )

    winner, loser = one_applied(answers)
    assert "Kit was changed by" in answers[loser].message
    kit = tc_table.tracked("Kit")
    rolls = every_roll_is_kept_and_used(tc_table.game)
    if winner == "quinn":
        assert (kit.blessings, kit.blood, kit.down, kit.status) == (1, 0, False, "active")
        assert rolls == []  # the refused roll was refused before its dice were rolled: nothing to keep
    else:
        assert kit.blessings == 0
        (stored,) = rolls
        assert (stored.source, len(stored.faces)) == ("server", 2)


def test_two_phones_hammering_one_model_lose_no_roll(tc_table, player, player2):
    """Each phone rolls a Minor Hit (1 and 1) twice, reading the board again after each refusal: four rolls, four
    Blood Markers, one unbroken chain of before-images, every roll in the dice log."""

    def hammer(user):
        applied = attempts = 0
        while applied < 2:
            attempts += 1
            assert attempts < 60, "too many refusals"
            version = TrackerGame.objects.get(game=tc_table.game).version
            answer = answer_of(roll_on(tc_table, "Rusty", user, faces=[1, 1], version=version))
            if isinstance(answer, TrackerConflict):
                assert "Rusty was changed by" in answer.message
            else:
                applied += 1

    run_together(lambda: hammer(player), lambda: hammer(player2))

    assert tc_table.tracked("Rusty").blood == 4
    actions = list(TrackerAction.objects.filter(tracker__game=tc_table.game).order_by("version"))
    assert [action.version for action in actions] == [1, 2, 3, 4]
    assert [action.before[0]["values"]["blood"] for action in actions] == [0, 1, 2, 3]
    assert {action.by.username for action in actions} == {"pat_player", "quinn_player"}
    assert len(every_roll_is_kept_and_used(tc_table.game)) == 4


def test_a_refused_racer_leaves_the_board_as_the_winner_left_it(tc_table, player, player2):
    before = snapshot(tc_table.game)
    answers = racing(
        {
            "pat": tap_on(tc_table, "Vera", player, what="down", change=1),
            "quinn": tap_on(tc_table, "Vera", player2, what="blood", change=1),
        }
    )
    winner, _ = one_applied(answers)
    after = snapshot(tc_table.game)
    changed = {key for key in after if after[key] != before.get(key)}
    assert len(changed) == 1  # one model's row, changed by one tap only
    vera = tc_table.tracked("Vera")
    assert (vera.down, vera.blood) == ({"pat": (True, 0), "quinn": (False, 1)}[winner])
