"""The warband's form: its name, faction, notes, and Strongbox, Glory and crew XP within the model's limits."""

from django import forms

from campaigns.terms import Terms
from rosters.forms.common import clean_name, number_field, text_field
from rosters.models import Warband


class WarbandForm(forms.Form):
    name = text_field(Warband, "name")
    faction = text_field(Warband, "faction", required=False)
    notes = text_field(Warband, "notes", widget=forms.Textarea(attrs={"rows": 3}), required=False)
    strongbox = number_field(Warband, "strongbox", "Strongbox", initial=0)
    glory = number_field(Warband, "glory", "Glory", initial=0)
    crew_xp = number_field(Warband, "crew_xp", "Crew XP", initial=0)

    def __init__(self, *args, terms: Terms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].error_messages["required"] = f"Give the {terms.warband} a name."
        self.fields["strongbox"].label = f"{terms.strongbox} ({terms.currency})"
        self.fields["strongbox"].error_messages["min_value"] = (
            f"The {terms.strongbox} cannot hold fewer than 0."
        )
        self.fields["glory"].label = terms.glory

    def clean_name(self):
        return clean_name(self.cleaned_data["name"])
