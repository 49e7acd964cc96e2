"""The recruit form: a quantity for each fighter type and each piece of Battlekit of the campaign's price list,
and the list versions it was drawn from. It parses what was typed; the order's rules (the Strongbox pays it whole,
the names on the list, the limit per line) are the engine's and the service's (rosters/services/recruit.py)."""

from django import forms

from campaigns.fields import WholeNumberField
from rosters.models import RECRUIT_QUANTITY_MAX
from rosters.price_lists import BATTLEKIT, FIGHTERS

PREFIX = {FIGHTERS: "fighter", BATTLEKIT: "kit"}


class RecruitOrderForm(forms.Form):
    fighters_version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    battlekit_version = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, page, **kwargs):
        kwargs.setdefault("initial", {f"{kind}_version": version for kind, version in page.versions.items()})
        super().__init__(*args, **kwargs)
        self.page = page
        for kind, rows in ((FIGHTERS, page.fighters), (BATTLEKIT, page.battlekit)):
            for number, row in enumerate(rows):
                label = f"How many {row['name']}"
                self.fields[f"{PREFIX[kind]}-{number}"] = WholeNumberField(
                    label=label,
                    min_value=0,
                    max_value=RECRUIT_QUANTITY_MAX,
                    required=False,
                    initial=0,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "quantity"}),
                    error_messages={
                        "min_value": f"{row['name']}: at least 0.",
                        "max_value": f"{row['name']}: at most {RECRUIT_QUANTITY_MAX} at a time.",
                        "invalid": f"{row['name']}: a whole number.",
                    },
                )

    def rows(self, kind: str) -> list[tuple[dict, forms.BoundField]]:
        """Each listed row of `kind` with its quantity field."""
        rows = self.page.fighters if kind == FIGHTERS else self.page.battlekit
        return [(row, self[f"{PREFIX[kind]}-{number}"]) for number, row in enumerate(rows)]

    @property
    def fighter_rows(self) -> list[tuple[dict, forms.BoundField]]:
        return self.rows(FIGHTERS)

    @property
    def kit_rows(self) -> list[tuple[dict, forms.BoundField]]:
        return self.rows(BATTLEKIT)

    def quantities(self, kind: str) -> dict[str, int]:
        """The quantities typed, by name (nothing for a line left at 0)."""
        data = self.cleaned_data
        rows = self.page.fighters if kind == FIGHTERS else self.page.battlekit
        picked = {row["name"]: data.get(f"{PREFIX[kind]}-{number}") or 0 for number, row in enumerate(rows)}
        return {name: quantity for name, quantity in picked.items() if quantity}

    def versions(self) -> dict[str, int | None]:
        return {kind: self.cleaned_data.get(f"{kind}_version") for kind in (FIGHTERS, BATTLEKIT)}
