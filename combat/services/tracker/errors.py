"""The tracker's refusals: plain domain errors with the reason the page shows. They carry no HTTP status; the
views map them (`TrackerConflict` and `TrackerBlocked` to 409, any other `TrackerError` to 422 or 400)."""


class TrackerError(Exception):
    """An action refused, with the reason the page shows; nothing was changed."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        # The form field the reason belongs beside, when one does (a face typed, the markers spent).
        self.field = field


class TrackerConflict(TrackerError):
    """The board changed under the form since it was filled in (another phone acted first)."""


class TrackerBlocked(TrackerError):
    """The action must wait: a pending step comes first, or the game is over."""
