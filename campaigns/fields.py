"""Form fields every app shares (campaigns is the lowest app, so rosters and combat may import it)."""

from django import forms
from django.core.exceptions import ValidationError

# Django's IntegerField reads any Unicode digit through int(): "١" (Arabic-Indic one) would be stored as 1.
# A player types numbers with the digits 0-9; another script's digit is refused with a message, never read.


class WholeNumberField(forms.IntegerField):
    """An IntegerField that takes only the digits 0-9 (a Unicode digit is never read as a number)."""

    default_error_messages = {"digits": "Type a whole number with the digits 0-9."}

    def to_python(self, value):
        if isinstance(value, str) and any(char.isdigit() and not char.isascii() for char in value):
            raise ValidationError(self.error_messages["digits"], code="digits")
        return super().to_python(value)
