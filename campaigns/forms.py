from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError

from campaigns.models import Campaign, Membership
from campaigns.trauma_tables import ENTRY_FIELDS, TraumaTableError, check_rows


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
