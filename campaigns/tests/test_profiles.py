"""campaigns/profiles.py: each preset's profile, and stats written and read back as the rules write them."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaigns.profiles import (
    DICE,
    FALLOUT_FACTIONS_PROFILE,
    INCHES,
    MILLIMETRES,
    MODIFIER,
    OPTIONAL_NUMBER,
    TRENCH_CRUSADE_PROFILE,
    profile_for,
    profile_of,
    read_value,
    shown,
)
from campaigns.terms import terms_for


def test_trench_crusade_names_movement_ranged_melee_armour_and_base():
    assert TRENCH_CRUSADE_PROFILE.fields == ("movement", "ranged", "melee", "armour", "base_size")
    assert [s.label for s in TRENCH_CRUSADE_PROFILE.stats] == [
        "Movement",
        "Ranged",
        "Melee",
        "Armour",
        "Base",
    ]
    assert TRENCH_CRUSADE_PROFILE.keywords
    assert not TRENCH_CRUSADE_PROFILE.has_endurance  # so the board offers no single-model Damage (seed 000)


def test_fallout_factions_names_its_seven_stats_health_and_harm_limit():
    assert FALLOUT_FACTIONS_PROFILE.fields == (
        "movement",
        "strength",
        "perception",
        "endurance",
        "charisma",
        "intelligence",
        "agility",
        "luck",
        "health",
        "harm_limit",
    )
    assert FALLOUT_FACTIONS_PROFILE.has_endurance
    assert FALLOUT_FACTIONS_PROFILE.form_fields[-1] == "unit_size"


def test_each_preset_and_its_terms_name_the_same_profile():
    assert terms_for("trench_crusade").profile is TRENCH_CRUSADE_PROFILE
    assert terms_for("fallout_factions").profile is FALLOUT_FACTIONS_PROFILE
    assert profile_for(None) is TRENCH_CRUSADE_PROFILE  # the default preset, as terms_for reads it
    assert profile_for("no_such_game") is TRENCH_CRUSADE_PROFILE


@pytest.mark.parametrize(
    ("kind", "value", "written"),
    [
        (DICE, 1, "+1D"),
        (DICE, -2, "-2D"),
        (DICE, 0, "0"),
        (MODIFIER, -1, "-1"),
        (MODIFIER, 1, "+1"),
        (MODIFIER, 0, "0"),
        (INCHES, 6, "6″"),
        (MILLIMETRES, 32, "32mm"),
        (OPTIONAL_NUMBER, None, "—"),
    ],
)
def test_stats_are_written_as_the_rules_write_them(kind, value, written):
    assert shown(kind, value) == written
    assert read_value(kind, written) == value


@pytest.mark.parametrize(
    ("kind", "typed", "value"),
    [
        (DICE, "+1 DICE", 1),
        (DICE, "-1 dice", -1),
        (DICE, "−1D", -1),  # a typeset minus
        (DICE, "1", 1),
        (DICE, "+0D", 0),
        (INCHES, '6"', 6),
        (MILLIMETRES, "40", 40),
        (MODIFIER, " -2 ", -2),
    ],
)
def test_a_player_may_type_them_the_other_ways_the_books_do(kind, typed, value):
    assert read_value(kind, typed) == value


@pytest.mark.parametrize(
    ("kind", "typed"),
    [(DICE, "fast"), (DICE, "1.5D"), (DICE, "+١D"), (MODIFIER, "-1D"), (MILLIMETRES, "25cm"), (DICE, "")],
)
def test_anything_else_is_refused_with_what_was_expected(kind, typed):
    with pytest.raises(ValueError, match="is not|a value is needed"):
        read_value(kind, typed)


@given(st.sampled_from([DICE, MODIFIER, INCHES, MILLIMETRES]), st.integers(min_value=-200, max_value=200))
def test_every_value_reads_back_as_written(kind, value):
    if kind in (INCHES, MILLIMETRES):
        value = abs(value)
    assert read_value(kind, shown(kind, value)) == value


def test_a_fighter_reads_in_its_profile():
    class Fighter:
        movement, ranged, melee, armour, base_size = 6, 1, 0, -1, 25

    assert [(s.short, s.value) for s in profile_of(Fighter(), TRENCH_CRUSADE_PROFILE)] == [
        ("M", "6″"),
        ("R", "+1D"),
        ("Me", "0"),
        ("A", "-1"),
        ("B", "25mm"),
    ]
