"""Logging filters named by LOGGING in config/settings.py."""

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """A 403 is the permission checks doing their job: keep its one-line record ("Forbidden (Permission denied):
    /games/3/edit/"), drop the traceback of the PermissionDenied that produced it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
