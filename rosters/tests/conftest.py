"""Fixtures for the roster and campaign page tests: a small campaign world and valid form data."""

import datetime
from types import SimpleNamespace

import pytest

from campaigns.models import Campaign, Membership
from rosters.models import Fighter, Injury, Item, Warband
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services import injuries as injury_services
from rosters.services import warbands as warband_services
from rosters.services.games import GameEntry


def preset_for(*fields: str) -> str:
    """The preset whose fighter form has these fields: Fallout: Factions for S.P.E.C.I.A.L. and the Harm Limit,
    Trench Crusade (the default) otherwise (campaigns/profiles.py)."""
    from campaigns.profiles import FALLOUT_FACTIONS_PROFILE, TRENCH_CRUSADE_PROFILE

    only_fallout = set(FALLOUT_FACTIONS_PROFILE.form_fields) - set(TRENCH_CRUSADE_PROFILE.form_fields)
    return "fallout_factions" if only_fallout & set(fields) else "trench_crusade"


def use_preset_for(campaign, *fields: str) -> None:
    """The campaign plays the preset whose fighter form has these fields (preset_for)."""
    campaign.preset = preset_for(*fields)
    campaign.save(update_fields=["preset"])


def fighter_data(**changes) -> dict:
    """Valid fighter form data (a Trench Crusade Troop), with `changes` applied: both presets' stats, so it fits
    either campaign's form (each keeps its own profile's fields, campaigns/profiles.py)."""
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
        "ranged": "0",
        "melee": "0",
        "armour": "0",
        "base_size": 25,
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


# -- export and import (rosters/portability.py) ---------------------------------------------------------------


@pytest.fixture
def full_warband(warband, player):
    """A roster with every kind of row and value: ELITE and Troop, a unit, no Harm Limit, Injuries with and
    without a D66, Battlekit held and in the Arsenal, a fighter off the roster, notes with line breaks."""
    warband_services.warband_update(
        warband=warband,
        by=player,
        changes={"glory": 3, "crew_xp": 2, "notes": "Kept the relic.\nMarched north."},
    )
    marcus = fighter_services.fighter_create(
        warband=warband,
        by=player,
        name="Brother Marcus",
        elite=True,
        fighter_type="Trench Pilgrim",
        keywords=["ELITE", "PILGRIM"],
        strength=6,
        luck=3,
        health=2,
        harm_limit=None,
        movement=5,
        xp=7,
        battle_scars=1,
    )
    injury_services.injury_add(
        fighter=marcus, by=player, code="14", name="Hand Wound", effect="-1 to hit.", d66=14
    )
    injury_services.injury_add(fighter=marcus, by=player, code="house", name="Twisted Ankle")
    battlekit_services.item_create(
        warband=warband, fighter=marcus, name="Lance", keywords=["HEAVY"], by=player
    )
    battlekit_services.item_create(
        warband=warband, fighter=marcus, name="Reliquary", notes="Bound to him", removable=False, by=player
    )
    pilgrims = fighter_services.fighter_create(
        warband=warband, by=player, name="Pilgrim Band", unit_size=5, champion=False
    )
    fighter_services.fighter_adjust_xp(fighter=pilgrims, delta=1, by=player)
    fallen = fighter_services.fighter_create(
        warband=warband, by=player, name="Sister Ama", misses_next_game=True
    )
    fighter_services.fighter_remove(fighter=fallen, status="dead", by=player, battlekit="lost")
    battlekit_services.item_create(
        warband=warband, fighter=None, name="Holy Relic", notes="From Game 2", by=player
    )
    warband.refresh_from_db()
    return warband


@pytest.fixture
def other_campaign(organiser, player2):
    campaign = Campaign.objects.create(name="The Second Front", created_by=organiser)
    Membership.objects.create(campaign=campaign, user=organiser, role="organiser")
    Membership.objects.create(campaign=campaign, user=player2, role="player")
    return campaign


def counts() -> tuple[int, int, int, int]:
    """Warbands, fighters, Injuries and Battlekit in the database: a refused import changes none of them."""
    return Warband.objects.count(), Fighter.objects.count(), Injury.objects.count(), Item.objects.count()
