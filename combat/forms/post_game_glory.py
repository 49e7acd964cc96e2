"""The post-game's Use Glory form (CAMPAIGN_PHASE.md step 7): one spend of Glory, a Glory Item
(for a fighter or the Arsenal, its keywords, removable or not), a mercenary (a fighter hired for Glory, with its
type) or another benefit (typed with what it is). Lengths, keywords and the Glory's range come from the model."""

from django import forms
from django.core.exceptions import ValidationError

from campaigns.terms import Terms
from combat.models import PostGameGlory
from rosters.forms.common import clean_name, number_field, parse_keywords, text_field
from rosters.models import Item

ARSENAL = "arsenal"


class GlorySpendForm(forms.Form):
    kind = forms.ChoiceField(
        label="Spend on", choices=PostGameGlory.Kind.choices, initial=PostGameGlory.Kind.ITEM
    )
    name = text_field(PostGameGlory, "name", label="Name", required=False)
    glory = number_field(PostGameGlory, "glory", "Glory")
    keywords = forms.CharField(
        required=False, help_text="A Glory Item's or a mercenary's, comma-separated, e.g. HEAVY."
    )
    removable = forms.BooleanField(label="A Glory Item that can be removed", required=False, initial=True)
    holder = forms.ChoiceField(label="A Glory Item carried by", required=False)
    fighter_type = text_field(PostGameGlory, "fighter_type", label="A mercenary's type", required=False)
    benefit = text_field(PostGameGlory, "benefit", label="Another benefit: what it is", required=False)

    def __init__(self, *args, terms: Terms, holders=(), **kwargs):
        kwargs.setdefault("prefix", "glory")
        super().__init__(*args, **kwargs)
        self.fields["glory"].label = f"Cost ({terms.glory})"
        self.holders = {str(fighter.pk): fighter for fighter in holders}
        self.fields["holder"].choices = [(ARSENAL, f"the {terms.arsenal}")] + [
            (pk, fighter.name) for pk, fighter in self.holders.items()
        ]
        self.fields["holder"].initial = ARSENAL

    def clean_name(self):
        try:
            return clean_name(self.cleaned_data["name"])
        except ValidationError:
            raise ValidationError("Give it a name.") from None

    def clean_keywords(self):
        return parse_keywords(self.cleaned_data["keywords"], model=Item)

    def clean(self):
        data = super().clean()
        if data.get("kind") == PostGameGlory.Kind.BENEFIT and not (data.get("benefit") or "").strip():
            self.add_error("benefit", "Say what the benefit is: the ledger keeps it.")
        return data

    def spend(self) -> PostGameGlory:
        data = self.cleaned_data
        kind = data["kind"]
        item = kind == PostGameGlory.Kind.ITEM
        return PostGameGlory(
            kind=kind,
            name=data["name"],
            glory=data["glory"],
            keywords=data["keywords"] if kind != PostGameGlory.Kind.BENEFIT else [],
            removable=data.get("removable", False) if item else True,
            holder=self.holders.get(data.get("holder") or "") if item else None,
            fighter_type=data.get("fighter_type") or "" if kind == PostGameGlory.Kind.MERCENARY else "",
            benefit=data.get("benefit") or "" if kind == PostGameGlory.Kind.BENEFIT else "",
        )
