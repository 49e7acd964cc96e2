"""The score of a game (each side's result and Victory Points) corrected at any time, with a reason."""

from django import forms

from campaigns.fields import WholeNumberField
from campaigns.models import VICTORY_POINTS_MAX, GamePlayer
from combat.rules.words import possessive
from rosters.services.game_scores import REASON_MAX_LENGTH, SideScore


class GameScoreForm(forms.Form):
    """Each side the user may set (`players`: its GamePlayer rows): result and Victory Points; and the reason the
    history tells. The limits are the model's (campaigns.models.VICTORY_POINTS_MAX)."""

    reason = forms.CharField(
        label="Why the score changes",
        max_length=REASON_MAX_LENGTH,
        widget=forms.TextInput(),
        error_messages={"required": "Say why the score changes: the history tells it to everyone."},
    )

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for player in self.players:
            name = possessive(player.warband.name)
            self.fields[f"result_{player.warband_id}"] = forms.ChoiceField(
                label=f"{name} result",
                choices=[("", "—"), *GamePlayer.Result.choices],
                initial=player.result,
                error_messages={"required": f"Enter {name} result."},
            )
            self.fields[f"vp_{player.warband_id}"] = WholeNumberField(
                label=f"{name} Victory Points",
                min_value=0,
                max_value=VICTORY_POINTS_MAX,
                initial=player.victory_points,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                error_messages={
                    "required": f"Enter {name} Victory Points (0 for none).",
                    "min_value": "Victory Points are at least 0.",
                    "max_value": f"Victory Points are at most {VICTORY_POINTS_MAX}.",
                    "invalid": "Victory Points must be a whole number.",
                },
            )
        # The reason last, after the numbers it explains.
        self.order_fields([*(name for name in self.fields if name != "reason"), "reason"])

    @property
    def sides(self):
        """Each side's warband with its result and Victory Points fields."""
        return [(p.warband, self[f"result_{p.warband_id}"], self[f"vp_{p.warband_id}"]) for p in self.players]

    def scores(self) -> dict[int, SideScore]:
        data = self.cleaned_data
        return {
            p.warband_id: SideScore(data[f"result_{p.warband_id}"], data[f"vp_{p.warband_id}"])
            for p in self.players
        }
