"""The game form: date, scenario, notes and, per warband, whether it played, its result and its fighters taken Out
of Action."""

import datetime

from django import forms
from django.core.exceptions import ValidationError

from campaigns.fields import WholeNumberField
from campaigns.models import VICTORY_POINTS_MAX, Game, GamePlayer
from campaigns.terms import Terms, terms_for
from combat.rules.words import possessive
from rosters.services.games import GameEntry


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
    scenario = forms.CharField(max_length=Game._meta.get_field("scenario").max_length, required=False)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(
        self,
        *args,
        warbands,
        editing: bool = False,
        terms: Terms | None = None,
        recorder_id: int | None = None,
        settable=None,
        **kwargs,
    ):
        """`recorder_id`: a player who may record only the games one of their own warbands played in (None: the
        organiser, or a correction, who may record any). `settable`: the warband ids whose side this person may
        set (campaigns.access.can_set_game_side; None: every side)."""
        super().__init__(*args, **kwargs)
        self.warbands = warbands
        self.editing = editing
        self.recorder_id = recorder_id
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
            self.fields[f"wb{warband.pk}_vp"] = WholeNumberField(
                label="Victory Points",
                min_value=0,
                max_value=VICTORY_POINTS_MAX,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                error_messages={
                    "min_value": "Victory Points are at least 0.",
                    "max_value": f"Victory Points are at most {VICTORY_POINTS_MAX}.",
                    "invalid": "Victory Points must be a whole number.",
                },
            )
            self.fields[f"wb{warband.pk}_out"] = forms.MultipleChoiceField(
                label="Out of Action",
                choices=[(str(f.pk), f.name) for f in warband.active_fighters],
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            if settable is not None and warband.pk not in settable:
                # Another player's side: shown, kept as it is, whatever the request sends (a disabled field
                # takes its initial value).
                for part in ("played", "result", "vp", "out"):
                    self.fields[f"wb{warband.pk}_{part}"].disabled = True

    @property
    def recording(self) -> bool:
        if self.editing:
            return True
        value = self.data.get(self.add_prefix("mode")) if self.is_bound else self.RECORD
        return value != self.PLAY

    def sections(self):
        """Per warband: (warband, took-part field, result field, Out of Action field, Victory Points field)."""
        return [
            (
                w,
                self[f"wb{w.pk}_played"],
                self[f"wb{w.pk}_result"],
                self[f"wb{w.pk}_out"],
                self[f"wb{w.pk}_vp"],
            )
            for w in self.warbands
        ]

    def clean(self):
        data = super().clean()
        playing = [w for w in self.warbands if data.get(f"wb{w.pk}_played")]
        if len(playing) < 2:
            raise ValidationError(f"Tick at least two {self.terms.warbands} that took part.")
        if self.recorder_id is not None and not any(w.owner_id == self.recorder_id for w in playing):
            raise ValidationError(
                f"Record a game one of your {self.terms.warbands} played in (or ask the organiser)."
            )
        recording = self.editing or data.get("mode") == self.RECORD
        for warband in playing:
            if recording and not data.get(f"wb{warband.pk}_result"):
                self.add_error(f"wb{warband.pk}_result", f"Give {possessive(warband.name)} result.")
        data["playing"] = playing
        return data

    @property
    def playing_now(self) -> bool:
        """Start the game now for the tracker, rather than record a finished one."""
        return not self.editing and self.cleaned_data.get("mode") == self.PLAY

    def game_fields(self) -> dict:
        """The game's own fields, as the services take them."""
        return {name: self.cleaned_data[name] for name in ("played_on", "scenario", "notes")}

    def entries(self):
        """The warbands that took part as services.GameEntry values (Out of Action only when recording)."""
        entries = []
        for warband in self.cleaned_data["playing"]:
            marked = set(self.cleaned_data.get(f"wb{warband.pk}_out") or ())
            out = [f for f in warband.active_fighters if str(f.pk) in marked]
            entries.append(
                GameEntry(
                    warband=warband,
                    result=self.cleaned_data.get(f"wb{warband.pk}_result") or "",
                    out_of_action=out,
                    victory_points=self.cleaned_data.get(f"wb{warband.pk}_vp") or 0,
                )
            )
        return entries
