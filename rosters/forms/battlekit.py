"""Battlekit's forms: a new or changed piece (lengths and keywords from the model), and moving one."""

from django import forms
from django.core.exceptions import ValidationError

from campaigns.terms import Terms
from rosters.forms.common import clean_name, parse_keywords, text_field
from rosters.models import Fighter, Item

ARSENAL = "arsenal"


def holder_choices(holders, terms: Terms) -> list[tuple[str, str]]:
    return [(ARSENAL, f"the {terms.arsenal}"), *[(str(f.pk), f.name) for f in holders]]


class ItemForm(forms.Form):
    name = text_field(Item, "name", error_messages={"required": "Give the Battlekit a name."})
    holder = forms.ChoiceField(label="Held by")
    notes = text_field(Item, "notes", required=False)
    keywords = forms.CharField(required=False, help_text="Comma-separated, e.g. HEAVY, TWO-HANDED.")
    removable = forms.BooleanField(
        label="Can be removed from the model",
        required=False,
        initial=True,
        help_text="Untick for Battlekit whose rule says it cannot be removed: it never goes to the Arsenal.",
    )

    def __init__(self, *args, holders, terms: Terms, with_holder: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.holders = {str(f.pk): f for f in holders}
        self.fields["name"].error_messages["required"] = f"Give the {terms.battlekit} a name."
        self.fields["holder"].choices = holder_choices(holders, terms)
        self.fields["holder"].error_messages["invalid_choice"] = (
            f"Choose a fighter of this {terms.warband}, or the {terms.arsenal}."
        )
        if not with_holder:
            del self.fields["holder"]
        self.fields["removable"].help_text = (
            f"Untick for {terms.battlekit} whose rule says it cannot be removed: it never goes to the "
            f"{terms.arsenal}."
        )

    def clean_name(self):
        return clean_name(self.cleaned_data["name"])

    def clean_keywords(self):
        return parse_keywords(self.cleaned_data["keywords"], model=Item)

    def holder_fighter(self) -> Fighter | None:
        return self.holders.get(self.cleaned_data.get("holder"))


class ItemMoveForm(forms.Form):
    item = forms.ChoiceField(label="Move")
    to = forms.ChoiceField(label="to")

    def __init__(self, *args, items: list[Item], holders, terms: Terms, **kwargs):
        super().__init__(*args, **kwargs)
        self.terms = terms
        self.items = {str(item.pk): item for item in items}
        self.holders = {str(f.pk): f for f in holders}
        self.fields["item"].choices = [
            (str(item.pk), f"{item.name} ({item.fighter.name if item.fighter else terms.arsenal})")
            for item in items
        ]
        self.fields["to"].choices = holder_choices(holders, terms)

    def clean(self):
        data = super().clean()
        if "item" in data and "to" in data:
            item, holder = self.cleaned_item(), self.cleaned_holder()
            if item.fighter_id == (holder.pk if holder else None):
                # The form opens on an Arsenal item and the Arsenal: "is now with the Arsenal" would be untrue.
                where = holder.name if holder else f"the {self.terms.arsenal}"
                raise ValidationError(f"{item.name} is already with {where}: choose where it goes.")
        return data

    def cleaned_item(self) -> Item:
        return self.items[self.cleaned_data["item"]]

    def cleaned_holder(self) -> Fighter | None:
        return self.holders.get(self.cleaned_data["to"])
