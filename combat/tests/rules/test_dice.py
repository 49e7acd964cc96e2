"""Tests for combat/rules/dice.py: the Dice protocol, RandomDice, ScriptedDice, d66, d3."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat.rules import (
    Dice,
    DiceExhausted,
    FacesRefused,
    RandomDice,
    Roll,
    ScriptedDice,
    check_faces,
    d3,
    d66,
    d66_from_faces,
    is_d66,
)


def test_d66_reads_a_3_then_a_4_as_34():
    # 003_37ee4a105d59703a.txt, "Elite Models": "if you rolled a 3 followed by a 4, the D66 roll would be 34".
    dice = ScriptedDice([3, 4])
    assert d66(dice) == 34
    assert dice.log == [Roll(6, 3, "entered"), Roll(6, 4, "entered")]


def test_d66_gives_the_36_results_from_11_to_66():
    results = {d66(ScriptedDice([tens, units])) for tens in range(1, 7) for units in range(1, 7)}
    assert len(results) == 36
    assert min(results) == 11
    assert max(results) == 66
    assert all(is_d66(result) for result in results)
    assert not any(is_d66(number) for number in (10, 17, 20, 67, 70, 0, True))


def test_d3_rolls_a_three_sided_die():
    dice = ScriptedDice([2])
    assert d3(dice) == 2
    assert dice.log == [Roll(3, 2, "entered")]


def test_scripted_dice_give_their_faces_in_order():
    dice = ScriptedDice([5, 1, 10])
    assert [dice.roll(6), dice.roll(6), dice.roll(10)] == [5, 1, 10]
    assert [roll.face for roll in dice.log] == [5, 1, 10]
    assert dice.remaining == ()


def test_scripted_dice_raise_dice_exhausted_naming_the_die_asked_for():
    dice = ScriptedDice([4])
    dice.roll(6)
    with pytest.raises(DiceExhausted, match="D6") as raised:
        dice.roll(6)
    assert raised.value.sides == 6


def test_scripted_dice_refuse_a_d6_face_of_7_and_keep_it_unused():
    dice = ScriptedDice([7, 3])
    with pytest.raises(ValueError, match="got 7"):
        dice.roll(6)
    assert dice.log == []
    assert dice.remaining == (7, 3)
    assert dice.roll(10) == 7  # the same face fits a D10


@pytest.mark.parametrize("face", [0, -1])
def test_scripted_dice_refuse_a_face_below_1(face):
    with pytest.raises(ValueError, match=f"got {face}"):
        ScriptedDice([face]).roll(6)


@pytest.mark.parametrize("face", ["3", 2.5, None])
def test_scripted_dice_refuse_a_face_that_is_not_a_whole_number(face):
    with pytest.raises(ValueError, match=repr(face).replace(".", r"\.")):
        ScriptedDice([face])


@pytest.mark.parametrize("sides", [1, 0, -6, 6.0])
def test_a_die_needs_two_sides_or_more(sides):
    with pytest.raises(ValueError, match=f"got {sides}"):
        RandomDice().roll(sides)
    with pytest.raises(ValueError, match=f"got {sides}"):
        ScriptedDice([1]).roll(sides)


def test_random_dice_log_every_roll_as_server():
    dice = RandomDice()
    faces = [dice.roll(sides) for sides in (3, 6, 10, 6)]
    assert [roll.face for roll in dice.log] == faces
    assert [roll.sides for roll in dice.log] == [3, 6, 10, 6]
    assert {roll.source for roll in dice.log} == {"server"}
    assert all(1 <= roll.face <= roll.sides for roll in dice.log)


def test_random_dice_faces_are_evenly_spread():
    # A fixed seed keeps the check repeatable; chi-square for a D6 with 5 degrees of freedom, 0.1% level: 20.5.
    dice = RandomDice(random.Random(2024))
    rolls = 12_000
    counts = [0] * 6
    for _ in range(rolls):
        counts[dice.roll(6) - 1] += 1
    expected = rolls / 6
    assert sum((count - expected) ** 2 / expected for count in counts) < 20.5


def test_random_dice_handle_dice_bigger_than_a_byte():
    dice = RandomDice(random.Random(1))
    assert all(1 <= dice.roll(1000) <= 1000 for _ in range(50))


def test_both_dice_meet_the_dice_protocol():
    assert isinstance(RandomDice(), Dice)
    assert isinstance(ScriptedDice([]), Dice)


def test_entered_source_can_be_server_for_replayed_server_rolls():
    dice = ScriptedDice([6], source="server")
    dice.roll(6)
    assert dice.log == [Roll(6, 6, "server")]
    with pytest.raises(ValueError, match="'table'"):
        ScriptedDice([6], source="table")


@given(st.lists(st.integers(1, 6), max_size=20))
def test_the_same_scripted_dice_always_give_the_same_rolls(faces):
    first, second = ScriptedDice(faces), ScriptedDice(faces)
    assert [first.roll(6) for _ in faces] == [second.roll(6) for _ in faces] == faces
    assert first.log == second.log


def test_d66_from_faces_reads_the_first_die_as_the_tens():
    # 003_37ee4a105d59703a.txt, "Elite Models": "if you rolled a 3 followed by a 4, the D66 roll would be 34";
    # RULING T-3: the first die the tens, the second the units.
    assert d66_from_faces(3, 4) == 34
    assert d66_from_faces(4, 3) == 43
    assert {d66_from_faces(tens, units) for tens in range(1, 7) for units in range(1, 7)} == {
        value for value in range(11, 67) if is_d66(value)
    }


@pytest.mark.parametrize(
    ("tens", "units", "named"),
    [
        (7, 1, "tens die .* got 7"),
        (0, 3, "tens die .* got 0"),
        (2, 9, "units die .* got 9"),
        (3, "4", "units die .* got '4'"),
        (True, 1, "tens die .* got True"),
    ],
)
def test_d66_from_faces_refuses_a_face_a_d6_cannot_show_naming_it(tens, units, named):
    with pytest.raises(ValueError, match=named):
        d66_from_faces(tens, units)


@given(st.integers(1, 6), st.integers(1, 6))
def test_d66_rolled_is_d66_from_the_faces_it_rolled(tens, units):
    dice = ScriptedDice([tens, units])
    assert d66(dice) == d66_from_faces(*(roll.face for roll in dice.log))


def test_check_faces_gives_back_faces_a_die_can_show():
    assert check_faces([3, 4], sides=6, count=2) == (3, 4)


@pytest.mark.parametrize("faces", [[], [3], [3, 4, 5]])
def test_check_faces_refuses_the_wrong_number_of_faces(faces):
    with pytest.raises(FacesRefused, match=f"{len(faces)} faces entered for 2 D6") as refused:
        check_faces(faces, sides=6, count=2)
    assert (refused.value.entered, refused.value.count, refused.value.face) == (len(faces), 2, None)


@pytest.mark.parametrize("face", [0, 7, -1])
def test_check_faces_refuses_a_face_off_the_die_naming_it(face):
    with pytest.raises(FacesRefused, match=f"a D6 shows 1 to 6, got {face}") as refused:
        check_faces([3, face], sides=6, count=2)
    assert (refused.value.face, refused.value.sides) == (face, 6)


@pytest.mark.parametrize("face", ["4", 4.0, None, True])
def test_check_faces_refuses_a_face_that_is_not_a_whole_number_before_any_face_off_the_die(face):
    with pytest.raises(FacesRefused, match="a die face must be a whole number") as refused:
        check_faces([9, face], sides=6, count=2)
    assert refused.value.face is face


@given(st.lists(st.integers(min_value=1, max_value=10), min_size=1, max_size=5))
def test_check_faces_accepts_what_scripted_dice_read(faces):
    dice = ScriptedDice(check_faces(faces, sides=10, count=len(faces)))
    assert [dice.roll(10) for _ in faces] == faces


@pytest.mark.parametrize(
    ("faces", "told"),
    [
        ([3], (6, 2, 1, None)),  # too few: the count entered
        ([3, 2.5], (6, 2, 2, 2.5)),  # not a whole number: that face
        ([3, 7], (6, 2, 2, 7)),  # off the die: that face
    ],
)
def test_refused_faces_carry_the_die_the_count_and_what_was_entered(faces, told):
    """What a form shows beside the field: the die and how many were asked, how many were typed, the face refused."""
    with pytest.raises(FacesRefused) as refused:
        check_faces(faces, sides=6, count=2)
    error = refused.value
    assert (error.sides, error.count, error.entered, error.face) == told
