"""Warband rosters: fighters, their Injuries, and Battlekit held by a fighter or kept in the Arsenal."""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from campaigns.tracking import track_history
from combat.rules import ELITE, counts_as_elite, has_elite_keyword

__all__ = ["ELITE"]


@track_history
class Warband(models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="warbands")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="warbands")
    name = models.CharField(max_length=100)
    faction = models.CharField(max_length=100, blank=True)
    notes = models.TextField(blank=True)
    strongbox = models.IntegerField(
        default=0, help_text="Ducats (caps in Fallout: Factions) in the Strongbox."
    )
    glory = models.IntegerField(default=0)
    crew_xp = models.IntegerField(default=0, help_text="Crew XP, e.g. from Harsh Lessons.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(strongbox__gte=0), name="warband_strongbox_not_negative"),
            models.CheckConstraint(condition=Q(glory__gte=0), name="warband_glory_not_negative"),
            models.CheckConstraint(condition=Q(crew_xp__gte=0), name="warband_crew_xp_not_negative"),
        ]

    def __str__(self) -> str:
        return self.name


def _stat_range(field: str) -> models.CheckConstraint:
    # S.P.E.C.I.A.L. stats run from 1 to 10 (Fallout: Factions; RULINGS.md, Stat Tests on D10s).
    return models.CheckConstraint(
        condition=Q(**{f"{field}__gte": 1}) & Q(**{f"{field}__lte": 10}), name=f"fighter_{field}_1_to_10"
    )


SPECIAL = ("strength", "perception", "endurance", "charisma", "intelligence", "agility", "luck")


@track_history
class Fighter(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        DEAD = "dead", "Dead"
        UNFIT_FOR_DUTY = "unfit_for_duty", "Unfit For Duty"
        BLINDED = "blinded", "Blinded"
        EXECUTED = "executed", "Executed"
        RETIRED = "retired", "Retired"

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="fighters")
    name = models.CharField(max_length=100)
    fighter_type = models.CharField("type", max_length=100, blank=True)
    keywords = ArrayField(models.CharField(max_length=40), default=list, blank=True)
    champion = models.BooleanField(default=False, help_text="Fallout: Factions Champion (Harsh Lessons).")
    strength = models.PositiveSmallIntegerField(default=5)
    perception = models.PositiveSmallIntegerField(default=5)
    endurance = models.PositiveSmallIntegerField(default=5)
    charisma = models.PositiveSmallIntegerField(default=5)
    intelligence = models.PositiveSmallIntegerField(default=5)
    agility = models.PositiveSmallIntegerField(default=5)
    luck = models.PositiveSmallIntegerField(default=5)
    health = models.PositiveSmallIntegerField(default=1, help_text="Injuries that Incapacitate the fighter.")
    harm_limit = models.PositiveSmallIntegerField(
        default=3, null=True, blank=True, help_text="Empty means no Harm Limit (RULING D-4)."
    )
    movement = models.PositiveSmallIntegerField(default=6, help_text="Inches.")
    # A unit of several models shares one Health Pool (seed 004); Health is then each model's Health Points.
    unit_size = models.PositiveSmallIntegerField(
        default=1, help_text="Models in the unit; 1 for one fighter."
    )
    xp = models.IntegerField(default=0)
    battle_scars = models.PositiveSmallIntegerField(default=0)
    can_gain_xp = models.BooleanField(default=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    misses_next_game = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            *[_stat_range(field) for field in SPECIAL],
            models.CheckConstraint(
                condition=Q(health__gte=1) & Q(health__lte=20), name="fighter_health_range"
            ),
            models.CheckConstraint(
                condition=Q(harm_limit__isnull=True) | Q(harm_limit__lte=10), name="fighter_harm_limit_range"
            ),
            models.CheckConstraint(condition=Q(movement__lte=30), name="fighter_movement_range"),
            models.CheckConstraint(
                condition=Q(unit_size__gte=1) & Q(unit_size__lte=100), name="fighter_unit_size_range"
            ),
            models.CheckConstraint(condition=Q(xp__gte=0), name="fighter_xp_not_negative"),
            models.CheckConstraint(condition=Q(battle_scars__lte=20), name="fighter_battle_scars_range"),
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
    name = models.CharField(max_length=100)
    effect = models.TextField(blank=True)
    game = models.ForeignKey(
        "campaigns.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="injuries"
    )
    d66 = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The D66 roll it came from.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(d66__isnull=True) | (Q(d66__gte=11) & Q(d66__lte=66)), name="injury_d66_range"
            ),
        ]

    def __str__(self) -> str:
        return self.name


@track_history
class Item(models.Model):
    """Battlekit: held by a fighter, or in the warband's Arsenal when no fighter holds it."""

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="items")
    fighter = models.ForeignKey(
        Fighter, on_delete=models.SET_NULL, null=True, blank=True, related_name="battlekit"
    )
    name = models.CharField(max_length=100)
    notes = models.CharField(max_length=200, blank=True)
    keywords = ArrayField(models.CharField(max_length=40), default=list, blank=True)
    removable = models.BooleanField(
        default=True, help_text="Off for Battlekit with a rule that says it cannot be removed from the model."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name

    @property
    def in_arsenal(self) -> bool:
        return self.fighter_id is None


# The fields a player edits (and an export carries) on each kind of row; services and the JSON format share them.
WARBAND_FIELDS = ("name", "faction", "notes", "strongbox", "glory", "crew_xp")
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
)
ITEM_FIELDS = ("name", "notes", "keywords", "removable")
