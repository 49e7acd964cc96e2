"""Battlekit's forms: a new or changed piece (lengths and keywords from the model), and moving one."""

from functools import lru_cache

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.loader import get_template

from campaigns.terms import Terms
from rosters.forms.common import clean_name, number_field, parse_keywords, text_field
from rosters.models import Fighter, Item
from rosters.widgets import FastSelect

ARSENAL = "arsenal"


def holder_choices(holders, terms: Terms) -> list[tuple[str, str]]:
    return [(ARSENAL, f"the {terms.arsenal}"), *[(str(f.pk), f.name) for f in holders]]


class ItemForm(forms.Form):
    # The price list in one pass (FastSelect), not one widget template per row.
    listed = forms.ChoiceField(label="From the price list", required=False, widget=FastSelect)
    name = text_field(Item, "name", required=False)
    holder = forms.ChoiceField(label="Held by")
    notes = text_field(Item, "notes", required=False)
    keywords = forms.CharField(required=False, help_text="Comma-separated, e.g. HEAVY, TWO-HANDED.")
    removable = forms.BooleanField(
        label="Can be removed from the model",
        required=False,
        initial=True,
        help_text="Untick for Battlekit whose rule says it cannot be removed: it never goes to the Arsenal.",
    )
    cost = number_field(Item, "cost", "Cost", initial=0, required=False)
    pay = forms.BooleanField(required=False, initial=True)

    def __init__(
        self,
        *args,
        holders,
        terms: Terms,
        with_holder: bool = True,
        buying: bool = False,
        listed: list[dict] = (),
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.terms = terms
        self._made_with = (with_holder, buying, _frozen(listed))
        self.holders = {str(f.pk): f for f in holders}
        # Picking from the campaign's price list fills in the name, cost, keywords and removable.
        self.listed_rows = {row["name"]: row for row in listed}
        self.fields["listed"].choices = [("", "— type it in below —")] + [
            (row["name"], f"{row['name']} ({row['cost']} {terms.currency})") for row in listed
        ]
        if not listed or not buying:
            del self.fields["listed"]
        if buying:
            self.fields["pay"].label = f"Pay its cost from the {terms.strongbox}"
        else:  # editing: a change of cost moves no money
            del self.fields["pay"]
        self.fields["cost"].label = f"Cost ({terms.currency})"
        self.fields["cost"].help_text = "Sells for half, rounded up (RULING C-3)."
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

    @property
    def kept_head(self) -> str:
        """The roster's Add form before its holder (`add-item-head`, templates/rosters/warband.html), unbound."""
        return self._kept("add-item-head")

    @property
    def kept_tail(self) -> str:
        """The roster's Add form after its holder (`add-item-tail`), unbound."""
        return self._kept("add-item-tail")

    def _kept(self, part: str) -> str:
        # A refused form shows its own values, a form made otherwise its own; a developer's edits show at once.
        made_otherwise = self.initial or self.prefix or self.auto_id != "id_%s"
        if self.is_bound or made_otherwise or settings.DEBUG:
            return _drawn(part, self)
        try:
            return _kept_drawn(part, self.terms, *self._made_with)
        except TypeError:  # a row holding a value that cannot be a key (a nested object): drawn as it is
            return _drawn(part, self)

    def clean_keywords(self):
        return parse_keywords(self.cleaned_data["keywords"], model=Item)

    def clean_cost(self):
        return self.cleaned_data["cost"] or 0  # left empty: no cost

    def clean(self):
        data = super().clean()
        row = self.listed_rows.get(data.get("listed") or "")
        if row is not None:
            data.update(
                name=row["name"], cost=row["cost"], keywords=row["keywords"], removable=row["removable"]
            )
            for name in ("name", "cost", "keywords", "removable"):
                self.errors.pop(name, None)
        elif "name" in data:
            try:
                data["name"] = clean_name(data["name"])
            except ValidationError:
                or_pick = " Or pick it from the price list." if self.listed_rows else ""
                self.add_error("name", f"Give the {self.terms.battlekit} a name.{or_pick}")
        return data

    def service_arguments(self) -> dict:
        """The cleaned data as `item_create`/`item_update` take it."""
        names = ("name", "notes", "keywords", "removable", "cost")
        return {name: self.cleaned_data[name] for name in names}

    def pays(self) -> bool:
        """Bought (paid from the Strongbox), or added as kit the warband already has."""
        return bool(self.cleaned_data.get("pay"))

    def holder_fighter(self) -> Fighter | None:
        return self.holders.get(self.cleaned_data.get("holder"))


def _frozen(rows) -> tuple:
    """A price list's rows as a key: each row's fields, sorted, its lists as tuples."""
    return tuple(
        tuple(
            sorted((name, tuple(value) if isinstance(value, list) else value) for name, value in row.items())
        )
        for row in rows
    )


def _drawn(part: str, form: ItemForm) -> str:
    return get_template(f"rosters/warband.html#{part}").render({"item_form": form})


@lru_cache(maxsize=128)
def _kept_drawn(part: str, terms: Terms, with_holder: bool, buying: bool, listed: tuple) -> str:
    """An unbound Add form's part, drawn once per process for what it shows: the campaign's words and its price list
    (its rows, `_frozen`, as read for this request) with how the form was made. Its ids are fixed and it holds no
    per-user secret (the form's CSRF token is outside it), so every roster with those shows the same text: drawing
    its fields through their templates was an eighth of a roster's cold draw."""
    form = ItemForm(
        holders=[], terms=terms, with_holder=with_holder, buying=buying, listed=[dict(row) for row in listed]
    )
    return _drawn(part, form)


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
