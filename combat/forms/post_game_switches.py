"""The campaign data page's form of the post-game's house rules: one box per step the engine lets a campaign
switch (`rules.POST_GAME_SWITCHES`), ticked when its post-game takes it. Whether the ticked boxes make a post-game
is the engine's to say, through the service, whose refusal the view puts beside the boxes."""

from django import forms

from combat import rules


class PostGameSwitchesForm(forms.Form):
    on = forms.MultipleChoiceField(
        label="Post-game steps",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[(switch.key, switch.name) for switch in rules.POST_GAME_SWITCHES],
        help_text="Out of Action opens every post-game and the Review closes it. A change applies to the "
        "post-games not started yet; one already started keeps its steps.",
    )
