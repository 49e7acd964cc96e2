"""The Advancement step's form: one card's write (the charts picked, a 2D6 rolled or typed, the skill taken).

It parses what was posted; whether it fits the card (a chart the campaign keeps, two different ones, a face on a
D6, a skill among those found) is the service's to say (combat/services/post_game/advancement.py).
"""

from django import forms

from campaigns.fields import WholeNumberField
from combat.forms.postgame import NUMBER
from combat.models import PostGameAdvancement

CHARTS, ROLL, PICK = "charts", "roll", "pick"
SERVER, ENTER = "roll", "enter"


class AdvancementForm(forms.Form):
    do = forms.ChoiceField(choices=[(CHARTS, "Pick the charts"), (ROLL, "Roll"), (PICK, "Take the skill")])
    fighter = WholeNumberField(widget=forms.HiddenInput)
    number = WholeNumberField(min_value=1, max_value=6, widget=forms.HiddenInput)
    first_chart = forms.CharField(
        required=False, max_length=PostGameAdvancement._meta.get_field("first_chart").max_length
    )
    second_chart = forms.CharField(
        required=False, max_length=PostGameAdvancement._meta.get_field("second_chart").max_length
    )
    die = forms.TypedChoiceField(choices=[(1, "1"), (2, "2")], coerce=int, required=False, empty_value=None)
    mode = forms.ChoiceField(choices=[(SERVER, "Roll"), (ENTER, "Enter dice")], required=False)
    first = WholeNumberField(required=False, label="First die", widget=forms.NumberInput(attrs=NUMBER))
    second = WholeNumberField(required=False, label="Second die", widget=forms.NumberInput(attrs=NUMBER))
    skill = forms.CharField(
        required=False, max_length=PostGameAdvancement._meta.get_field("skill_code").max_length
    )

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        do = cleaned.get("do")
        if do == CHARTS and not (cleaned.get("first_chart") and cleaned.get("second_chart")):
            raise forms.ValidationError("Pick two skill charts.")
        if do == ROLL:
            if cleaned.get("die") is None:
                raise forms.ValidationError("Say which chart's 2D6 this is.")
            faces = [cleaned.get("first"), cleaned.get("second")]
            if cleaned.get("mode") == ENTER and any(face is None for face in faces):
                raise forms.ValidationError("Enter both dice you rolled (2D6).")
            cleaned["faces"] = faces if cleaned.get("mode") == ENTER else None
        if do == PICK and not cleaned.get("skill"):
            raise forms.ValidationError("Pick one of the skills found.")
        return cleaned

    @property
    def card_id(self) -> str | None:
        """The card the form was posted from, when it can be read (its card shows the refusal)."""
        try:
            return f"{int(self.data.get('fighter'))}-{int(self.data.get('number'))}"
        except (TypeError, ValueError):
            return None

    def entered(self) -> dict:
        """What was typed in, shown again on the card when refused."""
        return {
            name: self.data.get(name, "")
            for name in ("first_chart", "second_chart", "first", "second", "skill")
        }
