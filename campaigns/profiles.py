"""The fighter profile each preset names: which stats a fighter has, in which order, and how each is written.

Trench Crusade writes a model as Movement (inches), Ranged and Melee (dice added to or taken from the Success
Roll: "+1 DICE", shown "+1D"), Armour (a modifier to Injury Rolls against it, "-1") and its base (in mm), with its
Keywords; Fallout: Factions writes the seven S.P.E.C.I.A.L. stats, Health (the Injuries that Incapacitate it,
seed 000) and the Harm Limit. One preset per campaign decides (`terms_for(preset).profile`).

The numbers a stat may hold are not restated here: they live on the Fighter's fields (rosters/models/limits.py),
which the forms and the import read. This module only names the fields and writes and reads their values the way
the rules do, so `read_value(stat.kind, shown(stat.kind, value)) == value` for every value a field keeps.

    {% for stat in fighter|profile:terms %}<abbr title="{{ stat.label }}">{{ stat.short }}</abbr> {{ stat.value }}{% endfor %}
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER = "number"  # 5
OPTIONAL_NUMBER = "optional_number"  # 3, or none (no Harm Limit, RULING D-4)
INCHES = "inches"  # 6″
DICE = "dice"  # +1D, -1D, 0
MODIFIER = "modifier"  # -1, +1, 0
MILLIMETRES = "mm"  # 25mm

NONE_SHOWN = "—"
_DICE = re.compile(r"^([+-]?)([0-9]+)\s*(?:d|dice)?$", re.IGNORECASE)
_MODIFIER = re.compile(r"^([+-]?)([0-9]+)$")
_LENGTH = {
    INCHES: re.compile(r'^([0-9]+)\s*(?:″|"|in|inches)?$'),
    MILLIMETRES: re.compile(r"^([0-9]+)\s*(?:mm)?$"),
}


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def shown(kind: str, value: int | None) -> str:
    """A stat's value written as the rules write it."""
    if value is None:
        return NONE_SHOWN
    if kind == DICE:
        return f"{_signed(value)}D" if value else "0"
    if kind == MODIFIER:
        return _signed(value)
    if kind == INCHES:
        return f"{value}″"
    if kind == MILLIMETRES:
        return f"{value}mm"
    return str(value)


def read_value(kind: str, text: str | int | None) -> int | None:
    """The number a written stat stands for ("+1D" -> 1, "-1 DICE" -> -1, '6"' -> 6, "32mm" -> 32); an empty
    value is None; anything else raises ValueError, which names what was expected."""
    if text is None or isinstance(text, bool):
        raise ValueError("a value is needed")
    if isinstance(text, int):
        return text
    words = text.strip().replace("−", "-")  # a typeset minus reads as a minus
    if not words or words == NONE_SHOWN:
        if kind == OPTIONAL_NUMBER:
            return None
        raise ValueError("a value is needed")
    if kind in _LENGTH:
        match = _LENGTH[kind].match(words)
    else:
        match = (_DICE if kind == DICE else _MODIFIER).match(words)
    if match is None:
        raise ValueError(f"{text!r} is not {EXPECTED[kind]}")
    if kind in _LENGTH:
        return int(match.group(1))
    sign, number = match.groups()[:2]
    return -int(number) if sign == "-" else int(number)


EXPECTED = {
    NUMBER: "a whole number",
    OPTIONAL_NUMBER: "a whole number or empty",
    INCHES: 'inches, such as 6"',
    DICE: "dice, such as +1D, -1D or 0",
    MODIFIER: "a modifier, such as -1, +1 or 0",
    MILLIMETRES: "a base size in mm, such as 25mm",
}


@dataclass(frozen=True)
class ProfileStat:
    field: str  # the Fighter field that keeps it
    label: str
    short: str
    kind: str = NUMBER

    def shown(self, value: int | None) -> str:
        return shown(self.kind, value)


@dataclass(frozen=True)
class Profile:
    preset: str
    stats: tuple[ProfileStat, ...]
    # Fields a fighter of every preset keeps beyond its profile: a unit's models share one Health Pool of each
    # model's Health Points (seed 004), which the board's Health Pool and Damage Allocation use.
    unit_fields: tuple[str, ...]
    # The profile names the fighter's keywords (Trench Crusade's ELITE, ...); they are kept and shown everywhere.
    keywords: bool = True

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(stat.field for stat in self.stats)

    @property
    def form_fields(self) -> tuple[str, ...]:
        return (*self.fields, *(name for name in self.unit_fields if name not in self.fields))

    @property
    def has_endurance(self) -> bool:
        """Whether the single-model Damage rules of Fallout: Factions (seed 000: Damage against Endurance, Harm,
        the Harm Limit, Injuries up to Health) fit this profile."""
        return "endurance" in self.fields

    def stat(self, field: str) -> ProfileStat | None:
        return next((stat for stat in self.stats if stat.field == field), None)


TRENCH_CRUSADE_PROFILE = Profile(
    preset="trench_crusade",
    stats=(
        ProfileStat("movement", "Movement", "M", INCHES),
        ProfileStat("ranged", "Ranged", "R", DICE),
        ProfileStat("melee", "Melee", "Me", DICE),
        ProfileStat("armour", "Armour", "A", MODIFIER),
        ProfileStat("base_size", "Base", "B", MILLIMETRES),
    ),
    unit_fields=("health", "unit_size"),
)
FALLOUT_FACTIONS_PROFILE = Profile(
    preset="fallout_factions",
    stats=(
        ProfileStat("movement", "Movement", "M", INCHES),
        ProfileStat("strength", "Strength", "S"),
        ProfileStat("perception", "Perception", "P"),
        ProfileStat("endurance", "Endurance", "E"),
        ProfileStat("charisma", "Charisma", "C"),
        ProfileStat("intelligence", "Intelligence", "I"),
        ProfileStat("agility", "Agility", "A"),
        ProfileStat("luck", "Luck", "L"),
        ProfileStat("health", "Health", "H"),
        ProfileStat("harm_limit", "Harm Limit", "HL", OPTIONAL_NUMBER),
    ),
    unit_fields=("unit_size",),
)


@dataclass(frozen=True)
class ShownStat:
    label: str
    short: str
    value: str  # as the rules write it


def profile_of(fighter, profile: Profile) -> list[ShownStat]:
    """A fighter's stats in its campaign's profile, written as the rules write them (any object with the fields)."""
    return [
        ShownStat(label=stat.label, short=stat.short, value=stat.shown(getattr(fighter, stat.field, None)))
        for stat in profile.stats
    ]


PROFILES = {profile.preset: profile for profile in (TRENCH_CRUSADE_PROFILE, FALLOUT_FACTIONS_PROFILE)}
# Every stat any preset names, once, in the first order met: an export carries them all, so nothing is lost when
# a warband moves between presets.
ALL_STATS = tuple({stat.field: stat for p in PROFILES.values() for stat in p.stats}.values())


def profile_for(preset: str | None) -> Profile:
    """The preset's profile; an unknown or empty preset reads as Trench Crusade, the default (as terms_for)."""
    return PROFILES.get(preset or "trench_crusade", TRENCH_CRUSADE_PROFILE)
