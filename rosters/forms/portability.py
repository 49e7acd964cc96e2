"""The import form: one warband file, refused by its size before a byte of it is read, then checked through."""

from django import forms
from django.core.exceptions import ValidationError

from rosters import portability
from rosters.models.limits import NAME_LENGTH

TOO_LARGE = f"The file is larger than {portability.MAX_BYTES // 1_000_000} MB; a warband file is far smaller."


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Warband file",
        help_text=f"A .json file exported from Warband Ledger (at most {portability.MAX_BYTES // 1_000_000} MB).",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    name = forms.CharField(
        label="Name in this campaign",
        required=False,
        max_length=NAME_LENGTH,
        help_text="Leave it empty to keep the file's name. Each warband in a campaign has a name of its own.",
    )

    def __init__(self, *args, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign  # the campaign the file goes into: a file of another game is refused

    def clean_name(self) -> str:
        return self.cleaned_data["name"].strip()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        # Refuse a large file by its size before reading a byte of it, and never read more than the limit.
        if upload.size > portability.MAX_BYTES:
            raise ValidationError(TOO_LARGE)
        raw = upload.read(portability.MAX_BYTES + 1)
        try:
            self.warband_data = portability.parse_warband_file(raw, campaign=self.campaign)
        except portability.ImportRefused as refused:
            raise ValidationError(refused.problems) from None
        return upload
