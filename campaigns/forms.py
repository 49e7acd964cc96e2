from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError

from campaigns.models import Campaign, Membership


class SignupForm(UserCreationForm):
    """Django's sign-up form plus an e-mail address, so a forgotten password can be reset."""

    email = forms.EmailField(help_text="Only used to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class CampaignForm(forms.ModelForm):
    """A new campaign, or its settings (with `status` when the campaign already exists)."""

    scar_limit = forms.IntegerField(
        label="Battle Scar limit",
        min_value=1,
        max_value=10,
        initial=3,
        help_text="An ELITE fighter with this many Battle Scars is Unfit For Duty (RULING T-4; 3 in the rules).",
        error_messages={
            "min_value": "The Battle Scar limit is at least 1.",
            "max_value": "The Battle Scar limit is at most 10.",
        },
    )

    class Meta:
        model = Campaign
        fields = ["name", "description", "preset", "scar_limit"]
        labels = {"preset": "Rules"}
        help_texts = {
            "preset": "Sets the words the pages use: ELITE/Troop and ducats, or Champion/Grunt and caps."
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError("Give the campaign a name.")
        return name


class CampaignSettingsForm(CampaignForm):
    class Meta(CampaignForm.Meta):
        fields = ["name", "description", "preset", "scar_limit", "status"]
        help_texts = {
            **CampaignForm.Meta.help_texts,
            "status": "An archived campaign can still be read; it takes no new members and no new games.",
        }


class MemberForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)
