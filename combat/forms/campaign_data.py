"""The campaign data editor's forms: the rows as CSV text (edit or paste), and an import from a file or a paste.

The limits come from the model module (combat/models/campaign_data.py); whether the rows make a chart or a table
is the engine's to say, through the service, whose problems the view puts beside the field.
"""

from django import forms

from combat.campaign_data_io import MAX_FILE_BYTES
from combat.models.campaign_data import NOTE_LENGTH
from rosters.forms.table_import import FORMATS, TableImportMixin


class NoteField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(
            label="Note (optional)",
            max_length=NOTE_LENGTH,
            required=False,
            help_text="Why this version: it is shown in the version list and the campaign's history.",
            **kwargs,
        )


class DataRowsForm(forms.Form):
    """The rows of one kind as CSV: the first line names the fields, then one row per line."""

    rows = forms.CharField(
        label="Rows (CSV: the first line names the fields)",
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "class": "mono"}),
        max_length=MAX_FILE_BYTES,
    )
    note = NoteField()


class DataImportForm(TableImportMixin, forms.Form):
    """A CSV or JSON export of this kind (this tool's, or a spreadsheet's CSV), uploaded or pasted."""

    FORMATS = FORMATS
    max_bytes, what = MAX_FILE_BYTES, "campaign data"

    file = forms.FileField(label="A CSV or JSON file", required=False)
    text = forms.CharField(
        label="…or paste it here",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "class": "mono"}),
        max_length=MAX_FILE_BYTES,
    )
    format = forms.ChoiceField(choices=FORMATS, initial="auto")
    note = NoteField()
