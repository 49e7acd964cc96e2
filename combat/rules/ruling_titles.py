"""Each ruling's name in the rules' own words, and the rules text it reads, for the rules page and the links that
replace "RULING T-4" on the pages players see (no internal id shown to a player).

RULINGS.md is the authority for the rulings themselves (`rulings.py`, `campaign.py` hold their sentences); this
module only names them. A test checks that every ruling has a name and a source.
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = ["RULING_SOURCES", "RULING_TITLES", "ruling_source", "ruling_title"]

# The rules texts the rulings read, by the letter their ids start with, named as a player knows them.
RULING_SOURCES = MappingProxyType(
    {
        "D": "Fallout: Factions, Damage and Brawl",
        "A": "Damage Allocation",
        "H": "The Ninth Age, Health Pools and Casualties",
        "T": "Trench Crusade, the Trauma Step",
        "C": "Trench Crusade, Threshold Value and Field Strength",
        "P": "Trench Crusade, Promotions",
        "X": "Trench Crusade, Experience and Skill Advancement",
        "E": "Trench Crusade, Exploration",
        "W": "Trench Crusade, campaign stages and standings",
        "I": "Trench Crusade, Injury Rolls",
    }
)

RULING_TITLES = MappingProxyType(
    {
        "D-1": "the Damage table's order",
        "D-2": "Excess Harm",
        "D-3": "Injuries before Harm",
        "D-4": "no Harm Limit",
        "D-5": "Damage of 0",
        "D-6": "passing a Confusion Test",
        "D-7": "Exhausted and Confused",
        "D-8": "Incapacitated by Injuries",
        "D-9": "Fleeing is not Incapacitation",
        "D-10": "Confusion Tests one at a time",
        "D-11": "Harsh Lessons once a game",
        "D-12": "Brawl Bonus Dice",
        "A-1": "measuring distance",
        "A-2": "closest model first",
        "A-3": "the Target Limit",
        "A-4": "the Sustained Damage pool",
        "A-5": "the timing of shooting damage",
        "H-1": "lost Health Points carried over",
        "H-2": "losses beyond the pool",
        "H-3": "which models are removed",
        "T-1": "Troops roll first",
        "T-2": "a Troop's Survival Roll",
        "T-3": "the D66 on the Trauma Table",
        "T-4": "Battle Scars and Unfit For Duty",
        "T-5": "a result it already has",
        "T-6": "Battlekit of a fighter removed",
        "T-7": "server dice or table dice",
        "T-8": "one Scar per Out of Action; a paid ransom",
        "T-9": "Bitter Lessons without XP gain",
        "C-1": "Threshold Value and Field Strength",
        "C-2": "a warband's value",
        "C-3": "selling",
        "C-4": "Reinforcements",
        "P-1": "the Promotion Pool",
        "P-2": "assigning Promotion Dice",
        "P-3": "rolling Promotion Dice",
        "P-4": "five failures in a row",
        "P-5": "six ELITE models",
        "P-6": "a Head-Wounded ELITE model's Promotion Dice",
        "P-7": "a promoted model",
        "X-1": "Skill Advancement Rolls due",
        "X-2": "Limited Potential",
        "X-4": "Experience from a battle",
        "X-3": "a skill it already knows",
        "E-1": "battles fought",
        "E-2": "the winner's reroll",
        "E-3": "the Exploration Score and loot",
        "E-4": "finding a Location",
        "W-1": "campaign stages",
        "W-2": "the standings",
        "I-1": "INJURY DICE",
        "I-2": "INJURY MODIFIERS",
        "I-3": "spent and placed Blood Markers",
        "I-4": "Down and Tough",
        "I-5": "armour and shield",
        "I-6": "Bloodbath Rolls",
        "I-7": "Out of Action in play",
        "I-8": "every Injury Roll stored",
    }
)


def ruling_title(ruling_id: str) -> str:
    """The name of a ruling such as `"T-4"` ("Battle Scars and Unfit For Duty"); `ValueError` for an unknown id."""
    try:
        return RULING_TITLES[ruling_id]
    except KeyError:
        raise ValueError(f"no ruling has the id {ruling_id!r}") from None


def ruling_source(ruling_id: str) -> str:
    """The rules text a ruling reads, named as a player knows it; `ValueError` for an unknown id."""
    ruling_title(ruling_id)
    # Every ruling id is one letter, a dash and a number (RULINGS.md): the letter names the rules text.
    return RULING_SOURCES[ruling_id[0]]
