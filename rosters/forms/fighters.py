"""The fighter's forms: its name, type, keywords and stats (limits from the model), XP +/-, leaving the roster
and coming back."""

from django import forms
from django.core.exceptions import ValidationError

from campaigns.fields import WholeNumberField
from campaigns.profiles import DICE, MODIFIER
from campaigns.terms import Terms
from rosters.forms.common import clean_name, number_field, parse_keywords, text_field, written_stat_field
from rosters.models import ELITE, SPECIAL, Fighter

SPECIAL_LABELS = {
    "strength": "S",
    "perception": "P",
    "endurance": "E",
    "charisma": "C",
    "intelligence": "I",
    "agility": "A",
    "luck": "L",
}


def _stat(name: str, label: str, **kwargs) -> WholeNumberField:
    return number_field(Fighter, name, label, **kwargs)


class FighterForm(forms.Form):
    """A fighter's name, type, keywords and stats. `elite` is the ELITE keyword in Trench Crusade and the
    Champion flag in Fallout: Factions (campaigns/terms.py)."""

    name = text_field(Fighter, "name", error_messages={"required": "Give the fighter a name."})
    fighter_type = text_field(Fighter, "fighter_type", label="Type", required=False)
    elite = forms.BooleanField(required=False)
    keywords = forms.CharField(
        label="Other keywords", required=False, help_text="Comma-separated, e.g. PILGRIM, INFILTRATOR."
    )
    strength = _stat("strength", "Strength", initial=5)
    perception = _stat("perception", "Perception", initial=5)
    endurance = _stat("endurance", "Endurance", initial=5)
    charisma = _stat("charisma", "Charisma", initial=5)
    intelligence = _stat("intelligence", "Intelligence", initial=5)
    agility = _stat("agility", "Agility", initial=5)
    luck = _stat("luck", "Luck", initial=5)
    health = _stat("health", "Health", initial=1)
    harm_limit = _stat(
        "harm_limit", "Harm Limit", initial=3, required=False, help_text="Empty: no Harm Limit."
    )
    movement = _stat("movement", "Movement", initial=6)
    # Trench Crusade's profile, typed as the rules write it (campaigns/profiles.py): "+1D", "-1".
    ranged = written_stat_field(Fighter, "ranged", "Ranged", DICE, initial=0)
    melee = written_stat_field(Fighter, "melee", "Melee", DICE, initial=0)
    armour = written_stat_field(Fighter, "armour", "Armour", MODIFIER, initial=0)
    base_size = _stat("base_size", "Base (mm)", initial=25)
    unit_size = _stat("unit_size", "Models", initial=1)
    xp = _stat("xp", "XP", initial=0)
    battle_scars = _stat("battle_scars", "Battle Scars", initial=0)
    can_gain_xp = forms.BooleanField(label="Can gain XP", required=False, initial=True)
    misses_next_game = forms.BooleanField(label="Misses the next game", required=False)
    cost = _stat("cost", "Cost", initial=0, required=False)

    # Every stat field any preset's profile names; a form keeps those of its campaign's profile and drops the rest,
    # so a fighter's other stats are left as they are (campaigns/profiles.py).
    STAT_FIELDS = (
        *SPECIAL,
        "health",
        "harm_limit",
        "movement",
        "ranged",
        "melee",
        "armour",
        "base_size",
        "unit_size",
    )

    def __init__(self, *args, terms: Terms, fighter: Fighter | None = None, **kwargs):
        self.terms = terms
        if fighter is not None and "initial" not in kwargs:
            kwargs["initial"] = self.initial_for(fighter, terms)
        # No "Name:" above "Strength": the stat labels are written out bare (_fighter_fields.html), so all are.
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["elite"].label = terms.elite
        self.fields["cost"].label = f"Cost ({terms.currency})"
        self.fields["cost"].help_text = "Counted in the warband's value (RULING C-2)."
        self.fields["elite"].help_text = (
            "Champions earn the crew Harsh Lessons XP."
            if terms.preset == "fallout_factions"
            else "ELITE fighters roll on the Trauma Table; Troops make a Survival Roll (RULING T-1)."
        )
        self.profile = terms.profile
        for name in self.STAT_FIELDS:
            if name not in self.profile.form_fields:
                del self.fields[name]
        if "health" in self.fields and not self.profile.has_endurance:
            self.fields["health"].label = "Health Points"
            self.fields["health"].help_text = "Each model's, in a unit's Health Pool."
        prefix = f"fighter-{fighter.pk}" if fighter is not None and fighter.pk else "fighter-new"
        for name, field in self.fields.items():
            field.widget.attrs.setdefault("id", f"{prefix}-{name}")

    @staticmethod
    def initial_for(fighter: Fighter, terms: Terms) -> dict:
        elite = fighter.champion if terms.preset == "fallout_factions" else fighter.is_elite
        others = [k for k in fighter.keywords if k.upper() != ELITE or terms.preset == "fallout_factions"]
        return {
            "name": fighter.name,
            "fighter_type": fighter.fighter_type,
            "elite": elite,
            "keywords": ", ".join(others),
            **{name: getattr(fighter, name) for name in FighterForm.STAT_FIELDS},
            "xp": fighter.xp,
            "battle_scars": fighter.battle_scars,
            "can_gain_xp": fighter.can_gain_xp,
            "misses_next_game": fighter.misses_next_game,
            "cost": fighter.cost,
        }

    @staticmethod
    def initial_from_list(row: dict, terms: Terms) -> dict:
        """A price list's fighter type as the new fighter's form: its type, keywords, profile, cost."""
        keywords = [word for word in row["keywords"] if word != ELITE or terms.preset == "fallout_factions"]
        return {
            "fighter_type": row["name"],
            "elite": ELITE in row["keywords"],
            "keywords": ", ".join(keywords),
            "cost": row["cost"],
            "movement": row["movement"],
            "health": row["health"],
            "harm_limit": row["harm_limit"],
        }

    def clean_name(self):
        return clean_name(self.cleaned_data["name"])

    def clean_keywords(self):
        return parse_keywords(self.cleaned_data["keywords"], model=Fighter)

    def clean_cost(self):
        return self.cleaned_data["cost"] or 0  # left empty: no cost

    def service_arguments(self) -> dict:
        """The cleaned data as the services take it: `elite` for the ELITE keyword, or `champion`."""
        data = dict(self.cleaned_data)
        data.pop("pay", None)  # RecruitForm's: not a fighter field
        elite = data.pop("elite")
        keywords = [k for k in data["keywords"] if k != ELITE]
        if self.terms.preset == "fallout_factions":
            # The box is the Champion flag; ELITE stays a keyword a player may type in by hand.
            data["champion"] = elite
            return {"changes": data, "elite": None}
        data["keywords"] = keywords
        return {"changes": data, "elite": elite}

    def stat_fields(self):
        """The campaign's profile in its order, then a unit's fields."""
        return [self[name] for name in self.profile.form_fields]


