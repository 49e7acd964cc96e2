"""The forms of a Trench Crusade model on the board: the Injury Roll's short form and the one-tap markers.

They parse and check ranges only; what the roll is and whether the model has the markers is the engine's
(combat/rules/injury.py) and the service's (combat/services/tracker/injury.py), which refuse with the field named.
"""

from __future__ import annotations

import re

from django import forms

from combat.forms.tracker import AttackerMixin, VersionForm, number_field
from combat.rules.injury import MAX_MARKERS, MOST_INJURY_DICE, MOST_MODIFIERS

ARMOUR_CHOICES = [
    ("kit", "As the roster says"),
    ("none", "No armour"),
    ("standard", "Standard Armour (-1)"),
    ("reinforced", "Reinforced Armour (-2)"),
    ("machine", "Machine Armour (-3)"),
]
SHIELD_CHOICES = [("kit", "As the roster says"), ("yes", "Trench Shield (-1)"), ("no", "No shield")]
SHIELD = {"kit": None, "yes": True, "no": False}
_MODIFIER = re.compile(r"[+-]?\d+")


class InjuryRollForm(AttackerMixin, VersionForm):
    """What the players bring to one Injury Roll (TC_IN_GAME.md, "Where the dice and modifiers come from");
    `roll`: "Roll for me" (the server's dice) or "I rolled" with the faces typed in."""

    injury_dice = number_field(
        "+/- INJURY DICE", low=-MOST_INJURY_DICE, high=MOST_INJURY_DICE, initial=0, required=False
    )
    modifiers = forms.CharField(
        label="INJURY MODIFIERS",
        required=False,
        max_length=100,
        help_text="The weapon's and abilities', e.g. +1 -1.",
    )
    blood_spent = number_field("Blood Markers spent", low=0, high=MAX_MARKERS, initial=0, required=False)
    blessings_spent = number_field(
        "Blessing Markers spent", low=0, high=MAX_MARKERS, initial=0, required=False
    )
    critical = forms.BooleanField(label="Critical Success", required=False)
    melee = forms.BooleanField(label="Melee attack", required=False)
    bloodbath = forms.BooleanField(label="Bloodbath Roll", required=False)
    armour = forms.ChoiceField(label="Armour", choices=ARMOUR_CHOICES, required=False, initial="kit")
    shield = forms.ChoiceField(label="Shield", choices=SHIELD_CHOICES, required=False, initial="kit")
    roll = forms.ChoiceField(choices=[("server", "Roll for me"), ("entered", "I rolled")], required=False)

    def __init__(self, *args, faces=(), attackers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.raw_faces = [str(face).strip() for face in faces]
        self.add_attacker_field(attackers)

    def clean_modifiers(self) -> list[int]:
        text = self.cleaned_data.get("modifiers") or ""
        parts = text.replace(",", " ").split()
        if any(not _MODIFIER.fullmatch(part) for part in parts):
            raise forms.ValidationError("INJURY MODIFIERS are whole numbers with their sign, e.g. +1 -2.")
        if len(parts) > MOST_MODIFIERS:
            raise forms.ValidationError(f"At most {MOST_MODIFIERS} INJURY MODIFIERS.")
        return [int(part) for part in parts]

    def clean(self):
        cleaned = super().clean()
        cleaned["faces"] = None
        if cleaned.get("roll") == "entered":
            typed = [face for face in self.raw_faces if face]
            if not typed:
                self.add_error("roll", "Type the faces you rolled, one per die, or press “Roll for me”.")
            elif any(not face.lstrip("-").isdigit() for face in typed):
                self.add_error("roll", "A face is a whole number from 1 to 6.")
            else:
                # The number of faces and each face's range are the engine's to check (rules.check_faces).
                cleaned["faces"] = [int(face) for face in typed]
        return cleaned

    def roll_kwargs(self) -> dict:
        """The service's (and the odds') keyword arguments for this roll; a field left empty is its default."""
        data = getattr(self, "cleaned_data", {})  # an unbound form: every default
        return {
            "injury_dice": data.get("injury_dice") or 0,
            "modifiers": tuple(data.get("modifiers") or ()),
            "blood_spent": data.get("blood_spent") or 0,
            "blessings_spent": data.get("blessings_spent") or 0,
            "critical": bool(data.get("critical")),
            "melee": bool(data.get("melee")),
            "bloodbath": bool(data.get("bloodbath")),
            "armour": data.get("armour") or "kit",
            "shield": SHIELD[data.get("shield") or "kit"],
        }


MARKER_TAPS = {
    "blood:1": ("blood", 1),
    "blood:-1": ("blood", -1),
    "blessings:1": ("blessings", 1),
    "blessings:-1": ("blessings", -1),
    "down:1": ("down", 1),
    "down:-1": ("down", -1),
}


class MarkerForm(VersionForm):
    """One tap on a card: +1 / -1 Blood or Blessing Marker, Down or stand up."""

    marker = forms.ChoiceField(
        choices=[(value, value) for value in MARKER_TAPS],
        error_messages={"invalid_choice": "A tap adds or takes off one marker, or marks Down or stands up."},
    )
