"""The fields a player edits (and an export carries) on each kind of row; services and the JSON format share them."""

from rosters.models.limits import SPECIAL

WARBAND_FIELDS = ("name", "faction", "notes", "strongbox", "glory", "crew_xp", "starting_value")
FIGHTER_FIELDS = (
    "name",
    "fighter_type",
    "keywords",
    "champion",
    *SPECIAL,
    "health",
    "harm_limit",
    "movement",
    "ranged",
    "melee",
    "armour",
    "base_size",
    "unit_size",
    "xp",
    "battle_scars",
    "can_gain_xp",
    "misses_next_game",
    "cost",
)
ITEM_FIELDS = ("name", "notes", "keywords", "removable", "cost")
INJURY_FIELDS = ("code", "name", "effect", "d66")
