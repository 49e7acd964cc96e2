"""The history feed's filter form: choices from the campaign, so a value from elsewhere is refused, not trusted."""

from __future__ import annotations

import hashlib
from functools import cached_property
from urllib.parse import urlencode

from django import forms

from campaigns.fields import WholeNumberField
from rosters.history import selectors
from rosters.history.entries import HistoryFilter
from rosters.history.sources import kind_choices
from rosters.widgets import FastSelect


class OfferedChoiceField(forms.TypedChoiceField):
    """A choice field whose choices are set as the filter reads them, already Django's shape ((value, label) pairs,
    and (group, pairs)): Django's setter normalises every pair again, on the field and then on its widget, which
    cost the feed about a millisecond for a campaign's two hundred fighters."""

    @property
    def choices(self):
        return self._choices

    @choices.setter
    def choices(self, value):
        self._choices = self.widget._choices = list(value)


class HistoryFilterForm(forms.Form):
    """The feed's filters, with choices from the campaign (a value from elsewhere is refused, not trusted). A game
    is chosen by its number: campaigns run to hundreds of games, too many for a list."""

    warband = OfferedChoiceField(required=False, coerce=int, empty_value=None, widget=FastSelect)
    fighter = OfferedChoiceField(required=False, coerce=int, empty_value=None, widget=FastSelect)
    game = WholeNumberField(
        required=False, min_value=1, max_value=1_000_000, label="Game number", widget=forms.NumberInput
    )
    kind = forms.ChoiceField(required=False, label="Kind of change", widget=FastSelect)

    def __init__(self, data, *, campaign, warband=None, fighter=None):
        super().__init__(data, label_suffix="")
        terms = campaign.terms
        self.campaign = campaign
        self.fixed_warband, self.fixed_fighter = warband, fighter
        self.fighter_warbands: dict[int, int] = {}
        self.fields["warband"].label = terms.warband_title
        self.fields["game"].widget.attrs.update(placeholder="Every game", inputmode="numeric")
        if warband is None and fighter is None:
            # The campaign's feed offers both lists: read together.
            rows, fighters = selectors.filter_warbands_and_fighters(campaign=campaign)
            self.fields["warband"].choices = [("", f"Every {terms.warband}"), *rows]
            self._fighter_choices(fighters, warband)
        else:
            del self.fields["warband"]
        if fighter is not None:
            del self.fields["fighter"]
        elif warband is not None:
            self._fighter_choices(selectors.filter_fighters(campaign=campaign, warband=warband), warband)
        self.fields["kind"].choices = [("", "Every change"), *kind_choices(terms)]

    def _fighter_choices(self, fighters, warband) -> None:
        groups: dict[str, list] = {}
        for pk, name, warband_id, warband_name in fighters:
            groups.setdefault(warband_name, []).append((pk, name))
            self.fighter_warbands[pk] = warband_id
        choices = list(groups.items()) if warband is None else next(iter(groups.values()), [])
        self.fields["fighter"].choices = [("", "Every fighter"), *choices]

    def clean_game(self):
        number = self.cleaned_data.get("game")
        if number is None:
            self.game_id = None
            return None
        self.game_id = selectors.game_id_by_number(campaign=self.campaign, number=number)
        if self.game_id is None:
            raise forms.ValidationError(f"There is no Game {number} in this campaign.")
        return number

    def clean(self):
        data = super().clean()
        warband_id, fighter_id = data.get("warband"), data.get("fighter")
        if warband_id and fighter_id and self.fighter_warbands.get(fighter_id) != warband_id:
            self.add_error("fighter", "That fighter is not in the chosen warband.")
        return data

    def history_filter(self, campaign) -> HistoryFilter:
        data = self.cleaned_data
        return HistoryFilter(
            campaign_id=campaign.pk,
            warband_id=self.fixed_warband.pk if self.fixed_warband else data.get("warband"),
            fighter_id=self.fixed_fighter.pk if self.fixed_fighter else data.get("fighter"),
            game_id=getattr(self, "game_id", None),
            kind=data.get("kind") or None,
        )

    def querystring(self) -> str:
        """The chosen filters, to carry into the older-page and polling links."""
        if not self.is_valid():
            return ""
        return urlencode({k: v for k, v in self.cleaned_data.items() if v not in (None, "")})

    @property
    def is_filtered(self) -> bool:
        return bool(self.querystring())

    @cached_property
    def digest(self) -> str:
        """A digest of everything the filter box shows: each field with its label and choices (the campaign's
        warbands and fighters by name), the value the request gave it, and what was refused. The box's HTML is kept
        under it (templates/rosters/history_parts.html#history-filters): a renamed fighter changes it at once."""
        shown = [
            (name, str(field.label), field.choices if isinstance(field, forms.ChoiceField) else None)
            for name, field in self.fields.items()
        ]
        given = [self.data.get(self.add_prefix(name)) for name in self.fields]
        refused = self.errors.get_json_data() if self.is_bound else {}
        return hashlib.blake2b(repr((shown, given, refused)).encode(), digest_size=16).hexdigest()
