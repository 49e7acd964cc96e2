"""Warband rosters: fighters, their Injuries, and Battlekit held by a fighter or kept in the Arsenal."""

import pgtrigger
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from campaigns.tracking import track_history
from combat.rules import ELITE, counts_as_elite, has_elite_keyword, is_d66, sale_value

__all__ = ["ELITE"]

# -- limits -----------------------------------------------------------------------------------------------------
# Every number a player or a file may give a roster field, in one place. The fields below carry them as
# validators (and `max_length`); the forms (rosters/forms/) and the import schema (rosters/import_schema.py) read
# them from the fields (rosters/limits.py), and the check constraints are built from the same tables, so a value
# the form accepts is one the import accepts and the database keeps. rosters/tests/test_limits.py walks them all.

SPECIAL = ("strength", "perception", "endurance", "charisma", "intelligence", "agility", "luck")

WARBAND_LIMITS = {
    "strongbox": (0, 1_000_000),  # ducats (caps)
    "glory": (0, 100_000),
    "crew_xp": (0, 100_000),
    # RULING P-4: the failed Promotion Dice in a row, across games; at 5 the next die is an automatic success.
    "promotion_tally": (0, 5),
    # CAMPAIGN_PHASE.md: "700 for most; the Papal States start 200 lower"; RULING C-1 shifts the Threshold by it.
    "starting_value": (0, 10_000),
}
# Issue 13: costs in the campaign's currency (ducats; caps). 10,000 is far past any warband's Threshold Value
# (1800 at battle 12, C-1): a bigger number is a typing slip, not a price.
COST_RANGE = (0, 10_000)
FIGHTER_LIMITS = {
    # S.P.E.C.I.A.L. stats run from 1 to 10 (Fallout: Factions; RULINGS.md, Stat Tests on D10s).
    **{stat: (1, 10) for stat in SPECIAL},
    "health": (1, 20),
    "harm_limit": (0, 10),  # or empty: no Harm Limit (RULING D-4)
    "movement": (0, 30),
    "unit_size": (1, 100),
    "xp": (0, 10_000),
    "battle_scars": (0, 20),
    # Issue 13: what the fighter cost to recruit, in ducats (caps); counted in the warband's value (RULING C-2).
    "cost": COST_RANGE,
}
ITEM_LIMITS = {
    "cost": COST_RANGE
}  # what the Battlekit cost; it sells for half of it, rounded up (RULING C-3)
INJURY_LIMITS = {"d66": (11, 66)}
NAME_LENGTH = 100
KEYWORD_LENGTH = 40
MAX_KEYWORDS = 20
WARBAND_NOTES_LENGTH = 5_000
INJURY_EFFECT_LENGTH = 2_000


def _within(limits: dict[str, tuple[int, int]], field: str) -> list:
    low, high = limits[field]
    return [MinValueValidator(low), MaxValueValidator(high)]


def _range_checks(
    table: str, limits: dict[str, tuple[int, int]], nullable=()
) -> list[models.CheckConstraint]:
    """The database's own guard of each limit, so no code path (the admin, a script, a bug) can store past it."""
    checks = []
    for field, (low, high) in limits.items():
        condition = Q(**{f"{field}__gte": low}) & Q(**{f"{field}__lte": high})
        if field in nullable:
            condition = Q(**{f"{field}__isnull": True}) | condition
        checks.append(models.CheckConstraint(condition=condition, name=f"{table}_{field}_range"))
    return checks


def _keywords() -> ArrayField:
    return ArrayField(
        models.CharField(max_length=KEYWORD_LENGTH), size=MAX_KEYWORDS, default=list, blank=True
    )


def validate_d66(value: int | None) -> None:
    """A D66 roll is two D6 read as tens and units (combat.rules.is_d66): 11 to 66, no digit above 6."""
    if value is not None and not is_d66(value):
        raise ValidationError(f"{value} is not a D66 roll (two dice of 1 to 6).", code="d66")


