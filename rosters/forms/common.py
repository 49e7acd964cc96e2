"""What the roster forms share: keywords typed as text, and number and text fields whose limits come from the
model field they fill (rosters/limits.py), so a form refuses exactly what the model refuses, with a message beside
the field rather than a constraint error."""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from campaigns.fields import WholeNumberField
from campaigns.profiles import EXPECTED, read_value, shown
from rosters.limits import bounds, keyword_limits, max_length


def parse_keywords(text: str, *, model: type[models.Model]) -> list[str]:
    """'heavy, two-handed' -> ['HEAVY', 'TWO-HANDED']: comma-separated, trimmed, upper-case, each once, within the
    model's keyword length and count."""
    longest, most = keyword_limits(model)
    words: list[str] = []
    for word in (text or "").split(","):
        word = word.strip().upper()
        if word and word not in words:
            if len(word) > longest:
                raise ValidationError(f"The keyword {word[:20]}... is longer than {longest} characters.")
            words.append(word)
    if len(words) > most:
        raise ValidationError(f"At most {most} keywords.")
    return words


def number_field(model: type[models.Model], name: str, label: str, **kwargs) -> WholeNumberField:
    """A whole-number field with the model field's range and messages that name the field."""
    low, high = bounds(model, name)
    return WholeNumberField(
        label=label,
        min_value=low,
        max_value=high,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "min_value": f"{label} is at least {low}.",
            "max_value": f"{label} is at most {high}.",
            "invalid": f"{label} must be a whole number.",
        },
        **kwargs,
    )


def text_field(model: type[models.Model], name: str, **kwargs) -> forms.CharField:
    """A text field as long as the model's column (or the TextField's `max_length`) allows."""
    return forms.CharField(max_length=max_length(model, name), **kwargs)


def clean_name(value: str) -> str:
    name = value.strip()
    if not name:
        raise ValidationError("The name cannot be blank.")
    return name


class WrittenStatField(forms.Field):
    """A stat typed as the rules write it ("+1D", "-1"; campaigns/profiles.py), kept as its number, within the
    model field's range; shown back the same way."""

    def __init__(self, *, kind: str, low: int, high: int, label: str, **kwargs):
        self.kind, self.low, self.high = kind, low, high
        kwargs.setdefault("widget", forms.TextInput(attrs={"maxlength": 12, "autocapitalize": "characters"}))
        super().__init__(label=label, **kwargs)

    def prepare_value(self, value):
        return shown(self.kind, value) if isinstance(value, int) and not isinstance(value, bool) else value

    def to_python(self, value):
        text = value.strip() if isinstance(value, str) else value
        if text in self.empty_values:
            return None
        if isinstance(text, str) and len(text) > 12:
            raise ValidationError(f"{self.label} must be {EXPECTED[self.kind]}.", code="invalid")
        try:
            number = read_value(self.kind, text)
        except ValueError:
            raise ValidationError(f"{self.label} must be {EXPECTED[self.kind]}.", code="invalid") from None
        if number is not None and not self.low <= number <= self.high:
            raise ValidationError(
                f"{self.label} is from {shown(self.kind, self.low)} to {shown(self.kind, self.high)}.",
                code="range",
            )
        return number


def written_stat_field(
    model: type[models.Model], name: str, label: str, kind: str, **kwargs
) -> WrittenStatField:
    low, high = bounds(model, name)
    return WrittenStatField(kind=kind, low=low, high=high, label=label, **kwargs)
