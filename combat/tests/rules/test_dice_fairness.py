"""The server's dice turn entropy into faces exactly as `RandomDice` says: one byte per face, rejection above
the largest multiple of the die, nothing skipped (docs/engine.md, `dice.py`)."""

import random

import pytest

from combat.rules import DiceExhausted, RandomDice, ScriptedDice, is_d66


class CountingBytes:
    """Entropy that is the bytes 0, 1, ..., 255 in order on every draw; `randint` gives its lowest value."""

    def __init__(self):
        self.draws = 0

    def getrandbits(self, bits):
        self.draws += 1
        return int.from_bytes(bytes(range(bits // 8)), "little")

    def randint(self, low, high):
        return low


def test_every_byte_below_252_gives_a_d6_face_in_turn_and_252_to_255_are_drawn_again():
    entropy = CountingBytes()
    dice = RandomDice(rng=entropy)
    faces = [dice.roll(6) for _ in range(260)]
    assert faces == [byte % 6 + 1 for byte in range(252)] + [byte % 6 + 1 for byte in range(8)]
    assert entropy.draws == 2


def test_a_die_of_256_sides_is_made_from_bytes_and_a_bigger_one_from_randint():
    entropy = CountingBytes()
    assert [RandomDice(rng=entropy).roll(256) for _ in range(2)] == [1, 1]
    dice = RandomDice(rng=entropy)
    assert [dice.roll(256) for _ in range(3)] == [1, 2, 3]
    assert RandomDice(rng=entropy).roll(257) == 1


def test_a_seeded_generator_gives_repeatable_rolls():
    first = RandomDice(rng=random.Random(7))
    second = RandomDice(rng=random.Random(7))
    assert [first.roll(6) for _ in range(50)] == [second.roll(6) for _ in range(50)]


def test_a_two_sided_die_is_a_die():
    dice = ScriptedDice([1, 2])
    assert [dice.roll(2), dice.roll(2)] == [1, 2]
    with pytest.raises(ValueError, match="^a die must have 2 sides or more, got 1$"):
        dice.roll(1)


def test_dice_exhausted_says_which_die_and_how_many_faces_were_used():
    dice = ScriptedDice([4, 2])
    dice.roll(6)
    dice.roll(6)
    with pytest.raises(DiceExhausted) as exhausted:
        dice.roll(3)
    assert (exhausted.value.sides, exhausted.value.used, str(exhausted.value)) == (
        3,
        2,
        "no face left for a D3: all 2 entered faces are used",
    )


def test_is_d66_takes_only_two_digits_of_1_to_6():
    assert [value for value in range(100) if is_d66(value)] == [
        tens * 10 + units for tens in range(1, 7) for units in range(1, 7)
    ]
