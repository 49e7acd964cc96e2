"""The late joiner's starting XP form: one share per ELITE fighter, within the model's limit. Whether the split fits
(ELITE only, no more than the allowance) is the engine's to say (`rules.check_starting_xp`, through
combat/services/starting_xp.py); the card writes reuse the Advancement step's form (post_game_advancement.py)."""

from django import forms

from campaigns.fields import WholeNumberField
from combat.forms.postgame import NUMBER
from combat.models.starting_xp import MAX_STARTING_XP


class SharesForm(forms.Form):
    """`xp-<fighter id>` for each fighter of `lines` (the page's ELITE fighters)."""

    def __init__(self, *args, lines, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines = lines
        for line in lines:
            self.fields[f"xp-{line.fighter.pk}"] = WholeNumberField(
                label=f"{line.fighter.name} (now {line.xp_before} XP)",
                required=False,
                min_value=0,
                max_value=MAX_STARTING_XP,
                initial=line.xp,
                widget=forms.NumberInput(attrs=NUMBER),
            )

    def shares(self) -> dict[int, int]:
        return {line.fighter.pk: self.cleaned_data.get(f"xp-{line.fighter.pk}") or 0 for line in self.lines}
