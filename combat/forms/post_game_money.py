"""The post-game's money steps' forms: a purchase (a recruit or Battlekit, typed with its cost
or picked from the campaign's price list) and a sale. Lengths, keywords and cost ranges come from the roster's
models (rosters/forms/common.py), as the roster's own recruit and buy forms take them."""

from django import forms
from django.core.exceptions import ValidationError

from campaigns.terms import Terms
from combat.models import PostGameTrade
from rosters.forms.common import clean_name, number_field, parse_keywords, text_field
from rosters.models import Fighter, Item

ARSENAL = "arsenal"
PROFILE = ("movement", "health", "harm_limit")


class PurchaseForm(forms.Form):
    """A recruit (`kind` "recruit") or a piece of Battlekit (`kind` "buy") for a fighter or the Arsenal."""

    listed = forms.ChoiceField(label="From the price list", required=False)
    name = text_field(Item, "name", required=False)
    fighter_type = text_field(Fighter, "fighter_type", required=False)
    keywords = forms.CharField(required=False, help_text="Comma-separated, e.g. HEAVY, TWO-HANDED.")
    removable = forms.BooleanField(label="Can be removed from the model", required=False, initial=True)
    cost = number_field(Item, "cost", "Cost", initial=0, required=False)
    holder = forms.ChoiceField(label="Carried by", required=False)

    def __init__(self, *args, kind: str, terms: Terms, listed=(), holders=(), **kwargs):
        kwargs.setdefault("prefix", kind)
        super().__init__(*args, **kwargs)
        self.kind, self.terms = kind, terms
        self.listed_rows = {row["name"]: row for row in listed}
        self.fields["listed"].choices = [("", "— type it in below —")] + [
            (row["name"], f"{row['name']} ({row['cost']} {terms.currency})") for row in listed
        ]
        if not listed:
            del self.fields["listed"]
        self.fields["cost"].label = f"Cost ({terms.currency})"
        self.holders = {str(fighter.pk): fighter for fighter in holders}
        if kind == PostGameTrade.Kind.RECRUIT:
            self.fields["name"].label = "Name"
            self.fields["fighter_type"].label = "Type"
            del self.fields["removable"], self.fields["holder"]
        else:
            del self.fields["fighter_type"]
            self.fields["holder"].choices = [(ARSENAL, f"the {terms.arsenal}")] + [
                (pk, fighter.name) for pk, fighter in self.holders.items()
            ]
            self.fields["holder"].initial = ARSENAL

    def clean_keywords(self):
        model = Fighter if self.kind == PostGameTrade.Kind.RECRUIT else Item
        return parse_keywords(self.cleaned_data["keywords"], model=model)

    def clean_cost(self):
        return self.cleaned_data["cost"] or 0  # left empty: no cost

    def clean(self):
        data = super().clean()
        row = self.listed_rows.get(data.get("listed") or "")
        if row is not None:
            data.update(cost=row["cost"], keywords=list(row["keywords"]))
            if self.kind == PostGameTrade.Kind.RECRUIT:
                data.update(fighter_type=row["name"], profile={name: row.get(name) for name in PROFILE})
            else:
                data.update(name=row["name"], removable=row["removable"])
            for name in ("cost", "keywords", "removable", "fighter_type"):
                self.errors.pop(name, None)
        if "name" in data and not (row is not None and self.kind == PostGameTrade.Kind.BUY):
            try:
                data["name"] = clean_name(data["name"])
            except ValidationError:
                self.add_error("name", "Give it a name.")
        return data

    def trade(self) -> PostGameTrade:
        data = self.cleaned_data
        holder = self.holders.get(data.get("holder") or "")
        return PostGameTrade(
            kind=self.kind,
            name=data["name"],
            fighter_type=data.get("fighter_type") or "",
            keywords=data["keywords"],
            removable=data.get("removable", True) if self.kind == PostGameTrade.Kind.BUY else True,
            cost=data["cost"],
            holder=holder,
            profile={k: v for k, v in (data.get("profile") or {}).items() if v is not None},
        )


class SaleForm(forms.Form):
    """A piece of Battlekit to sell, of those the warband may still sell (RULING C-3, T-4)."""

    item = forms.TypedChoiceField(coerce=int, label="Sell")

    def __init__(self, *args, sellable=(), terms: Terms, **kwargs):
        kwargs.setdefault("prefix", "sell")
        super().__init__(*args, **kwargs)
        self.fields["item"].choices = [
            (offer.item.pk, f"{offer.item.name} ({offer.holder}): {offer.price} {terms.currency}")
            for offer in sellable
        ]
        self.fields["item"].error_messages["invalid_choice"] = (
            f"Choose {terms.battlekit} the {terms.warband} may still sell."
        )

    def trade(self) -> PostGameTrade:
        return PostGameTrade(
            kind=PostGameTrade.Kind.SELL, name="", cost=0, sold_item_id=self.cleaned_data["item"]
        )


def form_reason(form: forms.Form) -> str:
    """Every error of a refused form in one line, beside the form it came from."""
    return " ".join(message for messages in form.errors.values() for message in messages)
