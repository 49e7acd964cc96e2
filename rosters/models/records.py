"""What a warband and its fighters keep from game to game: Injuries, Battlekit (held or in the Arsenal), the skills
a fighter learnt and the Locations the warband found."""

from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history
from combat.rules import sale_value
from rosters.models.limits import (
    INJURY_EFFECT_LENGTH,
    INJURY_LIMITS,
    ITEM_LIMITS,
    NAME_LENGTH,
    keywords_field,
    range_checks,
    validate_d66,
    within,
)
from rosters.models.warband import Fighter, Warband


@track_history
class Injury(ChecksInPython, models.Model):
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
        validators=[*within(INJURY_LIMITS, "d66"), validate_d66],
        help_text="The D66 roll it came from.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = range_checks("injury", INJURY_LIMITS, nullable=("d66",))

    def __str__(self) -> str:
        return self.name


@track_history
class Item(ChecksInPython, models.Model):
    """Battlekit: held by a fighter, or in the warband's Arsenal when no fighter holds it."""

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="items")
    fighter = models.ForeignKey(
        Fighter, on_delete=models.SET_NULL, null=True, blank=True, related_name="battlekit"
    )
    name = models.CharField(max_length=NAME_LENGTH)
    notes = models.CharField(max_length=200, blank=True)
    keywords = keywords_field()
    removable = models.BooleanField(
        default=True, help_text="Off for Battlekit with a rule that says it cannot be removed from the model."
    )
    cost = models.PositiveIntegerField(
        default=0,
        validators=within(ITEM_LIMITS, "cost"),
        help_text="Ducats (caps) it cost; it sells for half, rounded up (RULING C-3).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = range_checks("item", ITEM_LIMITS)

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
class Skill(ChecksInPython, models.Model):
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
class FoundLocation(ChecksInPython, models.Model):
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
