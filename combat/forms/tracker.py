"""The tracker's forms: each carries the board's version it was filled in on (`version`), so a form from a board
that has changed under it is refused with a message instead of overwriting someone else's change.

Forms only parse and check ranges; the rules (what Damage does, the Dice Pool, who may be tested) are the engine's
and the services' (docs/architecture.md: nothing clever in forms).
"""

from django import forms

from campaigns.fields import WholeNumberField
from campaigns.models import VICTORY_POINTS_MAX, GamePlayer
from combat.models.tracker import ACTION_KEY_LENGTH
from combat.rules.words import possessive

# A D10 shows 1 to 10 (RULINGS.md facts: Tests roll ten-sided dice).
D10_FACES = range(1, 11)
MAX_DAMAGE = 200
MAX_DISTANCE = 1000


class VersionForm(forms.Form):
    version = WholeNumberField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages={"required": "This form lost its board version: reload the board and try again."},
    )
    # A tap queued offline (static/js/offline.js): its idempotency key and its queue. Empty otherwise.
    key = forms.CharField(max_length=ACTION_KEY_LENGTH, required=False, widget=forms.HiddenInput)
    batch = forms.CharField(max_length=ACTION_KEY_LENGTH, required=False, widget=forms.HiddenInput)


def number_field(
    label: str, *, low: int, high: int, initial: int | None = None, required: bool = True, **extra
):
    return WholeNumberField(
        label=label,
        min_value=low,
        max_value=high,
        initial=initial,
        required=required,
        error_messages={
            "min_value": f"{label} is at least {low}.",
            "max_value": f"{label} is at most {high}.",
            "invalid": f"{label} is a whole number.",
            "required": f"Enter {label.lower()}.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": low, "max": high}),
        **extra,
    )


class AttackerMixin:
    """The optional "By": the fighter of the other side who did it (its Damage, its Out of Action, its Injury Roll),
    for the history and the campaign's statistics. The form reads a fighter's id; whether that fighter is on the
    other side of this game is the service's to check (`attacker_on_board`), refused beside the field. The choices
    are only for drawing the form (`offer_attackers`): a POST parses without reading them."""

    def add_attacker_field(self, attackers=()) -> None:
        refused = "“By” names a fighter of the other side."
        self.fields["attacker"] = WholeNumberField(
            label="By",
            min_value=1,
            required=False,
            help_text="Who did it, if you like: a fighter of the other side.",
            error_messages={"invalid": refused, "min_value": refused},
            widget=forms.Select(),
        )
        self.offer_attackers(attackers)

    def offer_attackers(self, attackers) -> None:
        self.fields["attacker"].widget.choices = [("", "—")] + [
            (row.fighter_id, f"{row.fighter.name} ({row.player.warband.name})") for row in attackers
        ]

    def attacker_id(self) -> int | None:
        return getattr(self, "cleaned_data", {}).get("attacker")


class OutOfActionForm(AttackerMixin, VersionForm):
    """A single model marked Out of Action (or the mark taken back), and, if the players say, by whom."""

    def __init__(self, *args, attackers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.add_attacker_field(attackers)


class UnitMixin:
    """For a unit of several models: one distance per model left (Damage Allocation, seed 001) and the attack's
    Target Limit. With no distance at all, the damage goes through the unit's Health Pool (seed 004)."""

    def add_unit_fields(self, models: int) -> None:
        self.models = models
        if models < 2:
            return
        for number in range(1, models + 1):
            self.fields[f"distance_{number}"] = forms.FloatField(
                label=f"Model {number}",
                min_value=0,
                max_value=MAX_DISTANCE,
                required=False,
                error_messages={
                    "min_value": "A distance is 0 inches or more.",
                    "invalid": "A distance is a number of inches.",
                },
                widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "0.1", "min": 0}),
            )
        self.fields["target_limit"] = number_field(
            "Target Limit", low=1, high=100, required=False, help_text="Ranged attacks only; empty for none."
        )
        self.fields["shooting"] = forms.BooleanField(
            label="A shot of a shooting engagement",
            required=False,
            help_text="Its models are assigned the damage now and removed when you end the shooting (RULING A-5). "
            "Number the models the same way for every shot.",
        )

    @property
    def distance_fields(self):
        return [self[f"distance_{number}"] for number in range(1, self.models + 1)] if self.models > 1 else []

    def distances(self) -> list[float | None] | None:
        """The distances in model order (None for a model the attack cannot reach), or None when none is given."""
        if self.models < 2:
            return None
        values = [self.cleaned_data.get(f"distance_{number}") for number in range(1, self.models + 1)]
        return values if any(value is not None for value in values) else None

    def target_limit(self) -> int | None:
        return self.cleaned_data.get("target_limit") if self.models > 1 else None

    def shooting(self) -> bool:
        return bool(self.cleaned_data.get("shooting")) if self.models > 1 else False


