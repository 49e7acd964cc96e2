"""Forms for the roster and game pages: they parse and check input; the services write.

Stats get their ranges here (S.P.E.C.I.A.L. 1-10, Health 1-20, Harm Limit 0-10 or empty, Movement 0-30...), the
same as the database constraints in rosters/models.py, so a bad value gets a message beside its field rather than
a constraint error.
"""

import datetime

from django import forms
from django.core.exceptions import ValidationError

from campaigns.models import GamePlayer
from campaigns.terms import Terms, terms_for
from rosters.models import ELITE, SPECIAL, Fighter, Item

SPECIAL_LABELS = {
    "strength": "S",
    "perception": "P",
    "endurance": "E",
    "charisma": "C",
    "intelligence": "I",
    "agility": "A",
    "luck": "L",
}


def parse_keywords(text: str) -> list[str]:
    """'heavy, two-handed' -> ['HEAVY', 'TWO-HANDED']: comma-separated, trimmed, upper-case, each once."""
    words: list[str] = []
    for word in (text or "").split(","):
        word = word.strip().upper()
        if word and word not in words:
            if len(word) > 40:
                raise ValidationError(f"The keyword {word[:20]}... is longer than 40 characters.")
            words.append(word)
    return words


def _number(label: str, low: int, high: int, **kwargs) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "min_value": f"{label} is at least {low}.",
            "max_value": f"{label} is at most {high}.",
            "invalid": f"{label} must be a whole number.",
        },
        **kwargs,
    )


class WarbandForm(forms.Form):
    name = forms.CharField(max_length=100)
    faction = forms.CharField(max_length=100, required=False)
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)
    strongbox = _number("Strongbox", 0, 1_000_000, initial=0)
    glory = _number("Glory", 0, 100_000, initial=0)
    crew_xp = _number("Crew XP", 0, 100_000, initial=0)

    def __init__(self, *args, terms: Terms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].error_messages["required"] = f"Give the {terms.warband} a name."
        self.fields["strongbox"].label = f"{terms.strongbox} ({terms.currency})"
        self.fields["strongbox"].error_messages["min_value"] = (
            f"The {terms.strongbox} cannot hold fewer than 0."
        )
        self.fields["glory"].label = terms.glory

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError("The name cannot be blank.")
        return name


class FighterForm(forms.Form):
    """A fighter's name, type, keywords and stats. `elite` is the ELITE keyword in Trench Crusade and the
    Champion flag in Fallout: Factions (campaigns/terms.py)."""

    name = forms.CharField(max_length=100, error_messages={"required": "Give the fighter a name."})
    fighter_type = forms.CharField(label="Type", max_length=100, required=False)
    elite = forms.BooleanField(required=False)
    keywords = forms.CharField(
        label="Other keywords", required=False, help_text="Comma-separated, e.g. PILGRIM, INFILTRATOR."
    )
    strength = _number("Strength", 1, 10, initial=5)
    perception = _number("Perception", 1, 10, initial=5)
    endurance = _number("Endurance", 1, 10, initial=5)
    charisma = _number("Charisma", 1, 10, initial=5)
    intelligence = _number("Intelligence", 1, 10, initial=5)
    agility = _number("Agility", 1, 10, initial=5)
    luck = _number("Luck", 1, 10, initial=5)
    health = _number("Health", 1, 20, initial=1)
    harm_limit = _number("Harm Limit", 0, 10, initial=3, required=False, help_text="Empty: no Harm Limit.")
    movement = _number("Movement", 0, 30, initial=6)
    unit_size = _number("Models", 1, 100, initial=1)
    xp = _number("XP", 0, 10_000, initial=0)
    battle_scars = _number("Battle Scars", 0, 20, initial=0)
    can_gain_xp = forms.BooleanField(label="Can gain XP", required=False, initial=True)
    misses_next_game = forms.BooleanField(label="Misses the next game", required=False)

    STAT_FIELDS = (*SPECIAL, "health", "harm_limit", "movement", "unit_size")

    def __init__(self, *args, terms: Terms, fighter: Fighter | None = None, **kwargs):
        self.terms = terms
        if fighter is not None and "initial" not in kwargs:
            kwargs["initial"] = self.initial_for(fighter, terms)
        # No "Name:" above "Strength": the stat labels are written out bare (_fighter_fields.html), so all are.
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["elite"].label = terms.elite
        self.fields["elite"].help_text = (
            "Champions earn the crew Harsh Lessons XP."
            if terms.preset == "fallout_factions"
            else "ELITE fighters roll on the Trauma Table; Troops make a Survival Roll (RULING T-1)."
        )
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
        }

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError("The name cannot be blank.")
        return name

    def clean_keywords(self):
        return parse_keywords(self.cleaned_data["keywords"])

    def service_arguments(self) -> dict:
        """The cleaned data as the services take it: `elite` for the ELITE keyword, or `champion`."""
        data = dict(self.cleaned_data)
        elite = data.pop("elite")
        keywords = [k for k in data["keywords"] if k != ELITE]
        if self.terms.preset == "fallout_factions":
            # The box is the Champion flag; ELITE stays a keyword a player may type in by hand.
            data["champion"] = elite
            return {"changes": data, "elite": None}
        data["keywords"] = keywords
        return {"changes": data, "elite": elite}

    def stat_fields(self):
        return [self[name] for name in self.STAT_FIELDS]


