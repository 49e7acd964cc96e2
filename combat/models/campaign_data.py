"""A campaign's data: the tables of names the post-battle sequence reads.

CAMPAIGN_PHASE.md: "Tables of names (skills, locations, warband lists) are campaign data that a group keeps and
edits, never code". Each kind is one list of rows, saved whole as a new version:

- `skill_chart:<chart>`: the four skill charts of a Skill Advancement Roll (Melee & Strength, Ranged, Stealth &
  Speed, Wildcard), rows `roll`, `code`, `name` (RULING X-3);
- `location_table:<table>`: the Common, Rare and Legendary Location tables, rows `score`, `code`, `name` (E-4);
- `fighter_types`: the types that can never be promoted or have Limited Potential, rows `name`,
  `never_promoted`, `limited_potential` (CAMPAIGN_PHASE.md Promotions; RULING X-2);
- `scenario_table:<stage>`: the D6 scenario table of each campaign stage (Early, Mid, Endgame, Final Battle),
  rows `roll`, `name` (CAMPAIGN_PHASE.md, "The campaign around the battles": "Each stage has a D6 scenario table
  (campaign data)"; stages by RULING W-1);
- `patron_skills:<warband id>`: the skills of a warband's Patron, rows `code`, `name` ("a 'Patron Skill' result
  lets the player pick any one skill of the warband's Patron"). Keyed by the warband here, in combat, so rosters
  keeps no combat table.

A saved version is never edited (a trigger refuses an UPDATE), so a past post-game reads the version it used:
the newest of its kind saved at or before that moment (`combat/selectors/campaign_data.py`).
"""

import pgtrigger
from django.conf import settings
from django.core.validators import MaxLengthValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history
from combat.rules.campaign_scenarios import SCENARIO_DIE, STAGE_NAMES

SKILL_CHARTS = {
    "melee_strength": "Melee & Strength",
    "ranged": "Ranged",
    "stealth_speed": "Stealth & Speed",
    "wildcard": "Wildcard",
}
LOCATION_TABLES = {"common": "Common", "rare": "Rare", "legendary": "Legendary"}
SCENARIO_TABLES = dict(STAGE_NAMES)
FIGHTER_TYPES = "fighter_types"
PATRON_SKILLS = "patron_skills"

# One limit, one place (docs/architecture.md): the forms, the import and the service read these.
NAME_LENGTH = 100
CODE_LENGTH = 40
NOTE_LENGTH = 200
KIND_LENGTH = 40
MAX_ROWS = {
    "scenario_table": SCENARIO_DIE,
    "skill_chart": 11,
    "location_table": 60,
    FIGHTER_TYPES: 100,
    PATRON_SKILLS: 30,
}

KIND_PATTERN = (
    r"^(skill_chart:(melee_strength|ranged|stealth_speed|wildcard)"
    r"|location_table:(common|rare|legendary)|scenario_table:(early|mid|endgame|final)"
    r"|fighter_types|patron_skills:[1-9][0-9]*)$"
)


def family(kind: str) -> str:
    """`skill_chart`, `location_table`, `scenario_table`, `fighter_types` or `patron_skills`."""
    return kind.split(":", 1)[0]


def campaign_kinds() -> list[str]:
    """Every kind a campaign keeps once (a Patron's skills are one per warband, beside these)."""
    return (
        [f"skill_chart:{chart}" for chart in SKILL_CHARTS]
        + [f"location_table:{table}" for table in LOCATION_TABLES]
        + [FIGHTER_TYPES]
        + [f"scenario_table:{stage}" for stage in SCENARIO_TABLES]
    )


@track_history
class CampaignDataSet(ChecksInPython, models.Model):
    """One version of one kind of a campaign's data: the whole list of rows as saved, who saved it and when."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="data_sets")
    kind = models.CharField(max_length=KIND_LENGTH)
    version = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    rows = models.JSONField(
        default=list, blank=True, help_text="The rows, checked by the engine's validators."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=NOTE_LENGTH, blank=True, validators=[MaxLengthValidator(NOTE_LENGTH)])

    class Meta:
        ordering = ["campaign", "kind", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "kind", "version"], name="campaign_data_one_version"),
            models.CheckConstraint(condition=Q(version__gte=1), name="campaign_data_version_positive"),
            models.CheckConstraint(condition=Q(kind__regex=KIND_PATTERN), name="campaign_data_kind_known"),
        ]
        indexes = [models.Index(fields=["campaign", "kind", "-version"], name="campaign_data_latest")]
        triggers = [
            # Never edited in place: a past post-game reads the version it used. Only a
            # deleted account may touch a version (its `created_by` goes to NULL).
            pgtrigger.Protect(
                name="campaign_data_never_edited",
                operation=pgtrigger.Update,
                condition=pgtrigger.AnyChange("campaign", "kind", "version", "rows", "created_at", "note"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} v{self.version} of campaign {self.campaign_id}"

    @property
    def family(self) -> str:
        return family(self.kind)
