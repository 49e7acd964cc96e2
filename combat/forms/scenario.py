"""The scenario roll's form: "Roll for me" (the server's dice) or the die typed in from the table (RULING T-7).

The die is the engine's (`combat.rules.SCENARIO_DIE`: "Each stage has a D6 scenario table"), so the field's range
comes from it; which scenario a face finds, and whether it is rolled again, is the engine's to say.
"""

from django import forms

from combat.rules import SCENARIO_DIE


class ScenarioRollForm(forms.Form):
    ROLL, ENTER = "roll", "enter"

    mode = forms.ChoiceField(
        choices=[(ROLL, "Roll for me"), (ENTER, "Enter the die")],
        error_messages={
            "required": "Roll for me, or enter the die you rolled.",
            "invalid_choice": "Roll for me, or enter the die you rolled: nothing else rolls a scenario.",
        },
    )
    face = forms.IntegerField(
        label=f"D{SCENARIO_DIE}",
        min_value=1,
        max_value=SCENARIO_DIE,
        required=False,
        error_messages={
            "min_value": f"A D{SCENARIO_DIE} shows 1 to {SCENARIO_DIE}.",
            "max_value": f"A D{SCENARIO_DIE} shows 1 to {SCENARIO_DIE}.",
            "invalid": f"Enter the face the D{SCENARIO_DIE} shows, a whole number.",
        },
    )

    def clean(self):
        data = super().clean()
        if data.get("mode") == self.ENTER and data.get("face") is None and "face" not in self.errors:
            self.add_error("face", f"Enter the face the D{SCENARIO_DIE} shows, or let the server roll.")
        return data

    @property
    def face_or_server(self) -> int | None:
        """The face typed in, or None for the server's dice."""
        return self.cleaned_data["face"] if self.cleaned_data["mode"] == self.ENTER else None
