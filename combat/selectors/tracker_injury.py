"""Reads for a Trench Crusade model's Injury Roll on the board: what the roster knows of its kit, the roll the
players describe, and the exact odds of each result before it is rolled (TC_IN_GAME.md, RULINGS I-1 to I-8).

The odds are the engine's (`rules.injury_odds`, counted, never sampled), worded as the rest of the board's
(`rules.format_odds`). One query at most (the model's Battlekit), whatever the size of the crews.
"""

from __future__ import annotations

from dataclasses import dataclass

from combat import rules
from combat.models import TrackerFighter
from combat.rules import injury_board
from combat.selectors.tracker_state import tracker_tc_model
from rosters.models import Item

# `armour="kit"`: the armour the roster knows for the model; "none": no armour for this roll.
FROM_KIT = "kit"
NO_ARMOUR = "none"
ARMOUR_CHOICES = (FROM_KIT, NO_ARMOUR, *rules.ARMOUR)
RESULT_NAMES = injury_board.RESULT_WORDS


class InjuryInputRefused(ValueError):
    """A roll the engine refuses, with the form field the reason belongs beside (None: the whole form)."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class InjuryInputs:
    """The model as the engine sees it, the roll, its dice pool, and the kit the roster knows."""

    model: rules.TcModel
    roll: rules.InjuryRoll
    pool: rules.InjuryPool
    kit: injury_board.InjuryKit


def model_kit(fighter) -> injury_board.InjuryKit:
    """TOUGH, armour and shield as the roster knows them: keywords, the Battlekit it holds, its profile's Armour."""
    battlekit = list(Item.objects.filter(fighter_id=fighter.pk).values_list("name", "keywords"))
    return injury_board.kit_from(
        keywords=fighter.keywords, profile_armour=fighter.armour, battlekit=battlekit
    )


# The engine's refusals, by the value each names first, beside the form's field they belong to.
_FIELDS = (
    ("blood_spent", "blood_spent"),
    ("blessings_spent", "blessings_spent"),
    ("a Bloodbath", "bloodbath"),
    ("armour", "armour"),
    ("injury_dice", "injury_dice"),
    ("an INJURY MODIFIER", "modifiers"),
    ("at most", "modifiers"),
    ("modifiers", "modifiers"),
)


def injury_inputs(
    target: TrackerFighter, *, armour: str = FROM_KIT, shield: bool | None = None, **given
) -> InjuryInputs:
    """The roll `given` (`rules.InjuryRoll`'s fields but armour and shield) on this model; `armour` "kit" and
    `shield` None take the roster's. Raises `InjuryInputRefused` naming the field."""
    name = target.fighter.name
    if armour not in ARMOUR_CHOICES:
        raise InjuryInputRefused(
            f"Armour is the roster's, none, Standard, Reinforced or Machine Armour: {armour!r} is not one of them.",
            field="armour",
        )
    kit = model_kit(target.fighter)
    worn = kit.armour if armour == FROM_KIT else (None if armour == NO_ARMOUR else armour)
    try:
        model = tracker_tc_model(target)
        roll = rules.InjuryRoll(armour=worn, shield=kit.shield if shield is None else shield, **given)
        return InjuryInputs(model, roll, rules.injury_pool(model, roll), kit)
    except ValueError as error:
        text = str(error)
        field = next((field for prefix, field in _FIELDS if text.startswith(prefix)), None)
        raise InjuryInputRefused(f"No Injury Roll on {name}: {text}.", field=field) from error


@dataclass(frozen=True)
class InjuryPreview:
    """What the form shows before the roll: the pool in words, and each result's chance in plain words."""

    pool: str
    odds: list[tuple[str, str]]
    dice: int


def pool_words(pool: rules.InjuryPool, roll: rules.InjuryRoll) -> str:
    """ "Injury Roll 3D6 keep 2 highest, -2" (RULINGS I-1, I-2)."""
    what = "Bloodbath Roll" if roll.bloodbath else "Injury Roll"
    words = f"{what} {pool.dice}D6"
    if pool.highest is not None:
        words += f" keep {pool.keep} {'highest' if pool.highest else 'lowest'}"
    if pool.modifier:
        words += f", {pool.modifier:+d}"
    return words


def injury_preview(inputs: InjuryInputs) -> InjuryPreview:
    """The exact chance of No Effect, a Minor Hit, Down and Out of Action for exactly this roll, Tough applied."""
    odds = rules.injury_odds(inputs.model, inputs.roll)
    worded = [(RESULT_NAMES[result], rules.format_odds(odds[result])) for result in rules.INJURY_RESULTS]
    return InjuryPreview(pool_words(inputs.pool, inputs.roll), worded, inputs.pool.dice)
