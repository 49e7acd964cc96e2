"""The Strongbox's ledger: every change of a warband's ducats (caps) or Glory, with its cause."""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q

from campaigns.checks import ChecksInPython
from rosters.models.limits import WARBAND_LIMITS, range_checks, within
from rosters.models.warband import Warband

LEDGER_REASON_LENGTH = 200
LEDGER_LIMITS = {
    # One entry moves at most what a Strongbox may hold (WARBAND_LIMITS), either way.
    "ducats": (-WARBAND_LIMITS["strongbox"][1], WARBAND_LIMITS["strongbox"][1]),
    "glory": (-WARBAND_LIMITS["glory"][1], WARBAND_LIMITS["glory"][1]),
    "balance": WARBAND_LIMITS["strongbox"],
    "glory_balance": WARBAND_LIMITS["glory"],
}


class LedgerCause(models.TextChoices):
    """Why a Strongbox entry moves ducats or Glory."""

    START = "start", "Starting value"
    RECRUIT = "recruit", "Recruit"
    BUY = "buy", "Purchase"
    SELL = "sell", "Sale"
    LOOT = "loot", "Loot"
    RANSOM = "ransom", "Ransom"
    TREATMENT = "treatment", "Expensive Treatment"
    REINFORCEMENTS = "reinforcements", "Reinforcements"
    # CAMPAIGN_PHASE.md step 7, "Use Glory": Glory spent on Glory Items, mercenaries and other benefits.
    GLORY = "glory", "Use Glory"
    ADJUSTMENT = "adjustment", "Adjustment"


class StrongboxEntry(ChecksInPython, models.Model):
    """One change of a warband's Strongbox (ducats, caps) or Glory, with its cause and the balance after it.

    Written in the same transaction as the change of `Warband.strongbox`/`glory`, the warband's row locked
    (rosters/services/strongbox.py), so the entries of a warband always sum to its Strongbox and its Glory.
    Never edited nor deleted: a mistake is put right by another entry. Not tracked by pghistory: the ledger is
    itself the record, and the history feed tells its rows (rosters/history/ledger.py)."""

    Cause = LedgerCause

    warband = models.ForeignKey(Warband, on_delete=models.CASCADE, related_name="ledger")
    ducats = models.IntegerField(default=0, validators=within(LEDGER_LIMITS, "ducats"))
    glory = models.IntegerField(default=0, validators=within(LEDGER_LIMITS, "glory"))
    balance = models.IntegerField(
        validators=within(LEDGER_LIMITS, "balance"), help_text="The Strongbox after this entry."
    )
    glory_balance = models.IntegerField(validators=within(LEDGER_LIMITS, "glory_balance"))
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
            *range_checks("strongbox_entry", LEDGER_LIMITS),
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