@track_history
class Warband(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="warbands")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="warbands")
    name = models.CharField(max_length=NAME_LENGTH)
    faction = models.CharField(max_length=NAME_LENGTH, blank=True)
    notes = models.TextField(
        blank=True, max_length=WARBAND_NOTES_LENGTH, validators=[MaxLengthValidator(WARBAND_NOTES_LENGTH)]
    )
    strongbox = models.IntegerField(
        default=0,
        validators=_within(WARBAND_LIMITS, "strongbox"),
        help_text="Ducats (caps in Fallout: Factions) in the Strongbox.",
    )
    glory = models.IntegerField(default=0, validators=_within(WARBAND_LIMITS, "glory"))
    crew_xp = models.IntegerField(
        default=0,
        validators=_within(WARBAND_LIMITS, "crew_xp"),
        help_text="Crew XP, e.g. from Harsh Lessons.",
    )
    promotion_tally = models.PositiveSmallIntegerField(
        default=0,
        validators=_within(WARBAND_LIMITS, "promotion_tally"),
        help_text="Failed Promotion Dice in a row, across the campaign (RULING P-4).",
    )
    starting_value = models.PositiveIntegerField(
        default=700,
        validators=_within(WARBAND_LIMITS, "starting_value"),
        help_text="Ducats it began the campaign with: 700 for most (CAMPAIGN_PHASE.md); the Threshold Value "
        "rises from it (RULING C-1).",
    )
    # "A warband may be disbanded at the end of any game; a new one starts in its place." (CAMPAIGN_PHASE.md)
    # Kept in the standings, marked (RULING W-2).
    disbanded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = _range_checks("warband", WARBAND_LIMITS)

    def __str__(self) -> str:
        return self.name


