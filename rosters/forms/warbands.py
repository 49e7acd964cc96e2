"""The warband's form: its name, faction, notes, starting value, Glory and crew XP within the model's limits."""

from django import forms

from campaigns.terms import Terms
from combat.rules import CampaignUses
from rosters.forms.common import clean_name, number_field, text_field
from rosters.models import Warband


class WarbandForm(forms.Form):
    name = text_field(Warband, "name")
    faction = text_field(Warband, "faction", required=False)
    notes = text_field(Warband, "notes", widget=forms.Textarea(attrs={"rows": 3}), required=False)
    starting_value = number_field(Warband, "starting_value", "Starting value", initial=700, required=False)
    glory = number_field(Warband, "glory", "Glory", initial=0)
    crew_xp = number_field(Warband, "crew_xp", "Crew XP", initial=0)

    def __init__(
        self, *args, terms: Terms, editing: bool = False, uses: CampaignUses | None = None, **kwargs
    ):
        super().__init__(*args, **kwargs)
        # The crew's XP is Fallout: Factions' Harsh Lessons and Glory Trench Crusade's Use Glory: a campaign whose
        # post-game takes neither step (`uses`, the engine's campaign_uses) is not asked for them.
        if uses is not None and not uses.crew_xp:
            del self.fields["crew_xp"]
        if uses is not None and not uses.glory:
            del self.fields["glory"]
        self.fields["name"].error_messages["required"] = f"Give the {terms.warband} a name."
        self.fields["starting_value"].label = f"Starting value ({terms.currency})"
        if "glory" in self.fields:
            self.fields["glory"].label = terms.glory
        if editing and "glory" in self.fields:
            # The Strongbox and Glory move only through the ledger once the warband exists (a purchase,
            # a sale, a ransom, or the organiser's adjustment with a reason on the ledger page).
            del self.fields["glory"]

    def clean_starting_value(self):
        value = self.cleaned_data["starting_value"]
        return Warband._meta.get_field("starting_value").default if value is None else value

    def clean_name(self):
        return clean_name(self.cleaned_data["name"])
