"""Forms of the post-game wizard: they parse what the player typed; the rules and the checks that need the
database are `combat.services`' (a face outside the die, a ransom larger than the Strongbox...)."""

from django import forms

from campaigns.fields import WholeNumberField
from combat import rules
from combat.models import PostGameRoll
from combat.models.postgame import MAX_GLORIOUS_DEEDS, MAX_XP_ADJUSTMENT
from combat.selectors.post_game.steps import POST_GAME_STEPS

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*"}


def form_reason(form: forms.Form) -> str:
    """Every error of a refused form in one line, for the fighter's card."""
    return " ".join(message for messages in form.errors.values() for message in messages)


def posted_fighter(data) -> int | None:
    """The fighter a posted card was for, when it can be read (its card shows the refusal)."""
    try:
        return int(data.get("fighter"))
    except (TypeError, ValueError):
        return None


class OutOfActionForm(forms.Form):
    """Step 1: which of the warband's fighters were taken Out of Action."""

    fighters = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple, label="Taken Out of Action"
    )

    def __init__(self, *args, fighters, rolled=frozenset(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fighters"].choices = [(fighter.pk, fighter.name) for fighter in fighters]
        self.rolled = frozenset(rolled)

    def fighter_ids(self) -> set[int]:
        """The fighters ticked, and those with dice rolled already: they stay on the list (shown disabled)."""
        return set(self.cleaned_data["fighters"]) | self.rolled


class RollForm(forms.Form):
    """A roll for one fighter: "Roll" (the server's dice) or "Enter dice" (the faces rolled on the table)."""

    ROLL = "roll"
    ENTER = "enter"

    fighter = WholeNumberField(widget=forms.HiddenInput)
    purpose = forms.ChoiceField(choices=PostGameRoll.Purpose.choices, widget=forms.HiddenInput)
    sequence = WholeNumberField(min_value=1, widget=forms.HiddenInput)
    step = forms.ChoiceField(
        choices=[(step.key, step.key) for step in POST_GAME_STEPS], required=False, widget=forms.HiddenInput
    )
    mode = forms.ChoiceField(choices=[(ROLL, "Roll"), (ENTER, "Enter dice")])
    first = WholeNumberField(required=False, label="Die", widget=forms.NumberInput(attrs=NUMBER))
    second = WholeNumberField(required=False, label="Units die", widget=forms.NumberInput(attrs=NUMBER))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("mode") != self.ENTER or self.errors:
            cleaned["faces"] = None
            return cleaned
        d66 = cleaned.get("purpose") == PostGameRoll.Purpose.TRAUMA
        faces = [cleaned.get("first"), cleaned.get("second")] if d66 else [cleaned.get("first")]
        if any(face is None for face in faces):
            raise forms.ValidationError(
                "Enter the tens die and the units die you rolled." if d66 else "Enter the die you rolled."
            )
        cleaned["faces"] = faces
        return cleaned


class RansomForm(forms.Form):
    """Captured (TRAUMA_TABLE.md 12): whether the players agreed a ransom, how much, and who holds the fighter."""

    fighter = WholeNumberField(widget=forms.HiddenInput)
    paid = forms.TypedChoiceField(
        choices=[("yes", "Offer a ransom"), ("no", "No ransom: executed")],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        label="Ransom",
    )
    ransom = WholeNumberField(
        required=False, min_value=0, label="Ransom", widget=forms.NumberInput(attrs=NUMBER)
    )
    captor = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Held by")

    def __init__(self, *args, opponents=(), currency: str = "ducats", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["captor"].choices = [("", "—")] + [(warband.pk, warband.name) for warband in opponents]
        self.fields["ransom"].label = f"Ransom ({currency})"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("paid") and cleaned.get("ransom") is None and "ransom" not in self.errors:
            self.add_error("ransom", "How much is paid?")
        if not cleaned.get("paid"):
            cleaned["ransom"] = 0
        return cleaned

    def answer(self) -> dict:
        """The keyword arguments of `post_game_offer_ransom` this form gives."""
        data = self.cleaned_data
        return {
            "fighter_id": data["fighter"],
            "paid": data["paid"],
            "ransom": data["ransom"],
            "captor_id": data["captor"],
        }

    def entered(self) -> dict:
        """What was typed in, shown again on the card when refused."""
        return {"paid": self.data.get("paid", ""), "ransom": self.data.get("ransom", "")}


class RansomWithdrawForm(forms.Form):
    """The owner takes back a ransom offer not yet answered (or a "no ransom" they declared)."""

    fighter = WholeNumberField(widget=forms.HiddenInput)


class RansomAnswerForm(forms.Form):
    """Captured (TRAUMA_TABLE.md 12): the captor's player accepts or refuses the ransom offered. `back` says which
    page the answer was given from, to go back to it (the dashboard, or the post-game's ELITE step)."""

    fighter = WholeNumberField(widget=forms.HiddenInput)
    answer = forms.TypedChoiceField(
        choices=[("accept", "Accept"), ("refuse", "Refuse")],
        coerce=lambda value: value == "accept",
        label="Answer",
    )
    back = forms.ChoiceField(
        choices=[("post_game", "The post-game"), ("dashboard", "The dashboard")], required=False
    )


class RansomReopenForm(forms.Form):
    """The organiser reopens an answered ransom offer before the Apply, saying why."""

    fighter = WholeNumberField(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=200, label="Why reopen it?")


class ExperienceForm(forms.Form):
    """Step 4: for each fighter, whether it took part and its Glorious Deeds; the organiser's adjustment."""

    def __init__(self, *args, lines, adjust: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines = lines
        self.adjust = adjust
        for line in lines:
            answer_took_part = line.took_part
            self.fields[f"took_part_{line.id}"] = forms.BooleanField(
                required=False, initial=answer_took_part, label="Took part", disabled=line.out_of_action
            )
            self.fields[f"deeds_{line.id}"] = WholeNumberField(
                required=False,
                min_value=0,
                max_value=MAX_GLORIOUS_DEEDS,
                initial=line.deeds_entered,
                label="Glorious Deeds",
                # RULING X-4: an ELITE fighter's Deeds give XP (however many, +1); a Troop's feed Promotions.
                help_text=rules.XP_FOR_DEEDS_WORDS if line.elite else rules.TROOP_DEEDS_WORDS,
                widget=forms.NumberInput(attrs=NUMBER),
            )
            if adjust:
                self.fields[f"adjust_{line.id}"] = WholeNumberField(
                    required=False,
                    min_value=-MAX_XP_ADJUSTMENT,
                    max_value=MAX_XP_ADJUSTMENT,
                    initial=line.adjustment_entered,
                    label="Adjustment",
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )

    def rows(self):
        """Each XP line with its bound fields, for the template."""
        for line in self.lines:
            adjust = self[f"adjust_{line.id}"] if self.adjust else None
            yield line, self[f"took_part_{line.id}"], self[f"deeds_{line.id}"], adjust

    def answers(self) -> dict[int, dict]:
        return {
            line.id: {
                "took_part": self.cleaned_data[f"took_part_{line.id}"] or line.out_of_action,
                "glorious_deeds": self.cleaned_data[f"deeds_{line.id}"] or 0,
                "xp_adjustment": self.cleaned_data.get(f"adjust_{line.id}") or 0,
            }
            for line in self.lines
        }
