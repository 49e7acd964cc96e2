"""Forms of the post-game's fixes: correct a typed die (its faces and why), void a server roll (why, and the faces when
the replacement is typed). They parse; the checks against the die and the roll are the service's."""

from django import forms

from campaigns.fields import WholeNumberField
from combat.models import DiceRoll

MAX_REASON = DiceRoll._meta.get_field("status_reason").max_length

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*"}


class FixForm(forms.Form):
    """The faces (one die, or a D66's tens and units) and the reason, kept in the dice log and the history."""

    first = WholeNumberField(required=False, label="Die", widget=forms.NumberInput(attrs=NUMBER))
    second = WholeNumberField(required=False, label="Units die", widget=forms.NumberInput(attrs=NUMBER))
    # The Exploration Dice are up to 6 D6 (RULING E-1): the third to sixth faces, when corrected.
    third = WholeNumberField(required=False, label="Die 3", widget=forms.NumberInput(attrs=NUMBER))
    fourth = WholeNumberField(required=False, label="Die 4", widget=forms.NumberInput(attrs=NUMBER))
    fifth = WholeNumberField(required=False, label="Die 5", widget=forms.NumberInput(attrs=NUMBER))
    sixth = WholeNumberField(required=False, label="Die 6", widget=forms.NumberInput(attrs=NUMBER))
    reason = forms.CharField(
        max_length=MAX_REASON,
        strip=True,
        error_messages={
            "required": "Say why (a few words: the reason is kept in the dice log and the history).",
            "max_length": f"The reason is too long: at most {MAX_REASON} characters, please.",
        },
    )

    def faces(self) -> list[int] | None:
        """The faces typed, None when none were (a void then rolls the replacement on the server)."""
        names = ("first", "second", "third", "fourth", "fifth", "sixth")
        faces = [self.cleaned_data.get(name) for name in names]
        faces = [face for face in faces if face is not None]
        return faces or None


def form_reason(form: forms.Form) -> str:
    return " ".join(message for messages in form.errors.values() for message in messages)