class RecruitForm(FighterForm):
    """A new fighter: the fighter's form, and whether its cost is paid from the Strongbox (recruited) or not (a
    fighter the warband already had, entered by hand)."""

    pay = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args, terms: Terms, **kwargs):
        super().__init__(*args, terms=terms, **kwargs)
        self.fields["pay"].label = f"Pay its cost from the {terms.strongbox}"
        self.fields[
            "pay"
        ].help_text = (
            f"Untick for a fighter the {terms.warband} already has: its cost still counts in the value."
        )

    def service_arguments(self) -> dict:
        return {**super().service_arguments(), "pay": self.cleaned_data["pay"]}


class XPForm(forms.Form):
    delta = WholeNumberField(min_value=-20, max_value=20)

    def clean_delta(self):
        delta = self.cleaned_data["delta"]
        if delta == 0:
            raise ValidationError("Add or take away at least 1 XP.")
        return delta


class RemoveFighterForm(forms.Form):
    status = forms.ChoiceField(
        label="Why is the fighter leaving?",
        choices=[(value, label) for value, label in Fighter.Status.choices if value != Fighter.Status.ACTIVE],
        initial=Fighter.Status.DEAD,
    )
    battlekit = forms.ChoiceField(
        label="Its Battlekit",
        choices=[("arsenal", "goes to the Arsenal"), ("lost", "is lost"), ("kept", "stays with the fighter")],
        initial="arsenal",
        help_text="Battlekit that cannot be removed from the model stays with it (RULING T-4).",
    )

    def __init__(self, *args, terms: Terms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["battlekit"].label = f"Its {terms.battlekit}"
        self.fields[
            "battlekit"
        ].help_text = f"{terms.battlekit} that cannot be removed from the model stays with it (RULING T-4)."
        self.fields["battlekit"].choices = [
            ("arsenal", f"goes to the {terms.arsenal}"),
            ("lost", "is lost"),
            ("kept", "stays with the fighter"),
        ]


class RestoreForm(forms.Form):
    items = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_items(self):
        try:
            return [int(value) for value in self.cleaned_data["items"].split(",") if value.strip()]
        except ValueError:
            raise ValidationError("Not a list of Battlekit.") from None
