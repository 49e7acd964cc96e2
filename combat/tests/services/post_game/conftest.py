"""The post-game every service test starts from: three of the player's fighters taken Out of Action in Game 1."""

import pytest

from combat.tests.post_game_helpers import game_with
from rosters.models import Item


@pytest.fixture
def fighters(warband, make_fighter):
    """Three of the player's fighters: a Troop and two ELITE, with Battlekit."""
    troop = make_fighter(warband, "Yeoman Kell", fighter_type="Yeoman")
    marcus = make_fighter(warband, "Brother Marcus", elite=True, fighter_type="Trench Cleric", xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, fighter_type="War Prophet", xp=5, battle_scars=2)
    for fighter, name, extra in [
        (troop, "Rifle", {}),
        (marcus, "Trench Club", {}),
        (marcus, "Reliquary", {"removable": False}),
        (ada, "Heavy Flamer", {"keywords": ["HEAVY"]}),
        (ada, "Shield", {}),
        (ada, "Blessed Icon", {"removable": False}),
    ]:
        Item.objects.create(warband=warband, fighter=fighter, name=name, **extra)
    return {"troop": troop, "marcus": marcus, "ada": ada}


@pytest.fixture
def after(campaign, warband, rival_warband, fighters):
    return game_with(list(fighters.values()), campaign=campaign, warband=warband, rival_warband=rival_warband)
