"""The warband and its fighters: the rows a roster is made of, with the limits each field carries."""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history
from combat.rules import counts_as_elite, has_elite_keyword
from rosters.models.limits import (
    FIGHTER_LIMITS,
    NAME_LENGTH,
    WARBAND_LIMITS,
    WARBAND_NOTES_LENGTH,
    keywords_field,
    range_checks,
    within,
)


@track_history
class Warband(ChecksInPython, models.Model):
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="warbands")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="warbands")
    name = models.CharField(max_length=NAME_LENGTH)
    faction = models.CharField(max_length=NAME_LENGTH, blank=True)
    notes = models.TextField(
        blank=True, max_length=WARBAND_NOTES_LENGTH, validators=[MaxLengthValidator(WARBAND_NOTES_LENGTH)]
    )
    strongbox = models.IntegerField(
        default=0,
        validators=within(WARBAND_LIMITS, "strongbox"),
        help_text="Ducats (caps in Fallout: Factions) in the Strongbox.",
    )
    glory = models.IntegerField(default=0, validators=within(WARBAND_LIMITS, "glory"))
    crew_xp = models.IntegerField(
        default=0,
        validators=within(WARBAND_LIMITS, "crew_xp"),
        help_text="Crew XP, e.g. from Harsh Lessons.",
    )
    promotion_tally = models.PositiveSmallIntegerField(
        default=0,
        validators=within(WARBAND_LIMITS, "promotion_tally"),
        help_text="Failed Promotion Dice in a row, across the campaign (RULING P-4).",
    )
    starting_value = models.PositiveIntegerField(
        default=700,
        validators=within(WARBAND_LIMITS, "starting_value"),
        help_text="Ducats it began the campaign with: 700 for most (CAMPAIGN_PHASE.md); the Threshold Value "
        "rises from it (RULING C-1).",
    )
    # CAMPAIGN_PHASE.md, late joiners: "may tick 1 XP per battle played by the warband that has played most",
    # counted when it joins (a battle played later does not raise it); ticked on its Starting XP page (combat).
    starting_xp = models.PositiveSmallIntegerField(
        default=0,
        validators=within(WARBAND_LIMITS, "starting_xp"),
        help_text="XP a late joiner may tick among its ELITE fighters: 1 per battle of the warband that had "
        "played most when it joined.",
    )
    # "A warband may be disbanded at the end of any game; a new one starts in its place." (CAMPAIGN_PHASE.md)
    # Kept in the standings, marked (RULING W-2).
    disbanded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = range_checks("warband", WARBAND_LIMITS)

    def __str__(self) -> str:
        return self.name


@track_history
class Fighter(ChecksInPython, models.Model):
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
    keywords = keywords_field()
    champion = models.BooleanField(default=False, help_text="Fallout: Factions Champion (Harsh Lessons).")
    strength = models.PositiveSmallIntegerField(default=5, validators=within(FIGHTER_LIMITS, "strength"))
    perception = models.PositiveSmallIntegerField(default=5, validators=within(FIGHTER_LIMITS, "perception"))
    endurance = models.PositiveSmallIntegerField(default=5, validators=within(FIGHTER_LIMITS, "endurance"))
    charisma = models.PositiveSmallIntegerField(default=5, validators=within(FIGHTER_LIMITS, "charisma"))
    intelligence = models.PositiveSmallIntegerField(
        default=5, validators=within(FIGHTER_LIMITS, "intelligence")
    )
    agility = models.PositiveSmallIntegerField(default=5, validators=within(FIGHTER_LIMITS, "agility"))
    luck = models.PositiveSmallIntegerField(default=5, validators=within(FIGHTER_LIMITS, "luck"))
    health = models.PositiveSmallIntegerField(
        default=1,
        validators=within(FIGHTER_LIMITS, "health"),
        help_text="Injuries that Incapacitate the fighter.",
    )
    harm_limit = models.PositiveSmallIntegerField(
        default=3,
        null=True,
        blank=True,
        validators=within(FIGHTER_LIMITS, "harm_limit"),
        help_text="Empty means no Harm Limit (RULING D-4).",
    )
    movement = models.PositiveSmallIntegerField(
        default=6, validators=within(FIGHTER_LIMITS, "movement"), help_text="Inches."
    )
    # Trench Crusade's profile (campaigns/profiles.py); a Fallout: Factions fighter keeps the defaults.
    ranged = models.SmallIntegerField(
        default=0, validators=within(FIGHTER_LIMITS, "ranged"), help_text="DICE on Ranged Attacks: +1D is 1."
    )
    melee = models.SmallIntegerField(
        default=0, validators=within(FIGHTER_LIMITS, "melee"), help_text="DICE on Melee Attacks: -1D is -1."
    )
    armour = models.SmallIntegerField(
        default=0, validators=within(FIGHTER_LIMITS, "armour"), help_text="Armour: the Injury Roll modifier."
    )
    base_size = models.PositiveSmallIntegerField(
        default=25, validators=within(FIGHTER_LIMITS, "base_size"), help_text="Base size in mm."
    )
    # A unit of several models shares one Health Pool (seed 004); Health is then each model's Health Points.
    unit_size = models.PositiveSmallIntegerField(
        default=1,
        validators=within(FIGHTER_LIMITS, "unit_size"),
        help_text="Models in the unit; 1 for one fighter.",
    )
    xp = models.IntegerField(default=0, validators=within(FIGHTER_LIMITS, "xp"))
    battle_scars = models.PositiveSmallIntegerField(
        default=0, validators=within(FIGHTER_LIMITS, "battle_scars")
    )
    can_gain_xp = models.BooleanField(default=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    misses_next_game = models.BooleanField(default=False)
    cost = models.PositiveIntegerField(
        default=0,
        validators=within(FIGHTER_LIMITS, "cost"),
        help_text="Ducats (caps) it cost to recruit, counted in the warband's value (RULING C-2).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            *range_checks("fighter", FIGHTER_LIMITS, nullable=("harm_limit",)),
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
