"""The project's rulings (RULINGS.md), one plain sentence each, for the pages' "how this was resolved"
line. Outcomes name the rulings that decided them in their `rulings` field; `ruling(id)` gives the sentence.

RULINGS.md is the authority: a ruling changes only by editing that list, then this one (a test checks that every
D-, A-, H-, T- and I- id of RULINGS.md is here; the campaign's are `campaign.CAMPAIGN_RULINGS`).
"""

from __future__ import annotations

from types import MappingProxyType

__all__ = ["RULINGS", "ruling"]

RULINGS = MappingProxyType(
    {
        "D-1": "Damage is compared with Endurance in the table's order: double or more, then equal or more, then less.",
        "D-2": "Every Harm beyond the Harm Limit that Damage causes is an Injury, on either row of the table.",
        "D-3": "Injuries are applied before Harm; once Injuries reach Health, the rest of the Harm is moot.",
        "D-4": "A model with no Harm Limit never suffers Excess Harm.",
        "D-5": "Damage of 0 does nothing, not even Harm.",
        "D-6": "A Confusion Test is passed with at least one Hit.",
        "D-7": "A model with 2 Fatigue cannot Take Fatigue, so if Confused it must Flee.",
        "D-8": "Injuries reaching Health Incapacitate the model just like the table, with Confusion Tests and "
        "Harsh Lessons.",
        "D-9": "A model that Flees is removed from play but is not Incapacitated: no Confusion, no Trauma Step.",
        "D-10": "Confusion Tests are made one model at a time, in the controlling player's order, each settled "
        "before the next.",
        "D-11": "A crew earns the Harsh Lessons XP the first time one of its Champions is Incapacitated, once per game.",
        "D-12": "Brawl Bonus Dice add up: +1 for charging the Target, +1 per Harm on it, +1 per free Friendly model "
        "Engaged with it.",
        "A-1": "Distance is measured from the closest attacking model that contributed.",
        "A-2": "Damage goes to the closest eligible model first; the defending player orders equally close models.",
        "A-3": "A ranged attack damages at most Target Limit models; damage it cannot place is lost.",
        "A-4": "Damage that does not remove a model goes into the Sustained Damage pool, which removes the next model "
        "once it reaches that model's HP.",
        "A-5": "Shooting damage is assigned when rolled; those models are removed when the shooting engagement ends.",
        "H-1": "A Health Pool removes whole models and carries the lost Health Points left over to later attacks.",
        "H-2": "Losses beyond what the Health Pool has left are ignored.",
        "H-3": "Casualties come from the back rank first, and from each side of a rank in turn.",
        "T-1": "Troops (models without ELITE) roll before any ELITE model.",
        "T-2": "A Troop taken Out of Action rolls a D6: on 1-2 it is removed with all its Battlekit, on 3+ it fights on.",
        "T-3": "An ELITE model rolls D66 (first die tens, second units) on the campaign's Trauma Table.",
        "T-4": "Each time Out of Action an ELITE model gains a Battle Scar (unless the result says no Scar); at its "
        "limit it is Unfit For Duty and its Battlekit goes to the Arsenal.",
        "T-5": "A result the model already has is rolled again; a second Lost an Eye removes it instead.",
        "T-6": "A model removed for any reason but Unfit For Duty loses all its Battlekit.",
        "T-7": "Every roll is made by the server or typed in from physical dice, and the log says which.",
        "T-8": "One Battle Scar per time Out of Action, for the final result; a paid ransom counts as Full Recovery.",
        "T-9": "A fighter that can no longer gain XP gains nothing from Bitter Lessons.",
        "I-1": "The +/- INJURY DICE of every source are added up first (a + and a - cancel); the net number says "
        "how many extra D6 are rolled and whether the highest or the lowest base-count dice are kept.",
        "I-2": "The cap of -3 applies to the negative modifiers together; positive ones are added after it; a "
        "result below 1 is looked up as it is (No Effect).",
        "I-3": "Blood Markers spent on a roll (a Bloodbath's 6, or 3 if Down, included) come off before the result "
        "places new ones; those stop at 6.",
        "I-4": "Down gives 1 Blood Marker and marks the model Down; already Down, 2 instead. A Tough model's first "
        "Out of Action becomes that Down result in full, and Tough is used up for the game. Whether the "
        "target is Down is read before the roll.",
        "I-5": "A Trench Shield adds -1 with Standard or Reinforced Armour or none; Machine Armour with a shield "
        "counts as Machine Armour alone (-3).",
        "I-6": "A Bloodbath may be chosen only when the target has the Blood Markers (6, or 3 if Down); the "
        "attacker may spend more of them for +1 INJURY DICE each.",
        "I-7": "Out of Action places no marker and takes the model out of play for the rest of the game; the end of "
        "the game sends it to the Trauma Step.",
        "I-8": "Every Injury Roll, rolled by the server or typed in, is stored with its dice, the dice kept, the "
        "modifiers and the markers spent.",
    }
)


def ruling(ruling_id: str) -> str:
    """The plain sentence of a ruling id such as `"D-2"` (`ValueError` for an unknown id)."""
    try:
        return RULINGS[ruling_id]
    except KeyError:
        raise ValueError(f"no ruling has the id {ruling_id!r}") from None
