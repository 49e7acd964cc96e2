"""The board's reading of a Trench Crusade model (combat/rules/injury_board.py): TOUGH, armour and shield from the
roster, the one-tap markers bounded 0 to 6 (TC_IN_GAME.md, "Markers"), Down, and the sentences."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import InjuryRoll, TcModel, resolve_injury
from combat.rules.dice import ScriptedDice
from combat.rules.injury import MAX_MARKERS
from combat.rules.injury_board import (
    MarkerChange,
    adjust_marker,
    explain_marker,
    injury_record,
    injury_rule,
    injury_words,
    kit_from,
    set_down,
)


def test_tough_armour_and_shield_come_from_keywords_battlekit_and_profile():
    kit = kit_from(keywords=["Tough", "ELITE"], profile_armour=0, battlekit=[("Trench Shield", [])])
    assert (kit.tough, kit.armour, kit.shield) == (True, None, True)
    # Battlekit names the armour (by name or keyword); the heaviest counts.
    kit = kit_from(
        keywords=[], profile_armour=-1, battlekit=[("Plates", ["REINFORCED ARMOUR"]), ("Standard Armour", [])]
    )
    assert (kit.tough, kit.armour, kit.shield) == (False, "reinforced", False)
    # Else the profile's Armour when it is one of the three armours' modifiers.
    assert kit_from(keywords=[], profile_armour=-3, battlekit=[]).armour == "machine"
    assert kit_from(keywords=[], profile_armour=2, battlekit=[]).armour is None


def test_markers_stop_at_6_and_never_go_below_0():
    full = TcModel(blood=MAX_MARKERS)
    with pytest.raises(ValueError, match="markers past 6 are not placed"):
        adjust_marker(full, marker="blood", change=1)
    with pytest.raises(ValueError, match="no Blessing Marker to take off"):
        adjust_marker(TcModel(), marker="blessings", change=-1)
    with pytest.raises(ValueError, match="Out of Action"):
        adjust_marker(TcModel(out_of_action=True), marker="blood", change=1)
    with pytest.raises(ValueError, match="marker must be"):
        adjust_marker(TcModel(), marker="harm", change=1)
    one = adjust_marker(TcModel(), marker="blessings", change=1)
    assert one.after == TcModel(blessings=1)
    assert explain_marker(one, name="Cole") == "+1 Blessing Marker on Cole (1 Blessing Marker now)."


@given(st.integers(0, MAX_MARKERS), st.sampled_from(["blood", "blessings"]), st.sampled_from([1, -1]))
def test_a_tap_keeps_markers_within_0_to_6(start, marker, change):
    model = TcModel(**{marker: start})
    try:
        after = adjust_marker(model, marker=marker, change=change).after
    except ValueError:
        assert start + change in (-1, MAX_MARKERS + 1)
    else:
        assert getattr(after, marker) == start + change


def test_down_and_standing_up():
    down = set_down(TcModel(), down=True)
    assert down.after.down
    assert explain_marker(down, name="Cole") == "Cole is Down."
    with pytest.raises(ValueError, match="not Down"):
        set_down(TcModel(), down=False)


def test_the_issues_sentence():
    target = TcModel(down=True, blood=1)
    outcome = resolve_injury(target, InjuryRoll(blood_spent=1, armour="standard"), ScriptedDice([5, 4, 1]))
    record = injury_record(outcome)
    assert injury_words(record, name="Brother Cole") == (
        "Brother Cole: Injury Roll 3D6 keep 2 highest (5, 4, 1) -1 armour = 8: Down, 2 Blood Markers "
        "(1 Blood Marker spent)"
    )
    assert injury_rule(outcome) == (
        "7-8 on the Injury Table: a model already Down gets 2 Blood Markers instead of 1 (RULING I-4)."
    )


def test_the_cap_and_the_weapons_modifiers_are_told():
    roll = InjuryRoll(modifiers=(1, -2), armour="reinforced", shield=True)
    outcome = resolve_injury(TcModel(), roll, ScriptedDice([1, 1]))
    assert injury_words(injury_record(outcome), name="Kit") == (
        "Kit: Injury Roll 2D6 (1, 1) +1 -2 -2 armour -1 shield (negatives capped at -3) = 0: No Effect"
    )
    assert "at most -3 (RULING I-2)" in injury_rule(outcome)


# --- whole outcomes: the record the board stores, its sentence, the rule, each tap -------------------------------


def test_the_record_keeps_every_input_and_result_under_its_own_name():
    """RULING I-8: the dice, the dice kept, the modifiers and the markers spent, stored with the action."""
    target = TcModel(blood=6, blessings=2, tough=True)
    roll = InjuryRoll(
        bloodbath=True,
        blessings_spent=2,
        injury_dice=1,
        critical=True,
        melee=True,
        shield=True,
        armour="machine",
        modifiers=(2,),
    )
    outcome = resolve_injury(target, roll, ScriptedDice([6, 6, 6, 6, 6, 6]))
    record = injury_record(outcome)
    assert record == {
        "bloodbath": True,
        "dice": 3,
        "keep": 3,
        "highest": None,
        "faces": [6, 6, 6],
        "kept": [6, 6, 6],
        "modifiers": [2],
        "armour": "machine",
        "shield": False,  # RULING I-5: never with Machine Armour
        "capped": False,
        "modifier": -1,
        "total": 17,
        "result": "down",
        "tough_saved": True,
        "blood_placed": 1,
        "blood_spent": 6,
        "blessings_spent": 2,
        "injury_dice": 1,
        "critical": True,
        "melee": True,
    }
    assert injury_words(record, name="Cole") == (
        "Cole: Bloodbath Roll 3D6 (6, 6, 6) +2 -3 armour = 17: Out of Action, saved by Tough: Down, 1 Blood Marker "
        "(6 Blood Markers and 2 Blessing Markers spent)"
    )
    assert injury_rule(outcome) == (
        "9 or more would take it Out of Action, but a TOUGH model's first Out of Action in a game is Down instead, "
        "in full (RULING I-4)."
    )


def test_a_shield_with_standard_armour_and_one_blessing_spent():
    outcome = resolve_injury(
        TcModel(blessings=1),
        InjuryRoll(blessings_spent=1, shield=True, armour="standard", injury_dice=1),
        ScriptedDice([2, 3]),
    )
    record = injury_record(outcome)
    assert (record["shield"], record["faces"], record["kept"], record["modifier"]) == (
        True,
        [2, 3],
        [3, 2],
        -2,
    )
    assert (record["bloodbath"], record["tough_saved"], record["critical"], record["melee"]) == (
        False,
        False,
        False,
        False,
    )
    assert (record["blessings_spent"], record["injury_dice"]) == (1, 1)
    assert injury_words(record, name="Cole") == (
        "Cole: Injury Roll 2D6 (2, 3) -1 armour -1 shield = 3: Minor Hit, 1 Blood Marker (1 Blessing Marker spent)"
    )


@pytest.mark.parametrize(
    ("target", "faces", "modifiers", "words", "rule"),
    [
        (
            TcModel(blood=6),
            [1, 2],
            (),
            "Cole: Injury Roll 2D6 (1, 2) = 3: Minor Hit, 0 Blood Markers",
            "2-6 on the Injury Table: a Minor Hit, but markers past 6 are not placed (RULING I-3).",
        ),
        (
            TcModel(),
            [1, 2],
            (),
            "Cole: Injury Roll 2D6 (1, 2) = 3: Minor Hit, 1 Blood Marker",
            "2-6 on the Injury Table: a Minor Hit places 1 Blood Marker.",
        ),
        (
            TcModel(),
            [3, 4],
            (),
            "Cole: Injury Roll 2D6 (3, 4) = 7: Down, 1 Blood Marker",
            "7-8 on the Injury Table: Down places 1 Blood Marker and marks the model Down.",
        ),
        (
            TcModel(),
            [5, 5],
            (),
            "Cole: Injury Roll 2D6 (5, 5) = 10: Out of Action",
            "9 or more on the Injury Table: Out of Action, out of play for the rest of the game (RULING I-7).",
        ),
        (
            TcModel(),
            [1, 1],
            (-1,),
            "Cole: Injury Roll 2D6 (1, 1) -1 = 1: No Effect",
            "1 or less on the Injury Table: No Effect.",
        ),
    ],
)
def test_each_result_in_its_words_and_its_rule(target, faces, modifiers, words, rule):
    outcome = resolve_injury(target, InjuryRoll(modifiers=modifiers), ScriptedDice(faces))
    assert injury_words(injury_record(outcome), name="Cole") == words
    assert injury_rule(outcome) == rule


def test_each_tap_keeps_the_model_before_and_after():
    model = TcModel(blood=2)
    assert adjust_marker(model, marker="blood", change=-1) == MarkerChange(
        "blood", -1, model, TcModel(blood=1)
    )
    less = adjust_marker(model, marker="blood", change=-1)
    assert explain_marker(less, name="Cole") == "-1 Blood Marker on Cole (1 Blood Marker now)."
    more = adjust_marker(model, marker="blood", change=1)
    assert explain_marker(more, name="Cole") == "+1 Blood Marker on Cole (3 Blood Markers now)."
    down = set_down(model, down=True)
    assert down == MarkerChange("down", 1, model, TcModel(blood=2, down=True))
    up = set_down(TcModel(down=True), down=False)
    assert up == MarkerChange("down", -1, TcModel(down=True), TcModel())
    assert explain_marker(up, name="Cole") == "Cole stands up: no longer Down."
    with pytest.raises(ValueError, match="^the model is already Down$"):
        set_down(TcModel(down=True), down=True)


def test_tough_is_the_keyword_itself_and_an_armour_keyword_may_use_underscores():
    assert kit_from(keywords=["HEAVY", "ELITE"], profile_armour=0, battlekit=[]).tough is False
    kit = kit_from(keywords=[" tough "], profile_armour=0, battlekit=[("Plates", ["Reinforced_Armour"])])
    assert (kit.tough, kit.armour, kit.shield) == (True, "reinforced", False)
