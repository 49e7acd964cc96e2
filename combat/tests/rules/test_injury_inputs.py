"""Bad input to combat/rules/injury.py is refused with a `ValueError` naming the value (docs/engine.md), before
any die is rolled: markers outside 0..6, more markers spent than the model has, a Bloodbath without its Blood
Markers, an unknown armour, a model already Out of Action."""

import pytest

from combat.rules import (
    InjuryRoll,
    ScriptedDice,
    TcModel,
    injury_odds,
    injury_pool,
    injury_result,
    resolve_injury,
)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"blood": 7}, "blood must be 0 to 6, got 7"),
        ({"blood": -1}, "blood must be 0 to 6, got -1"),
        ({"blessings": 9}, "blessings must be 0 to 6, got 9"),
        ({"blessings": 1.0}, "blessings must be 0 to 6, got 1.0"),
        ({"blood": True}, "blood must be 0 to 6, got True"),
        ({"down": 1}, "down must be True or False, got 1"),
        ({"out_of_action": "yes"}, "out_of_action must be True or False, got 'yes'"),
        ({"tough_used": True}, "tough_used=True needs tough=True"),
    ],
)
def test_a_model_with_markers_outside_0_to_6_or_bad_flags_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        TcModel(**fields)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"armour": "plate"}, "armour must be one of standard, reinforced, machine or None, got 'plate'"),
        ({"armour": "Standard"}, "got 'Standard'"),
        ({"blood_spent": -1}, "blood_spent must be 0 to 6, got -1"),
        ({"blessings_spent": 7}, "blessings_spent must be 0 to 6, got 7"),
        ({"injury_dice": 1.5}, "injury_dice must be a whole number from -20 to 20, got 1.5"),
        ({"injury_dice": 21}, "injury_dice must be a whole number from -20 to 20, got 21"),
        ({"modifiers": [1, "2"]}, "an INJURY MODIFIER must be a whole number from -20 to 20, got '2'"),
        ({"modifiers": [-21]}, "got -21"),
        ({"modifiers": "-1"}, "modifiers must be a list of whole numbers, got '-1'"),
        ({"modifiers": [0] * 21}, "at most 20 INJURY MODIFIERS, got 21"),
        ({"critical": 1}, "critical must be True or False, got 1"),
        ({"bloodbath": None}, "bloodbath must be True or False, got None"),
    ],
)
def test_a_roll_with_an_unknown_armour_or_bad_numbers_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        InjuryRoll(**fields)


@pytest.mark.parametrize(
    ("target", "inputs", "message"),
    [
        (TcModel(blood=2), {"blood_spent": 3}, "blood_spent 3 is more than the target has: 3 spent, 2 Blood"),
        (
            TcModel(blessings=1),
            {"blessings_spent": 2},
            "blessings_spent 2 is more than the target's 1 Blessing",
        ),
        (TcModel(blood=5), {"bloodbath": True}, "a Bloodbath Roll needs 6 Blood Markers on the target"),
        (TcModel(blood=2, down=True), {"bloodbath": True}, "needs 3 Blood Markers .* it has 2"),
        (
            TcModel(blood=6),
            {"bloodbath": True, "blood_spent": 1},
            "blood_spent 1 is more than the target has: the Bloodbath's 6 and 1 spent, 6 Blood",
        ),
        (TcModel(out_of_action=True), {}, "the target is already Out of Action"),
    ],
)
def test_spending_what_the_target_lacks_or_rolling_on_a_model_out_of_action_is_refused(
    target, inputs, message
):
    dice = ScriptedDice([6] * 10)
    for call in (
        lambda: injury_pool(target, InjuryRoll(**inputs)),
        lambda: injury_odds(target, InjuryRoll(**inputs)),
        lambda: resolve_injury(target, InjuryRoll(**inputs), dice),
    ):
        with pytest.raises(ValueError, match=message):
            call()
    assert dice.log == []  # refused before any die is rolled


def test_a_face_a_d6_cannot_show_is_refused_by_the_dice_and_not_used():
    dice = ScriptedDice([3, 7])
    with pytest.raises(ValueError, match="a D6 shows 1 to 6, got 7"):
        resolve_injury(TcModel(), InjuryRoll(), dice)
    assert dice.remaining == (7,)


def test_what_is_not_a_model_a_roll_or_a_whole_number_is_refused():
    with pytest.raises(ValueError, match="the target must be a TcModel"):
        injury_pool({"blood": 1}, InjuryRoll())
    with pytest.raises(ValueError, match="the roll must be an InjuryRoll"):
        injury_pool(TcModel(), {"critical": True})
    with pytest.raises(ValueError, match="an Injury Roll's result must be a whole number, got 7.5"):
        injury_result(7.5)
