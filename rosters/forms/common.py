"""What the roster forms share: keywords typed as text, and number and text fields whose limits come from the
model field they fill (rosters/limits.py), so a form refuses exactly what the model refuses, with a message beside
the field rather than a constraint error."""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from campaigns.fields import WholeNumberField
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
