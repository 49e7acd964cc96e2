"""An Injury added by hand: its name and effect within the model's lengths, its D66 checked by the engine."""

from django import forms
from django.core.exceptions import ValidationError

from campaigns.fields import WholeNumberField
from combat.rules import is_d66
from rosters.forms.common import text_field
from rosters.limits import bounds
from rosters.models import Injury
from rosters.widgets import FastSelect

D66_MESSAGE = "A D66 roll has two digits, each 1 to 6."


class InjuryForm(forms.Form):
    """An Injury added by hand: a result of the campaign's Trauma Table, or one typed in."""

    OTHER = "other"

    # The whole Trauma Table in one pass (FastSelect), not one widget template per result.
    result = forms.ChoiceField(label="Trauma result", widget=FastSelect)
    name = text_field(Injury, "name", required=False, help_text="Only for a result not on the table.")
    effect = text_field(Injury, "effect", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    d66 = WholeNumberField(
        label="D66 roll",
        required=False,
        min_value=bounds(Injury, "d66")[0],
        max_value=bounds(Injury, "d66")[1],
        error_messages={"min_value": D66_MESSAGE, "max_value": D66_MESSAGE},
    )

    def __init__(self, *args, table_rows: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.rows = {row["code"]: row for row in table_rows if row.get("injury")}
        self.fields["result"].choices = [
            *[(code, row["name"]) for code, row in self.rows.items()],
            (self.OTHER, "Another result (type its name)"),
        ]

    def clean_d66(self):
        d66 = self.cleaned_data["d66"]
        if d66 is not None and not is_d66(d66):
            raise ValidationError(D66_MESSAGE)
        return d66

    def clean(self):
        data = super().clean()
        code = data.get("result")
        if code == self.OTHER:
            name = (data.get("name") or "").strip()
            if not name:
                self.add_error("name", "Type the name of the result.")
            data["code"] = "_".join(name.lower().split())[:40] or "other"
            data["name"] = name
        elif code in self.rows:
            row = self.rows[code]
            data["code"] = code
            data["name"] = row["name"]
            data["effect"] = (data.get("effect") or "").strip() or row["effect"]
        return data
