"""A skill added by hand on the fighter page: its name, and where it came from, within the model's lengths."""

from django import forms

from rosters.forms.common import clean_name, text_field
from rosters.models import Skill


class SkillForm(forms.Form):
    name = text_field(Skill, "name", label="Skill")
    chart = text_field(
        Skill,
        "chart",
        label="From",
        required=False,
        help_text="The chart and roll (Ranged 9), or an ability.",
    )

    def clean_name(self):
        return clean_name(self.cleaned_data["name"])
