"""Form fields, and the checks under them, every app shares (campaigns is the lowest app, so rosters and combat may
import it): the CSV imports read their numbers through the same check as the forms."""

from django import forms
from django.core.exceptions import ValidationError

# Django's IntegerField reads any Unicode digit through int(): "١" (Arabic-Indic one) would be stored as 1.
# A player types numbers with the digits 0-9; another script's digit is refused with a message, never read.
DIGITS_ONLY = "Type a whole number with the digits 0-9."


def other_digits(value) -> bool:
    """Whether a text holds a digit of another script ("١"), which Python's int() would read as a number."""
    return isinstance(value, str) and any(char.isdigit() and not char.isascii() for char in value)


class WholeNumberField(forms.IntegerField):
    """An IntegerField that takes only the digits 0-9 (a Unicode digit is never read as a number)."""

    default_error_messages = {"digits": DIGITS_ONLY}

    def to_python(self, value):
        if other_digits(value):
            raise ValidationError(self.error_messages["digits"], code="digits")
        return super().to_python(value)
