"""The roster services' domain errors: a write refused, with the reason in words, and nothing written.

They are `ValidationError`s, so a form shows the reason beside its fields and every caller that already catches
`ValidationError` (the post-game, the tracker) keeps working; they carry no HTTP status: the views choose it.
"""

from django.core.exceptions import ValidationError


class RosterRefused(ValidationError):
    """A roster write that the rules of the roster refuse (a fighter not on the roster, XP below 0...)."""


class GameLocked(RosterRefused):
    """A game that can no longer change: its post-game has started, or it is not being played."""
