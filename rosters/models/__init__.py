"""Warband rosters: fighters, their Injuries, and Battlekit held by a fighter or kept in the Arsenal.

One module per concern, each imported here so Django finds its models, in the order they were always made (the
event models pghistory generates for them land on this package, `rosters.models.FighterEvent`):

- `limits` — every number a roster field may hold, the helpers that put them on fields, `validate_d66`;
- `warband` — `Warband` and its `Fighter`s;
- `records` — what they keep from game to game: `Injury`, `Item` (Battlekit), `Skill`, `FoundLocation`;
- `fields` — the fields a player edits and an export carries on each kind of row;
- `strongbox` — the Strongbox's ledger, `StrongboxEntry` and its `LedgerCause`;
- `price_lists` — a campaign's versioned `PriceList`s.

Every name importable from the single `rosters/models.py` this was is importable from here (migrations name
`rosters.models.validate_d66` by path), the libraries' names it had in scope included.
"""

import pgtrigger as pgtrigger
from django.conf import settings as settings
from django.contrib.postgres.fields import ArrayField as ArrayField
from django.core.exceptions import ValidationError as ValidationError
from django.core.validators import MaxLengthValidator as MaxLengthValidator
from django.core.validators import MaxValueValidator as MaxValueValidator
from django.core.validators import MinValueValidator as MinValueValidator
from django.db import models as models
from django.db.models import Q as Q

from campaigns.tracking import track_history as track_history
from combat.rules import ELITE, counts_as_elite, has_elite_keyword, is_d66, sale_value
from rosters.models.limits import (
    COST_RANGE,
    FIGHTER_LIMITS,
    INJURY_EFFECT_LENGTH,
    INJURY_LIMITS,
    ITEM_LIMITS,
    KEYWORD_LENGTH,
    MAX_KEYWORDS,
    NAME_LENGTH,
    RECRUIT_QUANTITY_MAX,
    SPECIAL,
    WARBAND_LIMITS,
    WARBAND_NOTES_LENGTH,
    validate_d66,
)
from rosters.models.limits import keywords_field as keywords_field
from rosters.models.limits import range_checks as range_checks
from rosters.models.limits import within as within

# Made in the order the single module made them (the models, then pghistory's events for each).
# isort: off
from rosters.models.warband import Fighter, Warband
from rosters.models.records import (
    LOCATION_CODE_LENGTH,
    SKILL_CODE_LENGTH,
    FoundLocation,
    Injury,
    Item,
    Skill,
)
from rosters.models.fields import FIGHTER_FIELDS, INJURY_FIELDS, ITEM_FIELDS, WARBAND_FIELDS
from rosters.models.strongbox import (
    LEDGER_LIMITS,
    LEDGER_REASON_LENGTH,
    LedgerCause,
    StrongboxEntry,
)
from rosters.models.price_lists import PRICE_LIST_NOTE_LENGTH, PriceList
# isort: on

__all__ = [
    "COST_RANGE",
    "ELITE",
    "FIGHTER_FIELDS",
    "FIGHTER_LIMITS",
    "INJURY_EFFECT_LENGTH",
    "INJURY_FIELDS",
    "INJURY_LIMITS",
    "ITEM_FIELDS",
    "ITEM_LIMITS",
    "KEYWORD_LENGTH",
    "LEDGER_LIMITS",
    "LEDGER_REASON_LENGTH",
    "LOCATION_CODE_LENGTH",
    "MAX_KEYWORDS",
    "NAME_LENGTH",
    "RECRUIT_QUANTITY_MAX",
    "PRICE_LIST_NOTE_LENGTH",
    "SKILL_CODE_LENGTH",
    "SPECIAL",
    "WARBAND_FIELDS",
    "WARBAND_LIMITS",
    "WARBAND_NOTES_LENGTH",
    "Fighter",
    "FoundLocation",
    "Injury",
    "Item",
    "LedgerCause",
    "PriceList",
    "Skill",
    "StrongboxEntry",
    "Warband",
    "counts_as_elite",
    "has_elite_keyword",
    "is_d66",
    "sale_value",
    "validate_d66",
]
