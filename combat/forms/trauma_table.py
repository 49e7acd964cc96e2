"""The house Trauma Table editor's form: one form per row, the rows together checked by the engine (RULING T-3)."""

from django import forms
from django.core.exceptions import ValidationError

from campaigns.fields import WholeNumberField
from combat import rules
from combat.rules.trauma_table import ENTRY_FIELDS


class TraumaRowForm(forms.Form):
    """One row of a house Trauma Table, as in the shipped data file (TRAUMA_TABLE.md)."""

    low = WholeNumberField(label="From", min_value=11, max_value=66)
    high = WholeNumberField(label="To", min_value=11, max_value=66)
    code = forms.CharField(max_length=40, help_text="lower_case id; the rules give some codes their effect.")
    name = forms.CharField(max_length=100)
    effect = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    scar = forms.BooleanField(label="Battle Scar", required=False)
    injury = forms.BooleanField(label="Injury", required=False)

    def clean_code(self):
        return self.cleaned_data["code"].strip()


class BaseTraumaTableFormSet(forms.BaseFormSet):
    """The rows together: every problem the engine finds, named by the row numbers the page shows."""

    def clean(self):
        if any(self.errors):
            return
        rows, labels = [], []
        for number, form in enumerate(self.forms, start=1):
            if not form.has_changed() and form.empty_permitted:
                continue  # the blank row for a new result, left blank
            if self.can_delete and self._should_delete_form(form):
                continue
            rows.append({name: form.cleaned_data[name] for name in ENTRY_FIELDS})
            labels.append(f"Row {number}")
        problems = rules.TraumaTable.problems(rows, labels=labels)
        if problems:
            raise ValidationError(list(problems))
        self.rows = rows


TraumaTableFormSet = forms.formset_factory(
    TraumaRowForm, formset=BaseTraumaTableFormSet, extra=1, can_delete=True, max_num=36, validate_max=True
)
