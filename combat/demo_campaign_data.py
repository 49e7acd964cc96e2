"""A small MADE-UP set of campaign data, so every step of the post-battle sequence can be tried.

The project ships no official names (CAMPAIGN_PHASE.md: tables of names are campaign data a group keeps): every
skill and Location below is invented for the demo, and a group enters or imports its own on the campaign data
pages. The fighter types are the demo warbands' own (combat/management/commands/load_demo.py), flagged only so
the Promotion and Limited Potential rules have something to act on.

A Fallout: Factions campaign copies a set of its own (`FALLOUT_FACTIONS`), made up as well and sharing no name
with the Trench Crusade set: a crew's lists read as a wasteland's, not a trench's.
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


TRENCH_CRUSADE = {
    "skill_chart": SKILL_CHARTS,
    "location_table": LOCATION_TABLES,
    "scenario_table": SCENARIO_TABLES,
    "fighter_types": FIGHTER_TYPES,
    "patron_skills": PATRON_SKILLS,
}

# Fallout: Factions' made-up set: the same kinds (the steps a group switches on read them), its own names.
FALLOUT_FACTIONS = {
    "skill_chart": {
        "melee_strength": [
            (3, "knuckle_duster", "Knuckle Duster"),
            (5, "scrap_brawler", "Scrap Brawler"),
            (7, "crowbar_swing", "Crowbar Swing"),
            (9, "iron_jaw", "Iron Jaw"),
            (11, "wasteland_titan", "Wasteland Titan"),
        ],
        "ranged": [
            (2, "steady_sights", "Steady Sights"),
            (5, "glint_spotter", "Glint Spotter"),
            (7, "quick_chamber", "Quick Chamber"),
            (9, "dune_marksman", "Dune Marksman"),
            (12, "far_horizon", "Far Horizon"),
        ],
        "stealth_speed": [
            (4, "dust_runner", "Dust Runner"),
            (6, "soft_soles", "Soft Soles"),
            (8, "ruin_shadow", "Shadow of the Ruins"),
            (10, "fence_hopper", "Fence Hopper"),
        ],
        "wildcard": [
            (2, "lucky_find", "Lucky Find"),
            (6, "tinkerer", "Tinkerer"),
            (8, "campfire_stories", "Campfire Stories"),
            (10, "patch_up", "Patch-Up Artist"),
            (12, "second_wind", "Second Wind"),
        ],
    },
    "location_table": {
        "common": [
            (7, "collapsed_overpass", "Collapsed Overpass"),
            (9, "burnt_diner", "Burnt-Out Diner"),
            (11, "flooded_subway", "Flooded Subway Stop"),
            (13, "dry_gas_station", "Dry Gas Station"),
            (15, "old_water_tower", "Old Water Tower"),
        ],
        "rare": [
            (14, "sealed_bunker", "Sealed Bunker Door"),
            (17, "glowing_pharmacy", "Glowing Pharmacy"),
            (20, "crashed_airship", "Crashed Cargo Airship"),
            (22, "robot_depot", "Silent Robot Depot"),
        ],
        "legendary": [
            (25, "glass_crater", "The Glass Crater"),
            (28, "last_radio_mast", "The Last Radio Mast"),
            (31, "sleeping_reactor", "The Sleeping Reactor"),
        ],
    },
    "scenario_table": {
        "early": [
            "Scrap Run",
            "Water Rights",
            "Scrap Run",
            "Dust Storm",
            "Water Rights",
            "The Broken Caravan",
        ],
        "mid": [
            "Signal in the Static",
            "Toll Bridge",
            "The Stash House",
            "Toll Bridge",
            "Night Raid",
            "The Stash House",
        ],
        "endgame": [
            "Power Plant",
            "Last Convoy",
            "Power Plant",
            "Rust Fortress",
            "Last Convoy",
            "Rust Fortress",
        ],
        "final": ["The Long Noon"] * 3 + ["Reactor at Dawn"] * 3,
    },
    "fighter_types": [
        ("Salvage Chief", True, False),
        ("Dust Scavenger", False, True),
        ("Rust Sentry", False, True),
    ],
    "patron_skills": [
        ("old_world_favour", "Old-World Favour"),
        ("settlement_ties", "Settlement Ties"),
        ("caravan_contacts", "Caravan Contacts"),
    ],
}

PRESET_DEMO = {"trench_crusade": TRENCH_CRUSADE, "fallout_factions": FALLOUT_FACTIONS}


def demo_rows(kind: str, preset: str = "trench_crusade") -> list[dict]:
    """The demo rows of one kind for a preset's campaign (`skill_chart:ranged`, `location_table:common`,
    `scenario_table:early`, `fighter_types`, or `patron_skills:<warband id>`: every demo warband's Patron offers
    the same three made-up skills); an unknown preset reads as Trench Crusade, the default preset."""
    demo = PRESET_DEMO.get(preset, TRENCH_CRUSADE)
    head, _, rest = kind.partition(":")
    if head == "skill_chart":
        return [{"roll": roll, "code": code, "name": name} for roll, code, name in demo["skill_chart"][rest]]
    if head == "location_table":
        rows = demo["location_table"][rest]
        return [{"score": score, "code": code, "name": name} for score, code, name in rows]
    if head == "scenario_table":
        rows = demo["scenario_table"][rest]
        return [{"roll": face, "name": name} for face, name in enumerate(rows, start=1)]
    if head == "fighter_types":
        return [
            {"name": name, "never_promoted": never, "limited_potential": limited}
            for name, never, limited in demo["fighter_types"]
        ]
    return [{"code": code, "name": name} for code, name in demo["patron_skills"]]
