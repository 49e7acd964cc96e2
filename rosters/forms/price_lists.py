"""The price list editor's forms: the rows as CSV text to edit or paste, and an import of a file."""

from django import forms

from rosters.forms.table_import import FORMATS, TableImportMixin
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


class PriceImportForm(TableImportMixin, forms.Form):
    FORMATS = FORMATS
    max_bytes, what = MAX_FILE_BYTES, "a price list"

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