class DamageForm(UnitMixin, AttackerMixin, VersionForm):
    """Damage counted at the table: the Hits of an Attack Test rolled by hand, or any other danger; and, if the
    players say, who dealt it."""

    damage = number_field("Damage", low=0, high=MAX_DAMAGE)

    def __init__(self, *args, models: int = 1, attackers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.add_unit_fields(models)
        self.add_attacker_field(attackers)


class AttackForm(UnitMixin, forms.Form):
    """An Attack Test to roll: the weapon's dice and the stat, Brawl Bonus Dice, the attacker (for a Makeshift
    Weapon's Strength). The faces of physical dice come as repeated `face` values, checked one by one."""

    attacker = forms.TypedChoiceField(label="Attacker", coerce=int, required=False, empty_value=None)
    dice = number_field("Dice", low=1, high=20, initial=2, help_text="The weapon's Test: the 3 of 3A.")
    stat = number_field(
        "Stat", low=1, high=10, initial=5, help_text="The attacker's value of the stat the Test names."
    )
    makeshift = forms.BooleanField(label="Makeshift Weapon (2S)", required=False)
    brawl = forms.BooleanField(label="Brawl (melee)", required=False)
    charged = forms.BooleanField(label="Charged this turn", required=False)
    supporting = number_field(
        "Supporting friends",
        low=0,
        high=10,
        initial=0,
        help_text="Other friends Engaged with the Target and no other Enemy.",
    )
    bonus = number_field("Other Bonus Dice", low=0, high=10, initial=0)

    def __init__(self, *args, attackers=(), models: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.attackers = list(attackers)  # the fighters the attacker is chosen from (tracker_attackers)
        self.fields["attacker"].choices = [("", "—")] + [
            (row.fighter_id, f"{row.fighter.name} (S {row.fighter.strength})") for row in attackers
        ]
        self.add_unit_fields(models)


class RollForm(AttackForm, VersionForm):
    """The Attack Test rolled: "Roll for me" (`roll=server`) or "I rolled" (`roll=entered` and the faces)."""

    roll = forms.ChoiceField(
        choices=[("server", "Roll for me"), ("entered", "I rolled")],
        error_messages={"required": "Choose “Roll for me” or type the faces you rolled."},
    )

    def __init__(self, *args, faces=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.raw_faces = [str(face).strip() for face in faces]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("roll") == "entered":
            cleaned["faces"] = parse_faces(self.raw_faces, self)
        else:
            cleaned["faces"] = None
        return cleaned


def parse_faces(raw: list[str], form: forms.Form) -> list[int] | None:
    """The faces typed in from the table, each a D10 face, or form errors that say which one is wrong."""
    faces = []
    if not any(raw):
        form.add_error(None, "Type the faces you rolled, one per die, or press “Roll for me”.")
        return None
    for position, text in enumerate(raw, 1):
        if not text:
            form.add_error(None, f"Die {position} has no face: type what it shows.")
            continue
        try:
            face = int(text)
        except ValueError:
            form.add_error(None, f"Die {position}: “{text}” is not a number.")
            continue
        if face not in D10_FACES:
            form.add_error(None, f"Die {position}: a D10 shows 1 to 10, not {face}.")
            continue
        faces.append(face)
    return faces


class AnyFighter(forms.TypedChoiceField):
    """A fighter id; whether that fighter may do this is the service's to say, with the reason."""

    def valid_value(self, value) -> bool:
        return True


class AnyFighters(forms.TypedMultipleChoiceField):
    def valid_value(self, value) -> bool:
        return True


class FriendsForm(VersionForm):
    """The Friendly models that were within 3" of the Incapacitated model (000 "Confusion")."""

    friends = AnyFighters(
        coerce=int, required=False, error_messages={"invalid_choice": "Tick fighters of the board only."}
    )


class ConfusionTestForm(VersionForm):
    """One Confusion Test (2I): the friend to test (default: the next) and "Roll for me" or the two faces rolled."""

    friend = AnyFighter(
        coerce=int, required=False, empty_value=None, error_messages={"invalid_choice": "Choose a fighter."}
    )
    roll = forms.ChoiceField(
        choices=[("server", "Roll for me"), ("entered", "I rolled")],
        error_messages={"required": "Choose “Roll for me” or type the faces you rolled."},
    )

    def __init__(self, *args, faces=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.raw_faces = [str(face).strip() for face in faces]

    def clean(self):
        cleaned = super().clean()
        cleaned["faces"] = parse_faces(self.raw_faces, self) if cleaned.get("roll") == "entered" else None
        return cleaned


class ConfusionChoiceForm(VersionForm):
    choice = forms.ChoiceField(
        choices=[("flee", "Flee"), ("fatigue", "Take Fatigue")],
        error_messages={"invalid_choice": "Choose Flee or Take Fatigue."},
    )


class TieForm(VersionForm):
    """The defending player's order for equally close models (RULING A-2): model numbers, first first."""

    order = forms.CharField(
        max_length=200, label="Order", help_text="Model numbers, the first to take damage first."
    )

    def clean_order(self):
        parts = [part for part in self.cleaned_data["order"].replace(",", " ").split() if part]
        if not parts:
            raise forms.ValidationError("Name the equally close models in the order they take damage.")
        return parts


class FatigueForm(VersionForm):
    change = forms.TypedChoiceField(coerce=int, choices=[(1, "+1"), (-1, "-1")])


class EndGameForm(VersionForm):
    """The results and Victory Points of the warbands in the game (the standings rank by both, RULING W-2), and a
    note for the history."""

    reason = forms.CharField(
        label="Note for the history", max_length=300, required=False, widget=forms.TextInput()
    )

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for player in self.players:
            self.fields[f"result_{player.pk}"] = forms.ChoiceField(
                label=player.warband.name,
                choices=[("", "—"), *GamePlayer.Result.choices],
                initial=player.result or "",
                error_messages={"required": f"Enter {possessive(player.warband.name)} result."},
            )
            # The limit is the model's (campaigns.models.VICTORY_POINTS_MAX); blank counts as 0.
            self.fields[f"vp_{player.pk}"] = WholeNumberField(
                label=f"{possessive(player.warband.name)} Victory Points",
                min_value=0,
                max_value=VICTORY_POINTS_MAX,
                required=False,
                initial=player.victory_points,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                error_messages={
                    "min_value": "Victory Points are at least 0.",
                    "max_value": f"Victory Points are at most {VICTORY_POINTS_MAX}.",
                    "invalid": "Victory Points must be a whole number.",
                },
            )

    @property
    def result_fields(self):
        return [self[f"result_{player.pk}"] for player in self.players]

    @property
    def side_fields(self):
        """Each warband's result and Victory Points, side by side."""
        return [(self[f"result_{p.pk}"], self[f"vp_{p.pk}"]) for p in self.players]

    def results(self) -> dict[int, str]:
        return {player.pk: self.cleaned_data[f"result_{player.pk}"] for player in self.players}

    def victory_points(self) -> dict[int, int]:
        return {player.pk: self.cleaned_data[f"vp_{player.pk}"] or 0 for player in self.players}
