"""The board's reading of a Trench Crusade model (combat/rules/injury_board.py): TOUGH, armour and shield from the
roster, the one-tap markers bounded 0 to 6 (TC_IN_GAME.md, "Markers"), Down, and the sentences."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import InjuryRoll, TcModel, resolve_injury
from combat.rules.dice import ScriptedDice
from combat.rules.injury import MAX_MARKERS
from combat.rules.injury_board import (
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
