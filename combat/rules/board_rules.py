"""Which of the board's rules fit a campaign's fighters, and the Out of Action mark of a board with no Endurance.

The board's single-model Damage is Fallout: Factions' (000_57a9b0f426546aa5.txt, "Damage Resolution": "Compare
Damage inflicted to the target's Endurance"; "Harm", "Injury", "Incapacitation", "Confusion"), and its Attack Test
rolls ten-sided dice against a stat (002_cf7e36258cfc46bf.txt, "Brawl"; the RULINGS' facts on Tests). A fighter
whose profile has no Endurance (Trench Crusade's: Movement, Ranged, Melee, Armour, base) cannot go through that
table, so the board offers what fits it:

- a unit's Health Pool (004_f1b12ae0536a0785.txt) and Damage Allocation (001_8912faabee9c9754.txt), which count
  Health Points and distances, not Endurance;
- the Out of Action mark: 003_37ee4a105d59703a.txt, "Trauma Step": "find out what happened to models that were
  taken Out of Action during the game. If the model is ELITE this determines what Injuries they sustained. For
  other models this determines whether or not they die from their wounds." The Injury is rolled at the table;
  the board keeps who was taken Out of Action, for that step.
"""

from __future__ import annotations

from dataclasses import dataclass

from .injury import INJURY_DICE_BASE

__all__ = [
    "NO_ENDURANCE_BOARD",
    "BoardRules",
    "attack_test_refused",
    "confusion_refused",
    "board_rules",
    "explain_back_in_play",
    "explain_out_of_action",
    "single_model_damage_refused",
]

# The board's one sentence on why the rest is absent (docs/architecture.md: "Show the rule"). These sentences reach
# players, so they name the rules as a player knows them (Fallout: Factions' Damage from seed 000, its Attack Test
# from seed 002, the Trauma Step from seed 003, the Injury Roll from TC_IN_GAME.md), never the project's file
# numbers.
NO_ENDURANCE_BOARD = (
    "Single-model Damage against Endurance (Harm, Injuries, Fatigue, Confusion and the Attack Test) is Fallout: "
    "Factions' rule, and these fighters have no Endurance: make each Injury Roll on the model's card (a Minor Hit, "
    "Down or Out of Action), and those taken Out of Action go to the Trauma Step after the game."
)


@dataclass(frozen=True, slots=True)
class BoardRules:
    """What the board offers a campaign's fighters.

    `single_model_damage`: the Damage table against Endurance with Harm, Injuries, Fatigue, Confusion and the
    Attack Test (seeds 000, 002). `out_of_action_marks`: a single model marked Out of Action by a tap (seed 003).
    `unit_damage`: a unit's Health Pool and Damage Allocation (seeds 004, 001), which fit every profile.
    `attack_test`: the Attack Test of ten-sided dice against a stat (seed 002), which needs Fallout: Factions'
    stats; without them the Damage counted at the table is typed in."""

    single_model_damage: bool
    out_of_action_marks: bool
    unit_damage: bool = True
    attack_test: bool = True

    @property
    def why_absent(self) -> str:
        """The sentence the board shows when single-model Damage is absent ("" when it is offered)."""
        return "" if self.single_model_damage else NO_ENDURANCE_BOARD

    @property
    def injury_dice(self) -> tuple[int, ...]:
        """The dice of an Injury Roll with nothing special, numbered from 1 (TC_IN_GAME.md: "roll 2D6"), for the
        faces typed on a Trench Crusade model's card; none on a board whose fighters have Endurance."""
        return tuple(range(1, INJURY_DICE_BASE + 1)) if self.out_of_action_marks else ()


def board_rules(*, has_endurance: bool) -> BoardRules:
    """The board's rules for a profile with (Fallout: Factions) or without (Trench Crusade) Endurance."""
    if type(has_endurance) is not bool:
        raise ValueError(f"has_endurance is True or False, not {has_endurance!r}")
    return BoardRules(
        single_model_damage=has_endurance, out_of_action_marks=not has_endurance, attack_test=has_endurance
    )


def attack_test_refused() -> str:
    """Why the Attack Test is refused on a board whose fighters have no Endurance (nor the stats it tests)."""
    return (
        "The Attack Test rolls ten-sided dice against a Fallout: Factions stat, which these fighters "
        "do not have: type the Damage counted at the table instead."
    )


def single_model_damage_refused(name: str) -> str:
    """Why a single-model Damage action (Damage, an Attack Test, Harm, an Injury, Fatigue, Confusion) is refused on
    a board whose fighters have no Endurance."""
    return (
        f"{name} has no Endurance: single-model Damage against Endurance is Fallout: Factions' rule. "
        "Roll the Injury at the table and mark the fighter Out of Action on the board."
    )


def explain_out_of_action(name: str, *, elite: bool) -> str:
    """The sentence of a fighter marked Out of Action, with what the Trauma Step rolls for it (seed 003)."""
    then = (
        "a D66 on the Trauma Table in the Trauma Step" if elite else "a Survival Roll (D6) in the Trauma Step"
    )
    return f"{name} is taken Out of Action and removed from play; after the game: {then}."


def explain_back_in_play(name: str) -> str:
    """The sentence of an Out of Action mark taken back (marked by mistake): no Trauma Step for it."""
    return f"{name} is back in play: the Out of Action mark is taken back, so no Trauma Step for it."


def confusion_refused() -> str:
    """Why a Confusion step is refused there: it follows an Incapacitation, which only Damage against Endurance
    makes (000 "Confusion"); Undo takes back what set it off."""
    return (
        "Confusion Tests follow an Incapacitation by Damage against Endurance, Fallout: Factions' rule, "
        "and these fighters have no Endurance: undo what set them off."
    )
