"""The dice log's filter: the rolls of one game (by its number), of one warband, that count or no longer count."""

from urllib.parse import urlencode

from django import forms

from campaigns.fields import WholeNumberField
from combat.selectors.dice_log import dice_log_game_id, dice_log_warband_choices
from combat.selectors.dice_marks import STATUS_FILTERS
from rosters.widgets import FastSelect


class DiceLogFilterForm(forms.Form):
    """Rolls of one game (by its number) or one warband, and whether they count."""

    game = WholeNumberField(required=False, min_value=1, max_value=1_000_000, label="Game number")
    warband = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, widget=FastSelect)
    status = forms.TypedChoiceField(
        required=False,
        empty_value=None,
        label="Counts?",
        choices=[("", "Every roll"), *((key, words) for key, (words, _) in STATUS_FILTERS.items())],
        error_messages={
            "invalid_choice": "“%(value)s” is not one of the choices: every roll, the rolls that count, those that "
            "no longer count, voided, corrected or undone."
        },
    )

    def __init__(self, data, *, campaign, warband=None):
        super().__init__(data)
        terms = campaign.terms
        self.campaign = campaign
        self.game_id = None
        self.fields["game"].widget.attrs.update(placeholder="Every game", inputmode="numeric")
        if warband is not None:
            # A warband's own roll history: its warband is the page's, not a choice.
            del self.fields["warband"]
            return
        self.fields["warband"].label = terms.warband_title
        self.fields["warband"].choices = [("", f"Every {terms.warband}"), *dice_log_warband_choices(campaign)]

    def clean_game(self):
        number = self.cleaned_data.get("game")
        if number is not None:
            self.game_id = dice_log_game_id(campaign=self.campaign, number=number)
            if self.game_id is None:
                raise forms.ValidationError(f"There is no Game {number} in this campaign.")
        return number

    def querystring(self) -> str:
        if not self.is_valid():
            return ""
        return urlencode({k: v for k, v in self.cleaned_data.items() if v is not None})
