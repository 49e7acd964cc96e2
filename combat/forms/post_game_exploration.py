"""Forms of the post-game's Exploration step: they parse what the player typed; the rules and the checks against
the post-game (how many dice, who may reroll, which Locations were found) are the services'."""

from django import forms

from campaigns.fields import WholeNumberField
from combat.models.postgame import MAX_EXPLORATION_MODIFIER
from combat.rules.campaign_exploration import EXPLORATION_DIE, MOST_EXPLORATION_DICE

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*"}
# RULING E-1: a field for each of the most Exploration Dice a warband rolls (10 battles or more), as the engine says.
MOST_DICE = MOST_EXPLORATION_DICE
DIE_FIELDS = tuple(f"die_{number}" for number in range(1, MOST_DICE + 1))


def form_reason(form: forms.Form) -> str:
    """Every error of a refused form in one line, beside the form it came from."""
    return " ".join(message for messages in form.errors.values() for message in messages)


class ExplorationRollForm(forms.Form):
    """The modifier (RULING E-3) and the Exploration Dice: "Show the odds" saves the modifier alone, "Roll for me"
    rolls on the server, "Enter dice" takes the faces rolled at the table."""

    ODDS, ROLL, ENTER = "odds", "roll", "enter"

    modifier = WholeNumberField(
        required=False,
        min_value=-MAX_EXPLORATION_MODIFIER,
        max_value=MAX_EXPLORATION_MODIFIER,
        label="Modifier (exploration skills and items)",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    mode = forms.ChoiceField(choices=[(ODDS, "Show the odds"), (ROLL, "Roll for me"), (ENTER, "Enter dice")])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for number, name in enumerate(DIE_FIELDS, start=1):
            self.fields[name] = WholeNumberField(
                required=False, label=f"Die {number}", widget=forms.NumberInput(attrs=NUMBER)
            )

    def clean(self):
        cleaned = super().clean()
        cleaned["modifier"] = cleaned.get("modifier") or 0
        faces = [cleaned.get(name) for name in DIE_FIELDS if cleaned.get(name) is not None]
        if cleaned.get("mode") == self.ENTER and not faces:
            raise forms.ValidationError("Enter the Exploration Dice you rolled.")
        cleaned["faces"] = faces if cleaned.get("mode") == self.ENTER else None
        return cleaned


class ExplorationRerollForm(forms.Form):
    """RULING E-2: the die the winner rerolls, by the server or typed in; or "Keep the dice"."""

    KEEP, ROLL, ENTER = "keep", "roll", "enter"

    mode = forms.ChoiceField(
        choices=[(KEEP, "Keep the dice"), (ROLL, "Reroll for me"), (ENTER, "Enter the die")]
    )
    die = WholeNumberField(required=False, label="Die to reroll")
    face = WholeNumberField(
        required=False,
        min_value=1,
        max_value=EXPLORATION_DIE,
        label="New face",
        widget=forms.NumberInput(attrs=NUMBER),
    )

    def clean(self):
        cleaned = super().clean()
        mode = cleaned.get("mode")
        if mode in (self.ROLL, self.ENTER) and cleaned.get("die") is None and "die" not in self.errors:
            self.add_error("die", "Pick the die to reroll.")
        if mode == self.ENTER and cleaned.get("face") is None and "face" not in self.errors:
            self.add_error("face", "Enter the die you rolled.")
        return cleaned


class LocationChoiceForm(forms.Form):
    """RULING E-4: the Location taken of the two the score finds."""

    code = forms.CharField(max_length=40, label="Location")