@track_history
class Fighter(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        DEAD = "dead", "Dead"
        UNFIT_FOR_DUTY = "unfit_for_duty", "Unfit For Duty"
        BLINDED = "blinded", "Blinded"
        EXECUTED = "executed", "Executed"
        RETIRED = "retired", "Retired"
        # CAMPAIGN_PHASE.md: "After the Trauma Step, a player may also dismiss any fighter with 2 or more Battle
        # Scars."
        DISMISSED = "dismissed", "Dismissed"

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="fighters")
    name = models.CharField(max_length=NAME_LENGTH)
    fighter_type = models.CharField("type", max_length=NAME_LENGTH, blank=True)
    keywords = _keywords()
    champion = models.BooleanField(default=False, help_text="Fallout: Factions Champion (Harsh Lessons).")
    strength = models.PositiveSmallIntegerField(default=5, validators=_within(FIGHTER_LIMITS, "strength"))
    perception = models.PositiveSmallIntegerField(default=5, validators=_within(FIGHTER_LIMITS, "perception"))
    endurance = models.PositiveSmallIntegerField(default=5, validators=_within(FIGHTER_LIMITS, "endurance"))
    charisma = models.PositiveSmallIntegerField(default=5, validators=_within(FIGHTER_LIMITS, "charisma"))
    intelligence = models.PositiveSmallIntegerField(
        default=5, validators=_within(FIGHTER_LIMITS, "intelligence")
    )
    agility = models.PositiveSmallIntegerField(default=5, validators=_within(FIGHTER_LIMITS, "agility"))
    luck = models.PositiveSmallIntegerField(default=5, validators=_within(FIGHTER_LIMITS, "luck"))
    health = models.PositiveSmallIntegerField(
        default=1,
        validators=_within(FIGHTER_LIMITS, "health"),
        help_text="Injuries that Incapacitate the fighter.",
    )
    harm_limit = models.PositiveSmallIntegerField(
        default=3,
        null=True,
        blank=True,
        validators=_within(FIGHTER_LIMITS, "harm_limit"),
        help_text="Empty means no Harm Limit (RULING D-4).",
    )
    movement = models.PositiveSmallIntegerField(
        default=6, validators=_within(FIGHTER_LIMITS, "movement"), help_text="Inches."
    )
    # A unit of several models shares one Health Pool (seed 004); Health is then each model's Health Points.
    unit_size = models.PositiveSmallIntegerField(
        default=1,
        validators=_within(FIGHTER_LIMITS, "unit_size"),
        help_text="Models in the unit; 1 for one fighter.",
    )
    xp = models.IntegerField(default=0, validators=_within(FIGHTER_LIMITS, "xp"))
    battle_scars = models.PositiveSmallIntegerField(
        default=0, validators=_within(FIGHTER_LIMITS, "battle_scars")
    )
    can_gain_xp = models.BooleanField(default=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    misses_next_game = models.BooleanField(default=False)
    cost = models.PositiveIntegerField(
        default=0,
        validators=_within(FIGHTER_LIMITS, "cost"),
        help_text="Ducats (caps) it cost to recruit, counted in the warband's value (RULING C-2).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            *_range_checks("fighter", FIGHTER_LIMITS, nullable=("harm_limit",)),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_elite(self) -> bool:
        """The ELITE keyword itself (RULING T-1), as the roster's form edits it."""
        return has_elite_keyword(self.keywords)

    @property
    def counts_as_elite(self) -> bool:
        """ELITE for the Trauma Step, Harsh Lessons and the badges: the keyword or a Champion (combat.rules)."""
        return counts_as_elite(keywords=self.keywords, champion=self.champion)

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


@track_history
class Injury(models.Model):
    """A Trauma Table result a fighter keeps (Hand Wound, Lost an Eye, ...)."""

    fighter = models.ForeignKey(Fighter, on_delete=models.CASCADE, related_name="injuries")
    code = models.CharField(max_length=40)
    name = models.CharField(max_length=NAME_LENGTH)
    effect = models.TextField(
        blank=True, max_length=INJURY_EFFECT_LENGTH, validators=[MaxLengthValidator(INJURY_EFFECT_LENGTH)]
    )
    game = models.ForeignKey(
        "campaigns.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="injuries"
    )
    d66 = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[*_within(INJURY_LIMITS, "d66"), validate_d66],
        help_text="The D66 roll it came from.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = _range_checks("injury", INJURY_LIMITS, nullable=("d66",))

    def __str__(self) -> str:
        return self.name


@track_history
class Item(models.Model):
    """Battlekit: held by a fighter, or in the warband's Arsenal when no fighter holds it."""

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="items")
    fighter = models.ForeignKey(
        Fighter, on_delete=models.SET_NULL, null=True, blank=True, related_name="battlekit"
    )
    name = models.CharField(max_length=NAME_LENGTH)
    notes = models.CharField(max_length=200, blank=True)
    keywords = _keywords()
    removable = models.BooleanField(
        default=True, help_text="Off for Battlekit with a rule that says it cannot be removed from the model."
    )
    cost = models.PositiveIntegerField(
        default=0,
        validators=_within(ITEM_LIMITS, "cost"),
        help_text="Ducats (caps) it cost; it sells for half, rounded up (RULING C-3).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = _range_checks("item", ITEM_LIMITS)

    def __str__(self) -> str:
        return self.name

    @property
    def in_arsenal(self) -> bool:
        return self.fighter_id is None

    @property
    def sale_value(self) -> int:
        """What it sells for (RULING C-3, combat.rules.sale_value)."""
        return sale_value(self.cost)


SKILL_CODE_LENGTH = 40
LOCATION_CODE_LENGTH = 40


@track_history
class Skill(models.Model):
    """A skill a fighter has learnt: a Skill Advancement Roll's pick (CAMPAIGN_PHASE.md, RULING X-3), a Patron's
    skill, or one entered by hand. The codes are the campaign data's (combat/models/campaign_data.py)."""

    fighter = models.ForeignKey(Fighter, on_delete=models.CASCADE, related_name="skills")
    code = models.CharField(max_length=SKILL_CODE_LENGTH)
    name = models.CharField(max_length=NAME_LENGTH)
    chart = models.CharField(
        max_length=NAME_LENGTH, blank=True, help_text="The skill chart it came from, or the Patron's skills."
    )
    game = models.ForeignKey(
        "campaigns.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="skills"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # RULING X-3: a fighter never learns a skill it already has.
            models.UniqueConstraint(fields=["fighter", "code"], name="skill_once_per_fighter"),
        ]

    def __str__(self) -> str:
        return self.name


@track_history
class FoundLocation(models.Model):
    """A Location the warband found by Exploration (CAMPAIGN_PHASE.md, RULING E-4), kept on its record."""

    class Table(models.TextChoices):
        COMMON = "common", "Common"
        RARE = "rare", "Rare"
        LEGENDARY = "legendary", "Legendary"

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="locations")
    code = models.CharField(max_length=LOCATION_CODE_LENGTH)
    name = models.CharField(max_length=NAME_LENGTH)
    table = models.CharField(max_length=10, choices=Table.choices)
    score = models.PositiveSmallIntegerField(help_text="The Exploration Score that found it.")
    game = models.ForeignKey(
        "campaigns.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="found_locations"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            # E-4: "Each warband can find a given Location only once per campaign."
            models.UniqueConstraint(fields=["warband", "code"], name="location_found_once"),
            models.CheckConstraint(
                condition=Q(table__in=["common", "rare", "legendary"]), name="location_table_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name


# The fields a player edits (and an export carries) on each kind of row; services and the JSON format share them.
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
    "unit_size",
    "xp",
    "battle_scars",
    "can_gain_xp",
    "misses_next_game",
    "cost",
)
ITEM_FIELDS = ("name", "notes", "keywords", "removable", "cost")
INJURY_FIELDS = ("code", "name", "effect", "d66")


# -- the Strongbox's ledger (issue 13, item 2) ----------------------------------------------------------------

LEDGER_REASON_LENGTH = 200
LEDGER_LIMITS = {
    # One entry moves at most what a Strongbox may hold (WARBAND_LIMITS), either way.
    "ducats": (-WARBAND_LIMITS["strongbox"][1], WARBAND_LIMITS["strongbox"][1]),
    "glory": (-WARBAND_LIMITS["glory"][1], WARBAND_LIMITS["glory"][1]),
    "balance": WARBAND_LIMITS["strongbox"],
    "glory_balance": WARBAND_LIMITS["glory"],
}


class LedgerCause(models.TextChoices):
    """Why a Strongbox entry moves ducats or Glory (issue 13, item 2)."""

    START = "start", "Starting value"
    RECRUIT = "recruit", "Recruit"
    BUY = "buy", "Purchase"
    SELL = "sell", "Sale"
    LOOT = "loot", "Loot"
    RANSOM = "ransom", "Ransom"
    TREATMENT = "treatment", "Expensive Treatment"
    REINFORCEMENTS = "reinforcements", "Reinforcements"
    ADJUSTMENT = "adjustment", "Adjustment"


class StrongboxEntry(models.Model):
    """One change of a warband's Strongbox (ducats, caps) or Glory, with its cause and the balance after it.

    Written in the same transaction as the change of `Warband.strongbox`/`glory`, the warband's row locked
    (rosters/services/strongbox.py), so the entries of a warband always sum to its Strongbox and its Glory.
    Never edited nor deleted: a mistake is put right by another entry. Not tracked by pghistory: the ledger is
    itself the record, and the history feed tells its rows (rosters/history/ledger.py)."""

    Cause = LedgerCause

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="ledger")
    ducats = models.IntegerField(default=0, validators=_within(LEDGER_LIMITS, "ducats"))
    glory = models.IntegerField(default=0, validators=_within(LEDGER_LIMITS, "glory"))
    balance = models.IntegerField(
        validators=_within(LEDGER_LIMITS, "balance"), help_text="The Strongbox after this entry."
    )
    glory_balance = models.IntegerField(validators=_within(LEDGER_LIMITS, "glory_balance"))
    cause = models.CharField(max_length=20, choices=Cause.choices)
    reason = models.CharField(
        max_length=LEDGER_REASON_LENGTH, blank=True, validators=[MaxLengthValidator(LEDGER_REASON_LENGTH)]
    )
    game = models.ForeignKey(
        "campaigns.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="ledger_entries"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            *_range_checks("strongbox_entry", LEDGER_LIMITS),
            models.CheckConstraint(
                condition=Q(cause__in=LedgerCause.values),
                name="strongbox_entry_cause_known",
            ),
            models.CheckConstraint(
                condition=~Q(ducats=0) | ~Q(glory=0) | Q(cause="start"),
                name="strongbox_entry_moves_something",
            ),
        ]
        # The ledger page reads a warband's entries newest first, a page at a time (keyset on the id).
        indexes = [models.Index(fields=["warband", "-id"], name="strongbox_entry_newest")]

    def __str__(self) -> str:
        return f"{self.get_cause_display()} {self.ducats:+d} ({self.warband_id})"


# -- price lists (issue 13, item 1) ---------------------------------------------------------------------------

PRICE_LIST_NOTE_LENGTH = 200


@track_history
class PriceList(models.Model):
    """One version of a campaign's price list of fighter types or of Battlekit, saved whole, never edited (a
    trigger refuses an UPDATE), as the campaign data is (combat/models/campaign_data.py). Kept in `rosters`
    because its rows are fighters' and Battlekit's fields, whose limits live here (one limit, one place);
    the rows are checked by rosters/price_lists.py."""

    class Kind(models.TextChoices):
        FIGHTERS = "fighters", "Fighter types"
        BATTLEKIT = "battlekit", "Battlekit"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="price_lists")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    version = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    rows = models.JSONField(default=list, blank=True)
    note = models.CharField(
        max_length=PRICE_LIST_NOTE_LENGTH, blank=True, validators=[MaxLengthValidator(PRICE_LIST_NOTE_LENGTH)]
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "kind", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "kind", "version"], name="price_list_one_version"),
            models.CheckConstraint(condition=Q(version__gte=1), name="price_list_version_positive"),
            models.CheckConstraint(
                condition=Q(kind__in=["fighters", "battlekit"]), name="price_list_kind_known"
            ),
        ]
        triggers = [
            pgtrigger.Protect(
                name="price_list_never_edited",
                operation=pgtrigger.Update,
                condition=pgtrigger.AnyChange("campaign", "kind", "version", "rows", "created_at", "note"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} v{self.version} of campaign {self.campaign_id}"
