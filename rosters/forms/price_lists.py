"""The price list editor's forms (issue 13): the rows as CSV text to edit or paste, and an import of a file."""

from django import forms
from django.core.exceptions import ValidationError

from rosters.models import PRICE_LIST_NOTE_LENGTH
from rosters.price_lists import MAX_FILE_BYTES


def _note() -> forms.CharField:
    return forms.CharField(
        label="Note (optional)",
        max_length=PRICE_LIST_NOTE_LENGTH,
        required=False,
        help_text="Why this version: it is shown in the version list and the campaign's history.",
    )


class PriceRowsForm(forms.Form):
    rows = forms.CharField(
        label="Rows (CSV: the first line names the fields; keywords separated by ;)",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
        max_length=MAX_FILE_BYTES,
    )
    note = _note()

    def __init__(self, *args, kind: str, **kwargs):
        super().__init__(*args, prefix=kind, **kwargs)


class PriceImportForm(forms.Form):
    FORMATS = [("auto", "Tell from the file"), ("csv", "CSV"), ("json", "JSON")]

    file = forms.FileField(label="A CSV or JSON file", required=False)
    text = forms.CharField(
        label="…or paste it here",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "class": "mono"}),
        max_length=MAX_FILE_BYTES,
    )
    format = forms.ChoiceField(choices=FORMATS, initial="auto")
    note = _note()

    def __init__(self, *args, kind: str, **kwargs):
        super().__init__(*args, prefix=f"{kind}-import", **kwargs)

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload is not None and upload.size > MAX_FILE_BYTES:
            raise ValidationError(f"The file is larger than {MAX_FILE_BYTES // 1000} kB: not a price list.")
        return upload

    def clean(self):
        data = super().clean()
        if not data.get("file") and not (data.get("text") or "").strip():
            raise ValidationError("Choose a file or paste its text.")
        return data

    @property
    def content(self) -> str | bytes:
        upload = self.cleaned_data.get("file")
        return upload.read() if upload is not None else self.cleaned_data["text"]

    @property
    def fmt(self) -> str:
        upload = self.cleaned_data.get("file")
        chosen = self.cleaned_data["format"]
        if chosen == "auto" and upload is not None and upload.name.lower().endswith((".csv", ".json")):
            return upload.name.lower().rsplit(".", 1)[1]
        return chosen
