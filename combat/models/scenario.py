"""A game's scenario roll: the stage's table it used, the scenarios to avoid, every face rolled.

CAMPAIGN_PHASE.md, "The campaign around the battles": "Each stage has a D6 scenario table (campaign data); a
warband should not play the same scenario twice in a row (reroll). When the two players are at different stages,
the lower stage's table is used." The engine decides (`combat.rules.roll_scenario`); this row keeps what it was
given and what it found, so the game reads as it was rolled whatever the campaign's tables become later: the table
is the version read (a version is never edited), and each face is also one stored roll of the dice log.

One row per game (two tabs rolling at once roll once). While a reroll typed from the table is awaited, `scenario`
is empty; the faces only ever grow.
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history
from combat.models.campaign_data import NAME_LENGTH, SCENARIO_TABLES, CampaignDataSet


@track_history
class GameScenario(ChecksInPython, models.Model):
    class Stage(models.TextChoices):
        EARLY = "early", SCENARIO_TABLES["early"]
        MID = "mid", SCENARIO_TABLES["mid"]
        ENDGAME = "endgame", SCENARIO_TABLES["endgame"]
        FINAL = "final", SCENARIO_TABLES["final"]

    game = models.OneToOneField("campaigns.Game", on_delete=models.CASCADE, related_name="scenario_roll")
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="+")
    stage = models.CharField(max_length=10, choices=Stage.choices)
    table = models.ForeignKey(
        CampaignDataSet,
        on_delete=models.RESTRICT,
        related_name="+",
        help_text="The version of the stage's scenario table the roll read.",
    )
    avoided = ArrayField(
        models.CharField(max_length=NAME_LENGTH),
        default=list,
        blank=True,
        help_text="The scenarios the game's warbands played in their previous games: rolled again.",
    )
    faces = ArrayField(models.PositiveSmallIntegerField(), default=list, blank=True)
    scenario = models.CharField(
        max_length=NAME_LENGTH, blank=True, help_text="Empty while a reroll is awaited."
    )
    kept_rule = models.BooleanField(
        default=True,
        help_text="False when every scenario of the table was one to avoid: the first roll stood.",
    )
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(stage__in=list(SCENARIO_TABLES)), name="game_scenario_stage_known"
            ),
            # A scenario is found only by a face rolled.
            models.CheckConstraint(
                condition=Q(scenario="") | ~Q(faces=[]), name="game_scenario_found_by_a_roll"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.scenario or 'rolling'}"

    @property
    def settled(self) -> bool:
        return bool(self.scenario)
