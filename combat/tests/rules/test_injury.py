"""Tests for combat/rules/injury.py: Trench Crusade's Injury Rolls as TC_IN_GAME.md states them, each of RULINGS
I-1 to I-8 pinned by a test named after it, and the names docs/engine.md gives. The odds and the properties are in
test_injury_odds.py, bad input in test_injury_inputs.py."""

import inspect
from dataclasses import fields

import pytest

from combat import rules
from combat.rules import (
    ARMOUR,
    INJURY_RESULTS,
    MAX_MARKERS,
    InjuryOutcome,
    InjuryPool,
    InjuryRoll,
    ScriptedDice,
    TcModel,
    injury_odds,
    injury_pool,
    injury_result,
    resolve_injury,
)


def roll(target: TcModel, faces, **inputs) -> InjuryOutcome:
    return resolve_injury(target, InjuryRoll(**inputs), ScriptedDice(faces))


# --- the names docs/engine.md gives -------------------------------------------------------------------------------


def test_the_constants_are_those_of_engine_md():
    assert INJURY_RESULTS == ("no_effect", "minor_hit", "down", "out_of_action")
    assert MAX_MARKERS == 6
    assert dict(ARMOUR) == {"standard": -1, "reinforced": -2, "machine": -3}


@pytest.mark.parametrize(
    ("cls", "names"),
    [
        (TcModel, ("blood", "blessings", "down", "tough", "tough_used", "out_of_action")),
        (
            InjuryRoll,
            (
                "injury_dice",
                "modifiers",
                "blood_spent",
                "blessings_spent",
                "critical",
                "melee",
                "armour",
                "shield",
                "bloodbath",
            ),
        ),
    ],
)
def test_the_inputs_take_engine_md_keywords_with_their_defaults(cls, names):
    assert cls.__dataclass_params__.frozen
    assert tuple(field.name for field in fields(cls)) == names
    assert all(field.kw_only for field in fields(cls))
    defaults = cls()
    assert all(not getattr(defaults, name) for name in names)  # 0, (), False or None


def test_the_results_start_with_engine_md_fields():
    assert tuple(field.name for field in fields(InjuryPool))[:4] == ("dice", "keep", "highest", "modifier")
    assert tuple(field.name for field in fields(InjuryOutcome))[:7] == (
        "faces",
        "kept",
        "total",
        "result",
        "tough_saved",
        "blood_placed",
        "after",
    )
    for name, parameters in {
        "injury_pool": ["target", "roll"],
        "resolve_injury": ["target", "roll", "dice"],
        "injury_odds": ["target", "roll"],
    }.items():
        assert list(inspect.signature(getattr(rules, name)).parameters) == parameters


# --- TC_IN_GAME.md, "Dice pools" and "The Injury Roll" ------------------------------------------------------------


def test_an_injury_roll_with_nothing_added_rolls_2d6_and_adds_both():
    outcome = roll(TcModel(), [3, 4])

    assert (outcome.faces, outcome.kept, outcome.total, outcome.result) == ((3, 4), (4, 3), 7, "down")


@pytest.mark.parametrize(
    ("total", "result"),
    [
        (-4, "no_effect"),
        (0, "no_effect"),
        (1, "no_effect"),
        (2, "minor_hit"),
        (6, "minor_hit"),
        (7, "down"),
        (8, "down"),
        (9, "out_of_action"),
        (12, "out_of_action"),
        (15, "out_of_action"),
    ],
)
def test_the_injury_table_1_or_less_2_to_6_7_to_8_and_9_or_more(total, result):
    assert injury_result(total) == result


def test_plus_dice_keep_the_two_highest_and_minus_dice_the_two_lowest():
    plus = roll(TcModel(), [1, 5, 3], injury_dice=1)
    minus = roll(TcModel(), [1, 5, 3], injury_dice=-1)

    assert (plus.kept, plus.total, plus.result) == ((5, 3), 8, "down")
    assert (minus.kept, minus.total, minus.result) == ((3, 1), 4, "minor_hit")


def test_a_minor_hit_places_1_blood_marker():
    outcome = roll(TcModel(blood=2), [1, 2])

    assert (outcome.result, outcome.blood_placed, outcome.after) == ("minor_hit", 1, TcModel(blood=3))


def test_no_effect_changes_nothing():
    target = TcModel(blood=1, blessings=2, down=True)

    outcome = roll(target, [1, 3], modifiers=[-3])

    assert (outcome.total, outcome.result, outcome.after) == (1, "no_effect", target)


def test_down_places_1_blood_marker_and_marks_the_model_down():
    outcome = roll(TcModel(), [4, 4])

    assert outcome.after == TcModel(blood=1, down=True)


