"""Trench Crusade on the board (combat/services/tracker/injury.py): an Injury Roll applied, stored before it is
shown (RULING I-8), undone exactly, idempotent, a stale tap refused, bad input refused with nothing stored; the
one-tap markers and Down; a model taken Out of Action goes to the Trauma Step."""

import pytest

from campaigns.models import OutOfAction
from combat.models import DiceRoll, TrackerAction, TrackerActionKey, TrackerFighter
from combat.services.tracker.board import tracker_undo
from combat.services.tracker.end import tracker_end_game
from combat.services.tracker.errors import TrackerConflict, TrackerError
from combat.services.tracker.injury import injury_roll, tracker_marker
from combat.services.tracker.keys import Sent
from combat.tests.tracker_helpers import events_of, snapshot
from rosters.models import Item

pytestmark = pytest.mark.django_db


@pytest.fixture
def cole(tc_table, make_fighter, warband):
    """Brother Cole: TOUGH, in Standard Armour with a Trench Shield, on the board."""
    from combat.models import TrackerGame

    fighter = make_fighter(warband, "Brother Cole", keywords=["TOUGH"], armour=-1)
    Item.objects.create(warband=warband, fighter=fighter, name="Trench Shield")
    tracker = TrackerGame.objects.get(game=tc_table.game)
    TrackerFighter.objects.create(tracker=tracker, player=tc_table.alex, fighter=fighter)
    tc_table.fighters["Brother Cole"] = fighter
    return fighter


def roll(table, name, by, *, faces, version=None, **given):
    return injury_roll(
        game=table.game,
        target_id=table[name].pk,
        by=by,
        version=table.version if version is None else version,
        faces=faces,
        **given,
    )


def state(table, name) -> tuple:
    tracked = table.tracked(name)
    return tracked.blood, tracked.blessings, tracked.down, tracked.tough_used, tracked.status


def nothing_stored(table):
    return snapshot(table.game), table.version, DiceRoll.objects.count(), TrackerAction.objects.count()


def test_an_injury_roll_is_applied_stored_and_told(tc_table, player2):
    action = roll(tc_table, "Vera", player2, faces=[5, 2])
    assert state(tc_table, "Vera") == (1, 0, True, False, "active")
    assert action.kind == TrackerAction.Kind.INJURY_ROLL
    assert action.summary == (
        "Vera: Injury Roll 2D6 (5, 2) = 7: Down, 1 Blood Marker. "
        "7-8 on the Injury Table: Down places 1 Blood Marker and marks the model Down."
    )
    stored = DiceRoll.objects.get(pk__in=action.rolls)
    assert (stored.faces, stored.sides, stored.source, stored.purpose) == ([5, 2], 6, "entered", "injury")
    assert stored.label == "Vera: Injury Roll 2D6 (5, 2) = 7: Down, 1 Blood Marker"
    event = events_of(tc_table.tracked("Vera"))[-1]
    record = event.pgh_context.metadata["injury"]
    # RULING I-8: the dice, the dice kept, the modifiers and the markers spent, with the roll.
    assert (record["faces"], record["kept"], record["modifier"], record["blood_spent"]) == (
        [5, 2],
        [5, 2],
        0,
        0,
    )


def test_the_boards_example_down_already_tough_armour_from_the_roster(tc_table, cole, player2):
    tracker_marker(
        game=tc_table.game, target_id=cole.pk, what="down", change=1, by=player2, version=tc_table.version
    )
    tracker_marker(
        game=tc_table.game, target_id=cole.pk, what="blood", change=1, by=player2, version=tc_table.version
    )
    # One Blood Marker spent for +1 INJURY DICE: 3D6 keep 2 highest; Standard Armour -1, the shield -1 more.
    action = roll(tc_table, "Brother Cole", player2, faces=[5, 4, 1], blood_spent=1)
    assert action.summary.startswith(
        "Brother Cole: Injury Roll 3D6 keep 2 highest (5, 4, 1) -1 armour -1 shield = 7: Down, 2 Blood Markers "
        "(1 Blood Marker spent). Dice kept: 5, 4. 7-8 on the Injury Table: a model already Down gets 2 Blood Markers instead of 1 "
        "(RULING I-4)."
    )
    assert state(tc_table, "Brother Cole") == (2, 0, True, False, "active")
    # Armour changed for one roll: none, no shield; a 6 and a 6 would take it Out of Action, but it is TOUGH.
    saved = roll(tc_table, "Brother Cole", player2, faces=[6, 6], armour="none", shield=False)
    assert "Out of Action, saved by Tough: Down, 2 Blood Markers" in saved.summary
    assert state(tc_table, "Brother Cole") == (4, 0, True, True, "active")
    out = roll(tc_table, "Brother Cole", player2, faces=[6, 6], armour="none", shield=False)
    assert "= 12: Out of Action" in out.summary
    assert state(tc_table, "Brother Cole")[-1] == "out_of_action"


