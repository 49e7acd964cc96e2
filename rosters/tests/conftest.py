"""Fixtures for the roster and campaign page tests: a small campaign world and valid form data."""

import datetime
from types import SimpleNamespace

import pytest

from rosters.services import battlekit as battlekit_services
from rosters.services import games as game_services
from rosters.services import injuries as injury_services
from rosters.services import warbands as warband_services
from rosters.services.games import GameEntry


def fighter_data(**changes) -> dict:
    """Valid fighter form data (a Trench Crusade Troop), with `changes` applied."""
    data = {
        "name": "Pilgrim Odo",
        "fighter_type": "Trench Pilgrim",
        "keywords": "PILGRIM",
        "strength": 5,
        "perception": 5,
        "endurance": 5,
        "charisma": 5,
        "intelligence": 5,
        "agility": 5,
        "luck": 5,
        "health": 1,
        "harm_limit": 3,
        "movement": 6,
        "unit_size": 1,
        "xp": 0,
        "battle_scars": 0,
        "can_gain_xp": "on",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.fixture
def world(campaign, organiser, player, player2, warband, rival_warband, make_fighter):
    """The player's warband and player2's rival warband, each with a fighter, Battlekit, an Injury and a removed
    fighter; a game they played against each other; and a game player2 played against the organiser."""
    anselm = make_fighter(warband, "Brother Anselm", elite=True, xp=3)
    heretic = make_fighter(rival_warband, "Heretic Priest", elite=True, xp=2)
    fallen = make_fighter(warband, "Fallen Pilgrim", status="dead")
    rival_fallen = make_fighter(rival_warband, "Fallen Heretic", status="dead")
    sword = battlekit_services.item_create(warband=warband, fighter=anselm, name="Trench Sword", by=player)
    relic = battlekit_services.item_create(warband=warband, name="Holy Relic", by=player)
    rival_item = battlekit_services.item_create(
        warband=rival_warband, fighter=heretic, name="Hellblade", by=player2
    )
    injury = injury_services.injury_add(fighter=anselm, code="hand_wound", name="Hand Wound", by=player)
    rival_injury = injury_services.injury_add(
        fighter=heretic, code="chest_wound", name="Chest Wound", by=player2
    )
    game = game_services.game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2025, 3, 1),
        entries=[GameEntry(warband, "win", [anselm]), GameEntry(rival_warband, "loss")],
    )
    organisers_band = warband_services.warband_create(
        campaign=campaign, owner=organiser, name="Ecclesiastic Guard", by=organiser
    )
    other_game = game_services.game_record(
        campaign=campaign,
        by=player2,
        played_on=datetime.date(2025, 3, 8),
        entries=[GameEntry(rival_warband, "draw"), GameEntry(organisers_band, "draw")],
    )
    return SimpleNamespace(
        campaign=campaign,
        warband=warband,
        rival=rival_warband,
        organisers_band=organisers_band,
        anselm=anselm,
        heretic=heretic,
        fallen=fallen,
        rival_fallen=rival_fallen,
        sword=sword,
        relic=relic,
        rival_item=rival_item,
        injury=injury,
        rival_injury=rival_injury,
        game=game,
        other_game=other_game,
    )