def test_out_of_action_removes_the_model_from_play():
    outcome = roll(TcModel(blood=3), [6, 3])

    assert (outcome.result, outcome.blood_placed) == ("out_of_action", 0)
    assert outcome.after == TcModel(blood=3, out_of_action=True)


def test_each_source_of_injury_dice_adds_one_die():
    # Blood Markers the attacker spends, a Critical Success, a melee attack on a Down target: +1 each.
    assert injury_pool(TcModel(blood=2), InjuryRoll(blood_spent=2)).dice == 4
    assert injury_pool(TcModel(), InjuryRoll(critical=True)).dice == 3
    assert injury_pool(TcModel(down=True), InjuryRoll(melee=True)).dice == 3
    assert injury_pool(TcModel(), InjuryRoll(melee=True)).dice == 2  # not Down: no die
    # Blessing Markers its owner spends: -1 each, so the lowest are kept.
    pool = injury_pool(TcModel(blessings=2), InjuryRoll(blessings_spent=2))
    assert (pool.dice, pool.keep, pool.highest) == (4, 2, False)


@pytest.mark.parametrize(
    ("armour", "modifier"), [(None, 0), ("standard", -1), ("reinforced", -2), ("machine", -3)]
)
def test_armour_gives_its_injury_modifier(armour, modifier):
    assert injury_pool(TcModel(), InjuryRoll(armour=armour)).modifier == modifier


def test_a_trench_shield_adds_1_more_with_standard_or_reinforced_armour():
    assert injury_pool(TcModel(), InjuryRoll(armour="standard", shield=True)).modifier == -2
    assert injury_pool(TcModel(), InjuryRoll(armour="reinforced", shield=True)).modifier == -3


def test_the_weapons_own_dice_and_modifiers_are_added():
    outcome = roll(TcModel(), [2, 6, 1, 5], injury_dice=2, modifiers=[+1, +1])

    assert (outcome.kept, outcome.total, outcome.result) == ((6, 5), 13, "out_of_action")


def test_a_bloodbath_rolls_3d6_keeps_all_three_and_spends_6_blood_markers():
    outcome = roll(TcModel(blood=6), [1, 2, 2], bloodbath=True)

    assert (outcome.kept, outcome.total, outcome.result) == ((2, 2, 1), 5, "minor_hit")
    assert outcome.after.blood == 1  # 6 spent, then the Minor Hit's 1


def test_a_bloodbath_on_a_down_target_costs_3_and_keeps_the_3_highest_with_plus_dice():
    outcome = roll(TcModel(blood=4, down=True), [1, 6, 2, 2], bloodbath=True, critical=True)

    assert outcome.kept == (6, 2, 2)
    assert (outcome.total, outcome.result) == (10, "out_of_action")
    assert outcome.after.blood == 1


def test_a_tough_model_is_taken_down_instead_of_out_of_action_the_first_time():
    tough = TcModel(tough=True)

    first = roll(tough, [6, 6])
    second = roll(first.after, [6, 6])

    assert (first.rolled, first.result, first.tough_saved) == ("out_of_action", "down", True)
    assert first.after == TcModel(blood=1, down=True, tough=True, tough_used=True)
    assert (second.result, second.tough_saved) == ("out_of_action", False)
    assert second.after.out_of_action


def test_the_boards_example_three_dice_keep_two_minus_armour_on_a_model_already_down():
    # "Injury Roll 3D6 keep 2 highest (5, 4, 1) -1 armour = 8: Down, 2 Blood Markers"
    outcome = roll(TcModel(blood=1, down=True), [5, 4, 1], critical=True, armour="standard")

    assert (outcome.faces, outcome.kept, outcome.total) == ((5, 4, 1), (5, 4), 8)
    assert (outcome.result, outcome.blood_placed, outcome.after.blood) == ("down", 2, 3)


# --- RULINGS I-1 to I-8 -------------------------------------------------------------------------------------------


def test_i_1_plus_and_minus_injury_dice_cancel_in_pairs_before_the_roll():
    # +2 weapon, +1 Critical, +1 Blood Marker spent; -3 Blessing Markers: net +1, so 3 dice, the 2 highest kept.
    target = TcModel(blood=1, blessings=3)
    pool = injury_pool(target, InjuryRoll(injury_dice=2, critical=True, blood_spent=1, blessings_spent=3))
    assert (pool.dice, pool.keep, pool.highest, pool.net_dice) == (3, 2, True, 1)
    # Cancelled to nothing: only the base dice, all kept.
    even = injury_pool(target, InjuryRoll(blood_spent=1, blessings_spent=1))
    assert (even.dice, even.keep, even.highest) == (2, 2, None)
    assert (
        "I-1"
        in resolve_injury(target, InjuryRoll(blood_spent=1, blessings_spent=1), ScriptedDice([3, 3])).rulings
    )