def test_server_dice_roll_the_pool(tc_table, player):
    action = roll(tc_table, "Fidus", player, faces=None, critical=True)
    stored = DiceRoll.objects.get(pk__in=action.rolls)
    assert stored.source == "server"
    assert len(stored.faces) == 3
    assert all(1 <= face <= 6 for face in stored.faces)


def test_undo_restores_the_model_exactly_and_marks_the_roll_undone(tc_table, player, player2):
    tracker_marker(
        game=tc_table.game, target_id=tc_table["Kit"].pk, what="blessings", change=1, by=player2, version=0
    )
    before = snapshot(tc_table.game)
    action = roll(tc_table, "Kit", player, faces=[6, 5, 1], blessings_spent=1)
    assert state(tc_table, "Kit") == (1, 0, False, False, "active")  # 2D6 keep 2 lowest: 5 + 1 = 6
    tracker_undo(game=tc_table.game, by=player2, version=tc_table.version)
    assert snapshot(tc_table.game) == before
    assert DiceRoll.objects.get(pk__in=action.rolls).status == DiceRoll.Status.UNDONE


def test_out_of_action_by_a_roll_goes_to_the_trauma_step(tc_table, player):
    roll(tc_table, "Rusty", player, faces=[6, 4])
    assert state(tc_table, "Rusty")[-1] == TrackerFighter.Status.OUT_OF_ACTION
    with pytest.raises(TrackerError, match="Rusty is Out of Action and out of play"):
        roll(tc_table, "Rusty", player, faces=[1, 1])
    results = {tc_table.alex.pk: "loss", tc_table.sam.pk: "win"}
    tracker_end_game(game=tc_table.game, by=player, version=tc_table.version, results=results)
    assert list(
        OutOfAction.objects.filter(player__game=tc_table.game).values_list("fighter__name", flat=True)
    ) == ["Rusty"]


def test_a_repeated_key_rolls_once(tc_table, player):
    sent = Sent(key="roll-1", batch="q")
    first = roll(tc_table, "Vera", player, faces=[3, 3], version=0, sent=sent)
    again = roll(tc_table, "Vera", player, faces=[6, 6], version=0, sent=sent)
    assert again.pk == first.pk
    assert state(tc_table, "Vera") == (1, 0, False, False, "active")
    assert DiceRoll.objects.count() == 1
    assert TrackerActionKey.objects.get(key="roll-1").action == first


def test_a_stale_tap_is_refused_naming_who_changed_the_model(tc_table, player, player2):
    roll(tc_table, "Vera", player2, faces=[3, 3], version=0)
    stored = nothing_stored(tc_table)
    with pytest.raises(TrackerConflict, match="Vera was changed by"):
        roll(tc_table, "Vera", player, faces=[3, 3], version=0)
    assert nothing_stored(tc_table) == stored
    # Another model, on the same old board: applied.
    roll(tc_table, "Kit", player, faces=[1, 1], version=0)


@pytest.mark.parametrize(
    ("given", "field", "reason"),
    [
        ({"faces": [7, 1]}, "faces", "A D6 shows 1 to 6: 7 is not a face of a D6"),
        ({"faces": [0, 1]}, "faces", "0 is not a face of a D6"),
        ({"faces": [3, 3, 3]}, "faces", "This Injury Roll rolls 2D6: enter 2 faces"),
        ({"faces": [3, 3], "blood_spent": 1}, "blood_spent", "blood_spent 1 is more than the target has"),
        ({"faces": [3, 3], "blessings_spent": 2}, "blessings_spent", "more than the target's 0 Blessing"),
        ({"faces": [3, 3, 3], "bloodbath": True}, "bloodbath", "a Bloodbath Roll needs 6 Blood Markers"),
        ({"faces": [3, 3], "armour": "plate"}, "armour", "'plate' is not one of them"),
        ({"faces": [3, 3], "blood_spent": 7}, "blood_spent", "blood_spent must be 0 to 6"),
    ],
)
def test_bad_input_is_refused_with_nothing_stored(tc_table, player, given, field, reason):
    stored = nothing_stored(tc_table)
    with pytest.raises(TrackerError, match=reason) as refused:
        roll(tc_table, "Vera", player, **given)
    assert refused.value.field == field
    assert nothing_stored(tc_table) == stored


