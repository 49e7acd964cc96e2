"""A small MADE-UP set of campaign data, so every step of the post-battle sequence can be tried.

The project ships no official names (CAMPAIGN_PHASE.md: tables of names are campaign data a group keeps): every
skill and Location below is invented for the demo, and a group enters or imports its own on the campaign data
pages. The fighter types are the demo warbands' own (combat/management/commands/load_demo.py), flagged only so
the Promotion and Limited Potential rules have something to act on.
"""

SKILL_CHARTS = {
    "melee_strength": [
        (3, "mud_wrestler", "Mud Wrestler"),
        (5, "iron_grip", "Iron Grip"),
        (7, "shield_breaker", "Shield Breaker"),
        (9, "hammer_arm", "Hammer Arm"),
        (11, "grave_strength", "Grave Strength"),
    ],
    "ranged": [
        (2, "steady_breath", "Steady Breath"),
        (5, "ember_eye", "Ember Eye"),
        (7, "rapid_reload", "Rapid Reload"),
        (9, "long_shadow_shot", "Long Shadow Shot"),
        (12, "wind_reader", "Wind Reader"),
    ],
    "stealth_speed": [
        (4, "duckboard_dancer", "Duckboard Dancer"),
        (6, "quiet_boots", "Quiet Boots"),
        (8, "smoke_walker", "Smoke Walker"),
        (10, "wire_slipper", "Wire Slipper"),
    ],
    "wildcard": [
        (2, "patron_skill", "Patron Skill"),
        (6, "lucky_medal", "Lucky Medal"),
        (8, "grim_humour", "Grim Humour"),
        (10, "field_surgeon", "Field Surgeon"),
        (12, "patron_skill_again", "Patron Skill (again)"),
    ],
}

LOCATION_TABLES = {
    "common": [
        (7, "flooded_dugout", "Flooded Dugout"),
        (9, "field_kitchen", "Abandoned Field Kitchen"),
        (11, "collapsed_chapel", "Collapsed Chapel"),
        (13, "rusted_rail_yard", "Rusted Rail Yard"),
        (15, "signal_tower_ruins", "Signal Tower Ruins"),
    ],
    "rare": [
        (14, "sunken_reliquary", "Sunken Reliquary"),
        (17, "gas_choked_bunker", "Gas-Choked Bunker"),
        (20, "forgotten_ossuary", "Forgotten Ossuary"),
        (22, "clockwork_foundry", "Clockwork Foundry"),
    ],
    "legendary": [
        (25, "weeping_bell", "The Weeping Bell"),
        (28, "last_sermon_crater", "Crater of the Last Sermon"),
        (31, "drowned_cathedral", "The Drowned Cathedral"),
    ],
}

# One D6 table per stage (CAMPAIGN_PHASE.md: "Each stage has a D6 scenario table"), every name made up; a
# scenario may sit on two faces, as a group's own table may.
SCENARIO_TABLES = {
    "early": [
        "Mist over the Duckboards",
        "The Lantern Run",
        "Mist over the Duckboards",
        "Broken Bell Tower",
        "The Lantern Run",
        "Salt the Crater",
    ],
    "mid": [
        "The Drowned Chapel",
        "Wire and Ashes",
        "The Relic Cart",
        "Wire and Ashes",
        "Smoke at Dawn",
        "The Relic Cart",
    ],
    "endgame": [
        "The Black Causeway",
        "Last Candle",
        "The Black Causeway",
        "Bones of the Bridge",
        "Last Candle",
        "Bones of the Bridge",
    ],
    "final": ["The Ninth Bell"] * 3 + ["The Burning Reliquary"] * 3,
}

FIGHTER_TYPES = [
    ("Anchorite Shrine", True, False),
    ("Heretic Trooper", False, True),
    ("Trench Pilgrim", False, True),
]

PATRON_SKILLS = [
    ("candle_of_vigil", "Candle of Vigil"),
    ("ashen_blessing", "Ashen Blessing"),
    ("oath_of_the_lantern", "Oath of the Lantern"),
]


def demo_rows(kind: str) -> list[dict]:
    """The demo rows of one kind (`skill_chart:ranged`, `location_table:common`, `scenario_table:early`, `fighter_types`, or
    `patron_skills:<warband id>`: every demo warband's Patron offers the same three made-up skills)."""
    head, _, rest = kind.partition(":")
    if head == "skill_chart":
        return [{"roll": roll, "code": code, "name": name} for roll, code, name in SKILL_CHARTS[rest]]
    if head == "location_table":
        return [{"score": score, "code": code, "name": name} for score, code, name in LOCATION_TABLES[rest]]
    if head == "scenario_table":
        return [{"roll": face, "name": name} for face, name in enumerate(SCENARIO_TABLES[rest], start=1)]
    if head == "fighter_types":
        return [
            {"name": name, "never_promoted": never, "limited_potential": limited}
            for name, never, limited in FIGHTER_TYPES
        ]
    return [{"code": code, "name": name} for code, name in PATRON_SKILLS]