def test_i_2_the_cap_of_minus_3_is_on_the_negative_modifiers_and_positive_ones_come_after():
    pool = injury_pool(TcModel(), InjuryRoll(modifiers=[-2, -2, +2], armour="standard"))
    assert (pool.modifier, pool.capped) == (-3 + 2, True)
    # Looked up as it is, below 1 included: No Effect.
    outcome = roll(TcModel(), [1, 1], modifiers=[-3])
    assert (outcome.total, outcome.result) == (-1, "no_effect")
    assert "I-2" not in outcome.rulings
    assert "I-2" in roll(TcModel(), [1, 1], modifiers=[-3, -1]).rulings


def test_i_3_spent_blood_markers_come_off_before_the_new_ones_which_stop_at_6():
    # 6 markers, 2 spent: 4 left; Down places 1: 5, not 6 capped then lowered.
    spent = roll(TcModel(blood=6), [1, 3, 4, 4], blood_spent=2)  # 4 dice, the 2 highest: 8
    assert (spent.result, spent.blood_placed, spent.after.blood) == ("down", 1, 5)
    # Nothing spent on a model with 6: the Minor Hit's marker is not placed.
    full = roll(TcModel(blood=6), [1, 2])
    assert (full.result, full.blood_placed, full.after.blood) == ("minor_hit", 0, 6)
    assert "I-3" in full.rulings
    # A Bloodbath's markers come off the same way.
    bloodbath = roll(TcModel(blood=6, down=True), [3, 3, 1], bloodbath=True)
    assert (bloodbath.result, bloodbath.after.blood) == ("down", 3 + 2)


def test_i_4_down_twice_gives_2_markers_tough_saves_once_and_down_is_read_before_the_roll():
    again = roll(TcModel(blood=1, down=True), [4, 3])
    assert (again.result, again.blood_placed, again.after) == ("down", 2, TcModel(blood=3, down=True))
    # Tough on a model already Down: the Down result in full, 2 Blood Markers.
    saved = roll(TcModel(blood=1, down=True, tough=True), [6, 5])
    assert (saved.result, saved.tough_saved, saved.blood_placed) == ("down", True, 2)
    assert saved.after.tough_used
    assert "I-4" in saved.rulings
    # Down before the roll decides the melee die and the Bloodbath's cost, not Down after it.
    assert injury_pool(TcModel(down=True), InjuryRoll(melee=True)).dice == 3
    assert injury_pool(TcModel(blood=3, down=True), InjuryRoll(bloodbath=True)).blood_cost == 3


def test_i_5_a_shield_with_machine_armour_counts_as_machine_armour_alone():
    machine = injury_pool(TcModel(), InjuryRoll(armour="machine"))
    with_shield = injury_pool(TcModel(), InjuryRoll(armour="machine", shield=True))
    assert machine.modifier == with_shield.modifier == -3
    assert with_shield.capped is False
    # No armour: the shield alone gives its -1.
    assert injury_pool(TcModel(), InjuryRoll(shield=True)).modifier == -1
    assert injury_odds(TcModel(), InjuryRoll(armour="machine", shield=True, modifiers=[-1])) == injury_odds(
        TcModel(), InjuryRoll(armour="machine")
    )


def test_i_6_a_bloodbath_needs_its_markers_and_more_may_be_spent_for_dice():
    with pytest.raises(ValueError, match="a Bloodbath Roll needs 6 Blood Markers on the target .* it has 5"):
        injury_pool(TcModel(blood=5), InjuryRoll(bloodbath=True))
    pool = injury_pool(TcModel(blood=5, down=True), InjuryRoll(bloodbath=True, blood_spent=2))
    assert (pool.dice, pool.keep, pool.highest, pool.blood_cost) == (5, 3, True, 5)
    with pytest.raises(ValueError, match="blood_spent 3 is more than the target has"):
        injury_pool(TcModel(blood=5, down=True), InjuryRoll(bloodbath=True, blood_spent=3))


def test_i_7_out_of_action_places_no_marker_and_takes_no_more_rolls():
    outcome = roll(TcModel(blood=5, down=True, blessings=1), [6, 6])
    assert (outcome.result, outcome.blood_placed) == ("out_of_action", 0)
    assert outcome.after == TcModel(blood=5, down=True, blessings=1, out_of_action=True)
    assert "I-7" in outcome.rulings
    with pytest.raises(ValueError, match="already Out of Action"):
        resolve_injury(outcome.after, InjuryRoll(), ScriptedDice([1, 1]))


