from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError

from campaigns.limits import value_bounds
from campaigns.models import Campaign, Membership
from campaigns.trauma_tables import ENTRY_FIELDS, TraumaTableError, check_rows


class SignupForm(UserCreationForm):
    """Django's sign-up form plus an e-mail address, so a forgotten password can be reset."""

    email = forms.EmailField(help_text="Only used to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


SCAR_LIMIT_MIN, SCAR_LIMIT_MAX = value_bounds(Campaign, "scar_limit")
SCAR_LIMIT_DEFAULT = Campaign._meta.get_field("scar_limit").default


class CampaignForm(forms.ModelForm):
    """A new campaign, or its settings (with `status` when the campaign already exists)."""

    # The bounds and the default are the model field's (campaigns/models.py); only the words are the form's.
    scar_limit = forms.IntegerField(
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
        fields = ["name", "description", "preset", "scar_limit", "status"]
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


class TraumaRowForm(forms.Form):
    """One row of a house Trauma Table, as in the shipped data file (TRAUMA_TABLE.md)."""

    low = forms.IntegerField(label="From", min_value=11, max_value=66)
    high = forms.IntegerField(label="To", min_value=11, max_value=66)
    code = forms.CharField(max_length=40, help_text="lower_case id; the rules give some codes their effect.")
    name = forms.CharField(max_length=100)
    effect = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    scar = forms.BooleanField(label="Battle Scar", required=False)
    injury = forms.BooleanField(label="Injury", required=False)

    def clean_code(self):
        return self.cleaned_data["code"].strip()


class BaseTraumaTableFormSet(forms.BaseFormSet):
    """The rows together: every D66 result 11-66 in exactly one row (campaigns/trauma_tables.py)."""

    def clean(self):
        if any(self.errors):
            return
        rows = []
        for form in self.forms:
            if not form.has_changed() and form.empty_permitted:
                continue
            if self.can_delete and self._should_delete_form(form):
                continue
            rows.append({name: form.cleaned_data[name] for name in ENTRY_FIELDS})
        try:
            self.rows = check_rows(rows)
        except TraumaTableError as error:
            raise ValidationError(error.messages) from error


TraumaTableFormSet = forms.formset_factory(
    TraumaRowForm, formset=BaseTraumaTableFormSet, extra=1, can_delete=True, max_num=36, validate_max=True
)
