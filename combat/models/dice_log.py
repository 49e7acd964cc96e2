"""The campaign's dice log: every roll, stored before its result is shown (ARCHITECTURE.md, Randomness).

RULING T-7: every roll can be made by the server's dice or typed in from physical dice; the engine's dice log
says which, and the stored roll adds who and when.
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models


class DiceRoll(models.Model):
    class Source(models.TextChoices):
        SERVER = "server", "Rolled by the server"
        ENTERED = "entered", "Entered from the table"

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="dice_rolls")
    game = models.ForeignKey(
        "campaigns.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="dice_rolls"
    )
    warband = models.ForeignKey(
        "rosters.Warband", on_delete=models.SET_NULL, null=True, blank=True, related_name="dice_rolls"
    )
    fighter = models.ForeignKey(
        "rosters.Fighter", on_delete=models.SET_NULL, null=True, blank=True, related_name="dice_rolls"
    )
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="dice_rolls"
    )
    source = models.CharField(max_length=10, choices=Source.choices)
    sides = models.PositiveSmallIntegerField(help_text="6 for a D6, 10 for a D10; a D66 is two D6.")
    faces = ArrayField(models.PositiveSmallIntegerField())
    purpose = models.CharField(max_length=40, help_text="What the roll was for: survival, trauma, attack...")
    label = models.CharField(max_length=200, blank=True, help_text="The roll in words, e.g. 'D66 34'.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "-created_at", "-id"], name="diceroll_campaign_recent")]

    def __str__(self) -> str:
        return self.label or f"{self.purpose}: {self.faces}"
