"""The campaign's own refusals, as domain errors: plain messages, never an HTTP status (views choose that).

Each is a `ValidationError`, so a form shows its message like any other, and a caller that only needs "refused"
catches `ValidationError`; a view that answers differently per reason catches the class.
"""

from django.core.exceptions import ValidationError


class CampaignError(ValidationError):
    """A write the campaign's invariants refuse; nothing was changed."""


class InvitationNotValid(CampaignError):
    """The invitation code is not (or no longer) the campaign's."""


class CampaignArchived(CampaignError):
    """An archived campaign can be read but takes no new members."""


class LastOrganiser(CampaignError):
    """A campaign always keeps one organiser."""


class ReportError(CampaignError):
    """A battle report the campaign refuses (a second one for the same game, text past its limits)."""
