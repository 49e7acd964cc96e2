"""How people are named on every page: by the display name they chose, the username only on their
account page.

The display name is kept in Django's own `User.first_name` (150 characters; the forms allow
`DISPLAY_NAME_MAX_LENGTH`), so naming a person costs no query beyond the user row the page already has, and the
history's sentences, which read `first_name` from the event tables, name them the same way.

It lives in campaigns with the members it names (the lowest app): every app names people through it.
"""

from __future__ import annotations

DISPLAY_NAME_MAX_LENGTH = 40


def display_name(user) -> str:
    """The name the group knows someone by: their display name, else their username; "someone" for nobody (a
    deleted account)."""
    if user is None:
        return "someone"
    return (user.first_name or user.get_username()).strip() or user.get_username()
