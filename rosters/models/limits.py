"""Every number a player or a file may give a roster field, in one place, and the helpers that put them on fields.

The model fields (rosters/models/) carry these numbers as validators (and `max_length`); the forms (rosters/forms/)
and the import schema (rosters/import_schema.py) read them from the fields (rosters/limits.py), and the check
constraints are built from the same tables, so a value the form accepts is one the import accepts and the database
keeps. rosters/tests/test_limits.py walks them all. The Strongbox ledger's and the price lists' own limits sit with
their models (rosters/models/strongbox.py, rosters/models/price_lists.py), built from these.
"""

from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from combat.rules import is_d66

SPECIAL = ("strength", "perception", "endurance", "charisma", "intelligence", "agility", "luck")

WARBAND_LIMITS = {
    "strongbox": (0, 1_000_000),  # ducats (caps)
    "glory": (0, 100_000),
    "crew_xp": (0, 100_000),
    # RULING P-4: the failed Promotion Dice in a row, across games; at 5 the next die is an automatic success.
    "promotion_tally": (0, 5),
    # CAMPAIGN_PHASE.md: "700 for most; the Papal States start 200 lower"; RULING C-1 shifts the Threshold by it.
    "starting_value": (0, 10_000),
    # CAMPAIGN_PHASE.md, late joiners: "1 XP per battle played by the warband that has played most"; a warband
    # joins before battle 12 at the latest (RULING C-1: there is no battle 13).
    "starting_xp": (0, 11),
}
# Costs in the campaign's currency (ducats; caps). 10,000 is far past any warband's Threshold Value
# (1800 at battle 12, C-1): a bigger number is a typing slip, not a price.
COST_RANGE = (0, 10_000)
FIGHTER_LIMITS = {
    # S.P.E.C.I.A.L. stats run from 1 to 10 (Fallout: Factions; RULINGS.md, Stat Tests on D10s).
    **{stat: (1, 10) for stat in SPECIAL},
    "health": (1, 20),
    "harm_limit": (0, 10),  # or empty: no Harm Limit (RULING D-4)
    "movement": (0, 30),
    # Trench Crusade's profile (campaigns/profiles.py): Ranged and Melee are the DICE a model adds to (or takes
    # from) its Success Rolls to attack, Armour the modifier to Injury Rolls against it, the base its size in mm.
    "ranged": (-3, 3),
    "melee": (-3, 3),
    "armour": (-5, 5),
    "base_size": (20, 200),
    "unit_size": (1, 100),
    "xp": (0, 10_000),
    "battle_scars": (0, 20),
    # What the fighter cost to recruit, in ducats (caps); counted in the warband's value (RULING C-2).
    "cost": COST_RANGE,
}
ITEM_LIMITS = {
    "cost": COST_RANGE
}  # what the Battlekit cost; it sells for half of it, rounded up (RULING C-3)
INJURY_LIMITS = {"d66": (11, 66)}
NAME_LENGTH = 100
# The most of one fighter type or one piece of Battlekit a single recruit order takes: more than the largest Field
# Strength (22, CAMPAIGN_PHASE.md) is never one warband's need, and it bounds the writes of one order.
RECRUIT_QUANTITY_MAX = 25
KEYWORD_LENGTH = 40
MAX_KEYWORDS = 20
WARBAND_NOTES_LENGTH = 5_000
INJURY_EFFECT_LENGTH = 2_000


def within(limits: dict[str, tuple[int, int]], field: str) -> list:
    low, high = limits[field]
    return [MinValueValidator(low), MaxValueValidator(high)]


def range_checks(table: str, limits: dict[str, tuple[int, int]], nullable=()) -> list[models.CheckConstraint]:
    """The database's own guard of each limit, so no code path (the admin, a script, a bug) can store past it."""
    checks = []
    for field, (low, high) in limits.items():
        condition = Q(**{f"{field}__gte": low}) & Q(**{f"{field}__lte": high})
        if field in nullable:
            condition = Q(**{f"{field}__isnull": True}) | condition
        checks.append(models.CheckConstraint(condition=condition, name=f"{table}_{field}_range"))
    return checks


def keywords_field() -> ArrayField:
    return ArrayField(
        models.CharField(max_length=KEYWORD_LENGTH), size=MAX_KEYWORDS, default=list, blank=True
    )


def validate_d66(value: int | None) -> None:
    """A D66 roll is two D6 read as tens and units (combat.rules.is_d66): 11 to 66, no digit above 6."""
    if value is not None and not is_d66(value):
        raise ValidationError(f"{value} is not a D66 roll (two dice of 1 to 6).", code="d66")
