"""The demo campaign's own price list (`manage.py load_demo`): the fighter types and Battlekit its two warbands are
recruited with, so every demo fighter and piece costs what the campaign's list says and the warbands have a value.

The prices are MADE UP for the demo, not the published ones (the project ships no official list:
rosters/price_lists.py): a group keeps its own list on the campaign's price list pages. The names are the demo
warbands' own (combat/management/commands/load_demo.py), as the demo's campaign data flags them
(combat/demo_campaign_data.py). The demo's organiser saves them as the second version of each list, after the
made-up demo list the project ships (`DEMO_ROWS`), so the list the warbands buy from also offers its rows.

Each fighter type carries the profile its fighters start with (movement, health, Harm Limit, keywords: ELITE marks
the types recruited as ELITE, RULING T-1), as a recruit from the list starts with it (rosters/services/recruit.py).
"""

from __future__ import annotations

from rosters.price_lists import BATTLEKIT, DEMO_ROWS, FIGHTERS


def _type(
    name: str, cost: int, *keywords: str, movement: int = 6, health: int = 1, harm_limit: int | None = 3
):
    return {
        "name": name,
        "cost": cost,
        "keywords": list(keywords),
        "movement": movement,
        "health": health,
        "harm_limit": harm_limit,
    }


def _kit(name: str, cost: int, *keywords: str) -> dict:
    return {"name": name, "cost": cost, "keywords": list(keywords), "removable": True}


FIGHTER_TYPES = [
    # The Trench Pilgrims of the Iron Sepulchre.
    _type("War Prophet", 70, "ELITE"),
    _type("Castigator", 45, "ELITE"),
    _type("Communicant", 55, "ELITE", health=2),
    _type("Anchorite Shrine", 60, "TOUGH", movement=5, health=3, harm_limit=None),
    _type("Stigmatic Nun", 20, movement=7),
    _type("Trench Pilgrim", 15),
    # The Grey Legion of Heretics.
    _type("Heretic Priest", 90, "ELITE"),
    _type("Heretic Chorister", 65, "ELITE"),
    _type("Heretic Death Commando", 80, "ELITE", movement=7),
    _type("Heretic Trooper", 30),
]

BATTLEKIT_ROWS = [
    _kit("Anti-Tank Hammer", 20, "HEAVY", "TWO-HANDED"),
    _kit("Assassin's Blade", 15),
    _kit("Blasphemous Tome", 40),
    _kit("Blessed Blade", 5),
    _kit("Bolt Action Rifle", 10),
    _kit("Censer of Judgement", 25, "TWO-HANDED"),
    _kit("Gas Mask", 5),
    _kit("Great Hammer", 15, "HEAVY", "TWO-HANDED"),
    _kit("Holy Icon", 10),
    _kit("Incendiary Grenades", 10, "GRENADE"),
    _kit("Infernal Brand", 30),
    _kit("Jezzail", 15, "TWO-HANDED"),
    _kit("Machine Gun", 50, "HEAVY"),
    _kit("Reinforced Armour", 25),
    _kit("Sacrificial Knife", 5),
    _kit("Shotgun", 10),
    _kit("Shrine Flamer", 15, "HEAVY"),
    _kit("Silenced Pistol", 20),
    _kit("Standard Armour", 15),
    _kit("Tartarus Bible", 20),
    _kit("Trench Club", 5),
    _kit("Trench Shield", 5),
]

NOTE = "The Long Trench's own prices for its warbands (made up for the demo)"


def the_long_trench_rows() -> dict[str, list[dict]]:
    """Each kind's rows as the demo's organiser saves them: the shipped demo list's rows, then the demo warbands'."""
    return {
        FIGHTERS: [*DEMO_ROWS[FIGHTERS], *FIGHTER_TYPES],
        BATTLEKIT: [*DEMO_ROWS[BATTLEKIT], *BATTLEKIT_ROWS],
    }
