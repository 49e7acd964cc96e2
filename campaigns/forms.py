from django import forms
from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Django's sign-up form plus an e-mail address, so a forgotten password can be reset."""

    email = forms.EmailField(help_text="Only used to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