def test_i_8_the_outcome_carries_every_face_the_dice_kept_and_the_inputs_for_storing():
    target = TcModel(blood=2, blessings=1)
    inputs = InjuryRoll(
        injury_dice=1, modifiers=[-1, +1], blood_spent=1, blessings_spent=1, armour="standard"
    )
    dice = ScriptedDice([2, 6, 5, 1])

    outcome = resolve_injury(target, inputs, dice)

    assert [entry.face for entry in dice.log] == list(outcome.faces) == [2, 6, 5]
    assert {entry.source for entry in dice.log} == {"entered"}
    assert outcome.kept == (6, 5)
    assert (outcome.before, outcome.roll, outcome.pool) == (target, inputs, injury_pool(target, inputs))
    assert outcome.roll.modifiers == (-1, +1)  # stored as given, one by one
    # Everything needed to check the odds shown before the roll against the outcome after it.
    assert injury_odds(outcome.before, outcome.roll)[outcome.result] > 0
    assert outcome.total == sum(outcome.kept) + outcome.pool.modifier


# --- the rulings each roll names, whole (RULINGS I-1 to I-7) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "faces", "inputs", "told"),
    [
        # A Minor Hit places its 1 Blood Marker: no ruling; with 6 already, none is placed (I-3).
        (TcModel(), [1, 1], {}, ("minor_hit", 1, False, ())),
        (TcModel(blood=6), [1, 1], {}, ("minor_hit", 0, False, ("I-3",))),
        # Down on a model standing: 1 Blood Marker; on a full one, none placed (I-3).
        (TcModel(), [3, 4], {}, ("down", 1, False, ())),
        (TcModel(blood=6), [3, 4], {}, ("down", 0, False, ("I-3",))),
        # Down on a model already Down: 2 Blood Markers instead (I-4); with 5, only 1 fits (I-3).
        (TcModel(down=True), [3, 4], {}, ("down", 2, False, ("I-4",))),
        (TcModel(down=True, blood=5), [3, 4], {}, ("down", 1, False, ("I-3", "I-4"))),
        # No Effect places nothing and asks no ruling.
        (TcModel(), [1, 1], {"modifiers": [-1]}, ("no_effect", 0, False, ())),
        # A Down target read before the roll adds a die only to a melee attack (I-1, I-4).
        (TcModel(down=True), [1, 1], {}, ("minor_hit", 1, False, ())),
        (TcModel(), [1, 1], {"melee": True}, ("minor_hit", 1, False, ())),
        (
            TcModel(down=True),
            [1, 1, 1, 1],
            {"critical": True, "melee": True},
            ("minor_hit", 1, False, ("I-1", "I-4")),
        ),
        # TOUGH: the first Out of Action is Down instead (I-4); Out of Action itself (I-7).
        (TcModel(tough=True), [5, 5], {}, ("down", 1, True, ("I-4",))),
        (TcModel(), [5, 5], {}, ("out_of_action", 0, False, ("I-7",))),
        # A Trench Shield (I-5); a Bloodbath's cost in Blood Markers (I-3, I-6).
        (TcModel(), [1, 1], {"shield": True, "modifiers": [3]}, ("minor_hit", 1, False, ("I-5",))),
        (TcModel(blood=6), [1, 1, 1], {"bloodbath": True}, ("minor_hit", 1, False, ("I-3", "I-6"))),
    ],
)
def test_each_roll_names_exactly_the_rulings_that_decided_it(target, faces, inputs, told):
    outcome = roll(target, faces, **inputs)
    assert (outcome.result, outcome.blood_placed, outcome.tough_saved, outcome.rulings) == told


def test_i_1_a_critical_melee_attack_on_a_down_target_adds_both_dice():
    """RULING I-1: every source added up: a Critical Success +1 and a melee attack against a Down target +1."""
    pool = injury_pool(TcModel(down=True), InjuryRoll(critical=True, melee=True))
    assert (pool.dice, pool.net_dice, pool.highest) == (4, 2, True)
    pool = injury_pool(
        TcModel(down=True), InjuryRoll(critical=True, melee=True, blessings_spent=0, injury_dice=-2)
    )
    assert (pool.dice, pool.net_dice, pool.highest) == (2, 0, None)


def test_the_bounds_against_typing_slips_are_themselves_allowed():
    """Not a rule: at most 20 INJURY DICE, 20 modifiers, each at most 20 (`MOST_*`); the bound itself is accepted."""
    assert InjuryRoll(injury_dice=20).injury_dice == 20
    assert InjuryRoll(injury_dice=-20).injury_dice == -20
    assert len(InjuryRoll(modifiers=[1] * 20).modifiers) == 20
    assert InjuryRoll(modifiers=[20, -20]).modifiers == (20, -20)
    with pytest.raises(ValueError, match="injury_dice"):
        InjuryRoll(injury_dice=21)
    with pytest.raises(ValueError, match="at most 20 INJURY MODIFIERS"):
        InjuryRoll(modifiers=[1] * 21)
    with pytest.raises(ValueError, match="an INJURY MODIFIER must be"):
        InjuryRoll(modifiers=[21])
