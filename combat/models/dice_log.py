"""The campaign's dice log: every roll, stored before its result is shown (docs/architecture.md, Randomness).

RULING T-7: every roll can be made by the server's dice or typed in from physical dice; the engine's dice log
says which, and the stored roll adds who and when.

A stored roll is never deleted nor rolled again. It stops counting in four ways, each kept with who, when and why:
the organiser voids a server roll (its replacement is `replaced_by`), an owner or the organiser corrects a die typed
from the table (the roll with the right faces is `replaced_by`), a tracker Undo takes back the action that rolled
it, or a reverted post-game of the first version set it aside (before rolls were kept through a revert).
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython


class DiceRoll(ChecksInPython, models.Model):
    class Source(models.TextChoices):
        SERVER = "server", "Rolled by the server"
        ENTERED = "entered", "Entered from the table"

    class Status(models.TextChoices):
        COUNTED = "counted", "Counts"
        VOIDED = "voided", "Voided by the organiser"
        CORRECTED = "corrected", "Corrected"
        UNDONE = "undone", "Undone"

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
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.COUNTED)
    status_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status_at = models.DateTimeField(null=True, blank=True, help_text="When the roll stopped counting.")
    status_reason = models.CharField(
        max_length=200, blank=True, help_text="Why it stopped counting, in the words of who did it."
    )
    replaced_by = models.OneToOneField(
        "self",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="replaces",
        help_text="The roll that counts instead: a voided roll's replacement, a corrected roll's right faces.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="diceroll_campaign_recent"),
            # The log's "no longer counts" filters (voided, corrected, undone): few rolls among many, which the
            # index above would scan the whole campaign for (measured on 300,000 rolls, 0.2% struck: a page of
            # voided rolls 49 ms -> 1.2 ms, of struck ones 3.6 ms -> 0.5 ms).
            models.Index(
                fields=["campaign", "-created_at", "-id"],
                condition=~Q(status="counted"),
                name="diceroll_campaign_struck",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["counted", "voided", "corrected", "undone"]),
                name="diceroll_status_valid",
            ),
            # A roll that stopped counting says when; a counted one carries no such mark.
            models.CheckConstraint(
                condition=Q(status="counted", status_at__isnull=True, replaced_by__isnull=True)
                | (~Q(status="counted") & Q(status_at__isnull=False)),
                name="diceroll_status_marked",
            ),
            # Voiding and correcting always name what counts instead.
            models.CheckConstraint(
                condition=~Q(status__in=["voided", "corrected"]) | Q(replaced_by__isnull=False),
                name="diceroll_replaced_when_struck",
            ),
        ]

    def __str__(self) -> str:
        return self.label or f"{self.purpose}: {self.faces}"

    @property
    def counts(self) -> bool:
        return self.status == self.Status.COUNTED
