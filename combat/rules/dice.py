"""Dice: the only way randomness enters the rules engine.

Every roll the engine makes goes through a `Dice` object passed in by the caller, and every roll is kept in
that object's `log` with its source, so a result can always be traced back to the dice that made it
(RULING T-7: "Every roll can be made by the server's dice or typed in from physical dice; the engine's dice log
says which").

- `RandomDice` is the server's dice (`secrets.SystemRandom`); its rolls are logged with source `"server"`.
- `ScriptedDice` gives faces typed in from the table (or written in a test), in order; source `"entered"`.

Two readings of dice come from the seed texts:

- 003_37ee4a105d59703a.txt, "Elite Models": "A D66 roll is made by rolling two D6s, one after the other, counting
  the first roll as tens and the second roll as units. For example, if you rolled a 3 followed by a 4, the D66
  roll would be 34." (`d66`, and `d66_from_faces` for two faces already rolled or typed in)
- the D3 of Bitter Lessons (TRAUMA_TABLE.md) is `dice.roll(3)` (`d3`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

__all__ = [
    "Dice",
    "DiceExhausted",
    "FacesRefused",
    "RandomDice",
    "Roll",
    "ScriptedDice",
    "check_faces",
    "d3",
    "d66",
    "d66_from_faces",
    "is_d66",
]

Source = Literal["server", "entered"]


@dataclass(frozen=True, slots=True)
class Roll:
    """One die rolled: how many sides it had, the face it showed, and who rolled it (`"server"` or `"entered"`)."""

    sides: int
    face: int
    source: str


@runtime_checkable
class Dice(Protocol):
    """What the engine needs from dice: `roll(sides)` and a `log` of every roll, in order."""

    log: list[Roll]

    def roll(self, sides: int) -> int: ...


class DiceExhausted(Exception):
    """`ScriptedDice` was asked for a die it has no face for.

    `sides` is the die that was asked for, so a page can ask the player for exactly that ("enter a D6").
    """

    def __init__(self, sides: int, used: int) -> None:
        super().__init__(f"no face left for a D{sides}: all {used} entered faces are used")
        self.sides = sides
        self.used = used


class FacesRefused(ValueError):
    """Faces typed in from the table that the dice asked for cannot show.

    `count` dice of `sides` sides were asked for and `entered` faces given; `face` is the first face refused (a
    face that is not a whole number, or off the die), None when the number of faces is wrong. The message is the
    engine's, e.g. "a D6 shows 1 to 6, got 7"; a page may say it in its own words from these fields.
    """

    def __init__(self, message: str, *, sides: int, count: int, entered: int, face: object = None) -> None:
        super().__init__(message)
        self.sides = sides
        self.count = count
        self.entered = entered
        self.face = face


def _check_sides(sides: object) -> int:
    if type(sides) is not int or sides < 2:
        raise ValueError(f"a die must have 2 sides or more, got {sides!r}")
    return sides


class RandomDice:
    """The server's dice: faces from `secrets.SystemRandom`, logged with source `"server"`.

    Entropy is drawn from the generator 256 bytes at a time and a face made from one byte by rejection (a byte at
    or above the largest multiple of `sides` below 256 is drawn again), so every face is exactly equally likely
    and a roll costs a fraction of `randint`. `rng` is for statistical tests only (a seeded `random.Random` keeps
    them repeatable); production code passes nothing.
    """

    __slots__ = ("log", "_rng", "_buffer", "_next")

    _BUFFER_BYTES = 256

    def __init__(self, rng: random.Random | None = None) -> None:
        self.log: list[Roll] = []
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self._buffer = b""
        self._next = 0

    def roll(self, sides: int) -> int:
        _check_sides(sides)
        if sides > self._BUFFER_BYTES:
            face = self._rng.randint(1, sides)
        else:
            limit = self._BUFFER_BYTES - self._BUFFER_BYTES % sides
            while True:
                if self._next >= len(self._buffer):
                    self._buffer = self._rng.getrandbits(8 * self._BUFFER_BYTES).to_bytes(
                        self._BUFFER_BYTES, "little"
                    )
                    self._next = 0
                byte = self._buffer[self._next]
                self._next += 1
                if byte < limit:
                    break
            face = byte % sides + 1
        self.log.append(Roll(sides, face, "server"))
        return face

    def __repr__(self) -> str:
        return f"RandomDice(rolls={len(self.log)})"


class ScriptedDice:
    """Faces given in advance, used in order: physical dice typed in at the table, or a test's dice.

    Raises `DiceExhausted` when asked for more dice than it was given, and `ValueError` when the next face does
    not fit the die asked for (a 7 for a D6); that face is then not used up, so the caller can correct it.
    """

    __slots__ = ("log", "_faces", "_next", "_source")

    def __init__(self, faces: Iterable[int], *, source: Source = "entered") -> None:
        faces = tuple(faces)
        for face in faces:
            if type(face) is not int:
                raise ValueError(f"a die face must be a whole number, got {face!r}")
        if source not in ("server", "entered"):
            raise ValueError(f"source must be 'server' or 'entered', got {source!r}")
        self.log: list[Roll] = []
        self._faces = faces
        self._next = 0
        self._source = source

    @property
    def remaining(self) -> tuple[int, ...]:
        """The faces not used yet."""
        return self._faces[self._next :]

    def roll(self, sides: int) -> int:
        _check_sides(sides)
        if self._next >= len(self._faces):
            raise DiceExhausted(sides, len(self._faces))
        face = self._faces[self._next]
        if not 1 <= face <= sides:
            raise ValueError(f"a D{sides} shows 1 to {sides}, got {face}")
        self._next += 1
        self.log.append(Roll(sides, face, self._source))
        return face

    def __repr__(self) -> str:
        return f"ScriptedDice(used={self._next}, remaining={self.remaining!r})"


def check_faces(faces: Iterable[object], *, sides: int, count: int) -> tuple[int, ...]:
    """`count` faces of a D`sides` typed in from the table, as `ScriptedDice` would read them, or `FacesRefused`.

    Refused, in this order: a number of faces other than `count`; a face that is not a whole number (the first
    one); a face off the die, below 1 or above `sides` (the first one). The faces are given back as a tuple.
    """
    _check_sides(sides)
    faces = tuple(faces)
    if len(faces) != count:
        raise FacesRefused(
            f"{len(faces)} faces entered for {count} D{sides}", sides=sides, count=count, entered=len(faces)
        )
    for face in faces:
        if type(face) is not int:
            raise FacesRefused(
                f"a die face must be a whole number, got {face!r}",
                sides=sides,
                count=count,
                entered=len(faces),
                face=face,
            )
    for face in faces:
        if not 1 <= face <= sides:
            raise FacesRefused(
                f"a D{sides} shows 1 to {sides}, got {face}",
                sides=sides,
                count=count,
                entered=len(faces),
                face=face,
            )
    return faces


def d66_from_faces(tens: int, units: int) -> int:
    """The D66 result of two D6 faces: the first die the tens, the second the units (11..66, RULING T-3).

    003_37ee4a105d59703a.txt, "Elite Models": "if you rolled a 3 followed by a 4, the D66 roll would be 34".
    A face that is not a whole number from 1 to 6 is refused with a `ValueError` naming the die and the face.
    """
    for die, face in (("tens", tens), ("units", units)):
        if type(face) is not int or not 1 <= face <= 6:
            raise ValueError(f"the {die} die of a D66 shows 1 to 6, got {face!r}")
    return tens * 10 + units


def d66(dice: Dice) -> int:
    """A D66 roll: the first D6 is the tens, the second the units (11..66), read by `d66_from_faces`."""
    tens = dice.roll(6)
    return d66_from_faces(tens, dice.roll(6))


def d3(dice: Dice) -> int:
    """A D3: `dice.roll(3)` (the D3 of Bitter Lessons, TRAUMA_TABLE.md)."""
    return dice.roll(3)


def is_d66(value: object) -> bool:
    """True when `value` is a number a D66 roll can give: two digits, each 1-6."""
    return type(value) is int and 11 <= value <= 66 and 1 <= value % 10 <= 6
