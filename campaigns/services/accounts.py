"""A person's own account: the display name the group sees and the e-mail for password resets."""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.people import DISPLAY_NAME_MAX_LENGTH


def _checked_display_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"display_name": "Give the name the group knows you by."})
    if len(name) > DISPLAY_NAME_MAX_LENGTH:
        raise ValidationError({"display_name": f"At most {DISPLAY_NAME_MAX_LENGTH} characters."})
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise ValidationError({"display_name": "A name cannot hold control characters."})
    return name


@transaction.atomic
def account_update(*, user, display_name: str, email: str):
    """The user's display name (kept in `first_name`, campaigns/people.py) and e-mail, both checked; nothing is
    saved when either is refused."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    user.first_name = _checked_display_name(display_name)
    user.email = get_user_model().objects.normalize_email(email)
    user.full_clean(exclude=["password", "username", "last_name"], validate_unique=False)
    user.save(update_fields=["first_name", "email"])
    return user
