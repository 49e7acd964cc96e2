"""A campaign's price lists: fighter types and Battlekit with their costs, one version at a time."""

import pgtrigger
from django.conf import settings
from django.core.validators import MaxLengthValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from campaigns.tracking import track_history

PRICE_LIST_NOTE_LENGTH = 200


@track_history
class PriceList(ChecksInPython, models.Model):
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
