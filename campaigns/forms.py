from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError

from campaigns.fields import WholeNumberField
from campaigns.limits import value_bounds
from campaigns.models import BattleReport, Campaign, Membership
from campaigns.people import DISPLAY_NAME_MAX_LENGTH


def display_name_field(*, required: bool) -> forms.CharField:
    return forms.CharField(
        label="Display name",
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=required,
        strip=True,
        help_text="How the group sees you on every page"
        + ("; leave it blank to use your username." if not required else "."),
    )


# Required, and the help says why: a forgotten password is reset only by a link sent to this address (there is no
# other way back into an account), and it serves nothing else: invitations go by link, and no page shows it.
EMAIL_HELP = (
    "Required: it is where a link to reset a forgotten password is sent, the only way back into your account. "
    "It is used for nothing else and shown to no one."
)


class SignupForm(UserCreationForm):
    """Django's sign-up form plus a display name and an e-mail address, so a forgotten password can be
    reset."""

    display_name = display_name_field(required=False)
    email = forms.EmailField(help_text=EMAIL_HELP)
    field_order = ["display_name", "username", "email", "password1", "password2"]

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def save(self, commit=True):
        user = super().save(commit=False)
        user.first_name = self.cleaned_data.get("display_name") or ""
        if commit:
            user.save()
        return user


class AccountForm(forms.Form):
    """The account page: the display name everyone sees and the e-mail for password resets."""

    display_name = display_name_field(required=True)
    email = forms.EmailField(help_text=EMAIL_HELP)


SCAR_LIMIT_MIN, SCAR_LIMIT_MAX = value_bounds(Campaign, "scar_limit")
SCAR_LIMIT_DEFAULT = Campaign._meta.get_field("scar_limit").default


class CampaignForm(forms.ModelForm):
    """A new campaign, or its settings (with `status` when the campaign already exists)."""

    # The bounds and the default are the model field's (campaigns/models.py); only the words are the form's.
    scar_limit = WholeNumberField(
        label="Battle Scar limit",
        min_value=SCAR_LIMIT_MIN,
        max_value=SCAR_LIMIT_MAX,
        initial=SCAR_LIMIT_DEFAULT,
        help_text=(
            "An ELITE fighter with this many Battle Scars is Unfit For Duty "
            f"(RULING T-4; {SCAR_LIMIT_DEFAULT} in the rules)."
        ),
        error_messages={
            "min_value": f"The Battle Scar limit is at least {SCAR_LIMIT_MIN}.",
            "max_value": f"The Battle Scar limit is at most {SCAR_LIMIT_MAX}.",
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
        # Which campaign-phase steps the preset uses (Threshold and Field Strength may be off).
        fields = ["name", "description", "preset", "scar_limit", "status", "uses_limits"]
        help_texts = {
            **CampaignForm.Meta.help_texts,
            "status": "An archived campaign can still be read; it takes no new members and no new games.",
        }


CHOOSE_A_ROLE = "Choose organiser, player or spectator."


class MemberForm(forms.Form):
    """A member's new role, or `remove` to take them out of the campaign (the settings page's two buttons)."""

    role = forms.ChoiceField(
        choices=Membership.Role.choices, required=False, error_messages={"invalid_choice": CHOOSE_A_ROLE}
    )
    remove = forms.BooleanField(required=False)

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("remove") and not cleaned.get("role") and "role" not in self.errors:
            raise ValidationError(CHOOSE_A_ROLE)
        return cleaned


class BattleReportForm(forms.ModelForm):
    """A game's battle report: a title and plain text. The lengths are the model fields' (campaigns/models.py)."""

    class Meta:
        model = BattleReport
        fields = ("title", "text")
        labels = {"title": "Title", "text": "The report"}
        help_texts = {"text": "Plain text: line breaks are kept; no formatting or links."}
        widgets = {"text": forms.Textarea(attrs={"rows": 12})}
