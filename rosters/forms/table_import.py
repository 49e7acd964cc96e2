"""What every "import a table" form shares (the campaign data's and the price lists'): an uploaded file or pasted
text, its size checked, and its format told from the file's name when the player leaves it to the tool.

A mixin for a `forms.Form` that declares `file`, `text` and `format` itself (each keeps its own labels and
sizes); `max_bytes` and `what` ("campaign data", "a price list") say the limit and the words of the refusal.

It lives in rosters, the lowest app that imports a table (its price lists; combat's campaign data imports it
from here): campaigns imports none.
"""

from django.core.exceptions import ValidationError

FORMATS = [("auto", "Tell from the file"), ("csv", "CSV"), ("json", "JSON")]


class TableImportMixin:
    max_bytes: int
    what: str

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload is not None and upload.size > self.max_bytes:
            raise ValidationError(f"The file is larger than {self.max_bytes // 1000} kB: not {self.what}.")
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
        """csv or json: as chosen, or from the file's name when left to the tool."""
        upload = self.cleaned_data.get("file")
        chosen = self.cleaned_data["format"]
        if chosen == "auto" and upload is not None and upload.name.lower().endswith((".csv", ".json")):
            return upload.name.lower().rsplit(".", 1)[1]
        return chosen