def test_a_unit_keeps_its_health_pool(tc_table, player):
    with pytest.raises(TrackerError, match="The Choir is a unit of several models"):
        roll(tc_table, "The Choir", player, faces=[1, 1])


def test_a_fallout_factions_board_takes_no_injury_roll_nor_markers(table, player):
    stored = nothing_stored(table)
    with pytest.raises(TrackerError, match="fighters have Endurance"):
        injury_roll(game=table.game, target_id=table["Vera"].pk, by=player, version=0, faces=[1, 1])
    with pytest.raises(TrackerError, match="fighters have Endurance"):
        tracker_marker(
            game=table.game, target_id=table["Vera"].pk, what="blood", change=1, by=player, version=0
        )
    assert nothing_stored(table) == stored


def tap(table, name, by, what, change):
    return tracker_marker(
        game=table.game, target_id=table[name].pk, what=what, change=change, by=by, version=table.version
    )


def test_marker_taps_are_bounded_0_to_6_and_undone(tc_table, player):
    for _ in range(6):
        tap(tc_table, "Mags", player, "blood", 1)
    stored = nothing_stored(tc_table)
    with pytest.raises(TrackerError, match="markers past 6 are not placed"):
        tap(tc_table, "Mags", player, "blood", 1)
    assert nothing_stored(tc_table) == stored
    with pytest.raises(TrackerError, match="carries no Blessing Marker to take off"):
        tap(tc_table, "Mags", player, "blessings", -1)
    action = tap(tc_table, "Mags", player, "blood", -1)
    assert action.summary == "-1 Blood Marker on Mags (5 Blood Markers now)."
    assert tap(tc_table, "Mags", player, "down", 1).summary == "Mags is Down."
    with pytest.raises(TrackerError, match="already Down"):
        tap(tc_table, "Mags", player, "down", 1)
    assert tap(tc_table, "Mags", player, "down", -1).summary == "Mags stands up: no longer Down."
    tracker_undo(game=tc_table.game, by=player, version=tc_table.version)
    assert state(tc_table, "Mags") == (5, 0, True, False, "active")


def test_a_bloodbath_spends_its_markers_first(tc_table, player):
    for _ in range(6):
        tap(tc_table, "Fidus", player, "blood", 1)
    action = roll(tc_table, "Fidus", player, faces=[2, 1, 1], bloodbath=True)
    # RULING I-3/I-6: the 6 spent come off, then a Minor Hit places 1.
    assert action.summary.startswith(
        "Fidus: Bloodbath Roll 3D6 (2, 1, 1) = 4: Minor Hit, 1 Blood Marker (6 Blood Markers spent). 2-6"
    )
    assert state(tc_table, "Fidus")[0] == 1


def test_an_injury_roll_may_say_who_caused_it(tc_table, player2):
    action = roll(tc_table, "Vera", player2, faces=[6, 5], attacker_id=tc_table["Kit"].pk)
    assert state(tc_table, "Vera")[-1] == "out_of_action"
    assert action.attacker_id == tc_table["Kit"].pk
    assert action.summary.endswith(" By Kit (Heretic Legion).")
    assert events_of(tc_table.tracked("Vera"))[-1].pgh_context.metadata["attacker"] == tc_table["Kit"].pk


def test_by_is_checked_before_the_roll_so_a_refusal_stores_no_roll(tc_table, player):
    before = nothing_stored(tc_table)
    with pytest.raises(TrackerError, match="own side") as refused:
        roll(tc_table, "Vera", player, faces=[6, 5], attacker_id=tc_table["Brick"].pk)
    assert refused.value.field == "attacker"
    assert nothing_stored(tc_table) == before
