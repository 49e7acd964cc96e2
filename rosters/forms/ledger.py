"""The organiser's adjustment of a Strongbox: the ducats and Glory it moves, and why."""

from django import forms
from django.core.exceptions import ValidationError

from campaigns.fields import WholeNumberField
from campaigns.terms import Terms
from rosters.models import LEDGER_LIMITS, LEDGER_REASON_LENGTH


def _delta(name: str, label: str) -> WholeNumberField:
    low, high = LEDGER_LIMITS[name]
    return WholeNumberField(
        label=label,
        min_value=low,
        max_value=high,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="Negative to take away.",
    )


class AdjustmentForm(forms.Form):
    ducats = _delta("ducats", "Ducats")
    glory = _delta("glory", "Glory")
    reason = forms.CharField(
        label="Why",
        max_length=LEDGER_REASON_LENGTH,
        error_messages={"required": "Say why: the ledger keeps the reason."},
    )

    def __init__(self, *args, terms: Terms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ducats"].label = terms.currency.capitalize()
        self.fields["glory"].label = terms.glory

    def clean(self):
        data = super().clean()
        data["ducats"] = data.get("ducats") or 0
        data["glory"] = data.get("glory") or 0
        if not data["ducats"] and not data["glory"] and not self.errors:
            raise ValidationError(
                "The adjustment moves nothing: give the ducats or Glory it adds or takes away."
            )
        return data