class XPForm(forms.Form):
    delta = forms.IntegerField(min_value=-20, max_value=20)

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


ARSENAL = "arsenal"


def holder_choices(holders, terms: Terms) -> list[tuple[str, str]]:
    return [(ARSENAL, f"the {terms.arsenal}"), *[(str(f.pk), f.name) for f in holders]]


class ItemForm(forms.Form):
    name = forms.CharField(max_length=100, error_messages={"required": "Give the Battlekit a name."})
    holder = forms.ChoiceField(label="Held by")
    notes = forms.CharField(max_length=200, required=False)
    keywords = forms.CharField(required=False, help_text="Comma-separated, e.g. HEAVY, TWO-HANDED.")
    removable = forms.BooleanField(
        label="Can be removed from the model",
        required=False,
        initial=True,
        help_text="Untick for Battlekit whose rule says it cannot be removed: it never goes to the Arsenal.",
    )

    def __init__(self, *args, holders, terms: Terms, with_holder: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.holders = {str(f.pk): f for f in holders}
        self.fields["name"].error_messages["required"] = f"Give the {terms.battlekit} a name."
        self.fields["holder"].choices = holder_choices(holders, terms)
        self.fields["holder"].error_messages["invalid_choice"] = (
            f"Choose a fighter of this {terms.warband}, or the {terms.arsenal}."
        )
        if not with_holder:
            del self.fields["holder"]
        self.fields["removable"].help_text = (
            f"Untick for {terms.battlekit} whose rule says it cannot be removed: it never goes to the "
            f"{terms.arsenal}."
        )

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError("The name cannot be blank.")
        return name

    def clean_keywords(self):
        return parse_keywords(self.cleaned_data["keywords"])

    def holder_fighter(self) -> Fighter | None:
        return self.holders.get(self.cleaned_data.get("holder"))


class ItemMoveForm(forms.Form):
    item = forms.ChoiceField(label="Move")
    to = forms.ChoiceField(label="to")

    def __init__(self, *args, items: list[Item], holders, terms: Terms, **kwargs):
        super().__init__(*args, **kwargs)
        self.terms = terms
        self.items = {str(item.pk): item for item in items}
        self.holders = {str(f.pk): f for f in holders}
        self.fields["item"].choices = [
            (str(item.pk), f"{item.name} ({item.fighter.name if item.fighter else terms.arsenal})")
            for item in items
        ]
        self.fields["to"].choices = holder_choices(holders, terms)

    def clean(self):
        data = super().clean()
        if "item" in data and "to" in data:
            item, holder = self.cleaned_item(), self.cleaned_holder()
            if item.fighter_id == (holder.pk if holder else None):
                # The form opens on an Arsenal item and the Arsenal: "is now with the Arsenal" would be untrue.
                where = holder.name if holder else f"the {self.terms.arsenal}"
                raise ValidationError(f"{item.name} is already with {where}: choose where it goes.")
        return data

    def cleaned_item(self) -> Item:
        return self.items[self.cleaned_data["item"]]

    def cleaned_holder(self) -> Fighter | None:
        return self.holders.get(self.cleaned_data["to"])


class InjuryForm(forms.Form):
    """An Injury added by hand: a result of the campaign's Trauma Table, or one typed in."""

    OTHER = "other"

    result = forms.ChoiceField(label="Trauma result")
    name = forms.CharField(max_length=100, required=False, help_text="Only for a result not on the table.")
    effect = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    d66 = forms.IntegerField(
        label="D66 roll",
        required=False,
        min_value=11,
        max_value=66,
        error_messages={
            "min_value": "A D66 roll has two digits, each 1 to 6.",
            "max_value": "A D66 roll has two digits, each 1 to 6.",
        },
    )

    def __init__(self, *args, table_rows: list[dict], **kwargs):
        super().__init__(*args, **kwargs)
        self.rows = {row["code"]: row for row in table_rows if row.get("injury")}
        self.fields["result"].choices = [
            *[(code, row["name"]) for code, row in self.rows.items()],
            (self.OTHER, "Another result (type its name)"),
        ]

    def clean_d66(self):
        d66 = self.cleaned_data["d66"]
        if d66 is not None and not (1 <= d66 // 10 <= 6 and 1 <= d66 % 10 <= 6):
            raise ValidationError("A D66 roll has two digits, each 1 to 6.")
        return d66

    def clean(self):
        data = super().clean()
        code = data.get("result")
        if code == self.OTHER:
            name = (data.get("name") or "").strip()
            if not name:
                self.add_error("name", "Type the name of the result.")
            data["code"] = "_".join(name.lower().split())[:40] or "other"
            data["name"] = name
        elif code in self.rows:
            row = self.rows[code]
            data["code"] = code
            data["name"] = row["name"]
            data["effect"] = (data.get("effect") or "").strip() or row["effect"]
        return data


class GameForm(forms.Form):
    """A game: date, scenario, notes and, per warband, whether it played, its result and its fighters taken Out
    of Action. `mode` is "record" (a finished game) or "play" (start it now and track it)."""

    RECORD = "record"
    PLAY = "play"

    mode = forms.ChoiceField(
        choices=[(RECORD, "Record a finished game"), (PLAY, "Play it now with the tracker")],
        initial=RECORD,
        widget=forms.RadioSelect,
        label="How",
    )
    played_on = forms.DateField(
        label="Date", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    scenario = forms.CharField(max_length=100, required=False)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(
        self, *args, warbands, editing: bool = False, terms: Terms | None = None, settable=None, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.warbands = warbands
        self.editing = editing
        self.terms = terms or terms_for(None)
        self.fields["played_on"].initial = datetime.date.today
        if editing:
            del self.fields["mode"]
        results = [("", "—"), *GamePlayer.Result.choices]
        for warband in warbands:
            self.fields[f"wb{warband.pk}_played"] = forms.BooleanField(label="Took part", required=False)
            self.fields[f"wb{warband.pk}_result"] = forms.ChoiceField(
                label="Result", choices=results, required=False
            )
            self.fields[f"wb{warband.pk}_out"] = forms.MultipleChoiceField(
                label="Out of Action",
                choices=[(str(f.pk), f.name) for f in warband.active_fighters],
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            if settable is not None and warband.pk not in settable:
                # Another player's side (campaigns.access.can_set_game_side): shown, kept as it is, whatever
                # the request sends (a disabled field takes its initial value).
                for part in ("played", "result", "out"):
                    self.fields[f"wb{warband.pk}_{part}"].disabled = True

    @property
    def recording(self) -> bool:
        if self.editing:
            return True
        value = self.data.get(self.add_prefix("mode")) if self.is_bound else self.RECORD
        return value != self.PLAY

    def sections(self):
        """Per warband: (warband, took-part field, result field, Out of Action field), for the template."""
        return [
            (w, self[f"wb{w.pk}_played"], self[f"wb{w.pk}_result"], self[f"wb{w.pk}_out"])
            for w in self.warbands
        ]

    def clean(self):
        data = super().clean()
        playing = [w for w in self.warbands if data.get(f"wb{w.pk}_played")]
        if len(playing) < 2:
            raise ValidationError(f"Tick at least two {self.terms.warbands} that took part.")
        recording = self.editing or data.get("mode") == self.RECORD
        for warband in playing:
            if recording and not data.get(f"wb{warband.pk}_result"):
                self.add_error(f"wb{warband.pk}_result", f"Give {warband.name}'s result.")
        data["playing"] = playing
        return data

    def entries(self):
        """The warbands that took part as services.GameEntry values (Out of Action only when recording)."""
        from rosters.services import GameEntry

        entries = []
        for warband in self.cleaned_data["playing"]:
            marked = set(self.cleaned_data.get(f"wb{warband.pk}_out") or ())
            out = [f for f in warband.active_fighters if str(f.pk) in marked]
            entries.append(
                GameEntry(
                    warband=warband,
                    result=self.cleaned_data.get(f"wb{warband.pk}_result") or "",
                    out_of_action=out,
                )
            )
        return entries
