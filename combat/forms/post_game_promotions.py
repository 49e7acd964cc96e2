"""Forms of the Promotions and Dismiss the wounded steps: they parse what the player typed; the rules (RULINGS P-1
to P-4, a face outside the die) are the engine's, through `combat/services/post_game/promotions.py`."""

from django import forms

from campaigns.fields import WholeNumberField
from combat.forms.postgame import NUMBER
from combat.models.postgame import MAX_PROMOTION_DICE, MAX_PROMOTION_EXTRA

ASSIGN = "assign"
ROLL = "roll"


class PromotionDiceForm(forms.Form):
    """The extra dice from abilities (RULING P-1) and the Promotion Dice each eligible model takes (P-2)."""

    action = forms.CharField(widget=forms.HiddenInput, initial=ASSIGN)
    extra = WholeNumberField(
        min_value=0,
        max_value=MAX_PROMOTION_EXTRA,
        initial=0,
        label="Extra dice from abilities",
        widget=forms.NumberInput(attrs=NUMBER),
    )

    def __init__(self, *args, step, **kwargs):
        """`step` None parses a POST without reading the post-game: every posted `dice_<id>` is a field, and the
        service refuses what does not fit (the page then builds the form again on the step, to show it)."""
        super().__init__(*args, **kwargs)
        self.step = step
        self.fields["extra"].initial = step.extra if step is not None else 0
        for candidate in step.candidates if step is not None else ():
            self.fields[self.name_for(candidate.id)] = WholeNumberField(
                min_value=0,
                max_value=MAX_PROMOTION_DICE,
                initial=candidate.dice,
                required=False,
                label=f"Promotion Dice for {candidate.name}",
                widget=forms.NumberInput(attrs={**NUMBER, "class": "die-input"}),
            )

        # Dice posted for a model not on the list are parsed too, so the service refuses them by name (P-2).
        self.others = []
        for key in self.data if self.is_bound else ():
            head, _, rest = key.partition("_")
            if head == "dice" and rest.isdigit() and key not in self.fields:
                self.others.append(int(rest))
                self.fields[key] = WholeNumberField(min_value=0, max_value=MAX_PROMOTION_DICE, required=False)

    @staticmethod
    def name_for(fighter_id: int) -> str:
        return f"dice_{fighter_id}"

    @property
    def rows(self):
        """Each eligible model with its field."""
        return [(candidate, self[self.name_for(candidate.id)]) for candidate in self.step.candidates]

    def assignment(self) -> dict[int, int]:
        listed = [candidate.id for candidate in self.step.candidates] if self.step is not None else []
        ids = listed + self.others
        return {fighter_id: self.cleaned_data.get(self.name_for(fighter_id)) or 0 for fighter_id in ids}

    def add_refusal(self, refused) -> None:
        """A refused assignment's reasons beside the fields they name, the others (the pool's) above the form."""
        placed = []
        listed = {candidate.id for candidate in self.step.candidates}
        for fighter_id, reason in refused.by_fighter.items():
            if fighter_id in listed:
                self.add_error(self.name_for(fighter_id), reason)
                placed.append(reason)
        for reason in refused.problems or [str(refused)]:
            if not any(reason in beside for beside in placed):
                self.add_error(None, reason)


class PromotionRollForm(forms.Form):
    """One Promotion Die: for which model, its place in the warband's rolling order, rolled or typed."""

    action = forms.CharField(widget=forms.HiddenInput, initial=ROLL)
    fighter = WholeNumberField(label="Model")
    sequence = WholeNumberField(min_value=1, widget=forms.HiddenInput)
    mode = forms.ChoiceField(choices=[("roll", "Roll for me"), ("enter", "Enter the die")])
    first = WholeNumberField(required=False, label="D6", widget=forms.NumberInput(attrs=NUMBER))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("mode") != "enter" or self.errors:
            cleaned["faces"] = None
            return cleaned
        if cleaned.get("first") is None:
            raise forms.ValidationError("Enter the die you rolled.")
        cleaned["faces"] = [cleaned["first"]]
        return cleaned


class DismissForm(forms.Form):
    """Which fighters with 2 or more Battle Scars are dismissed (none is fine)."""

    fighters = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="Dismiss"
    )

    def __init__(self, *args, step, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fighters"].choices = [(c.id, c.name) for c in step.candidates]
        self.fields["fighters"].initial = [c.id for c in step.candidates if c.dismissed]

    @property
    def ticked(self) -> set[int]:
        """The fighters ticked, as ids (posted values are text)."""
        ticked = set()
        for value in self["fighters"].value() or []:
            try:
                ticked.add(int(value))
            except (TypeError, ValueError):
                continue
        return ticked
