"""Every 403 was logged with a full traceback: now one line, the traceback kept for errors."""

import logging

import pytest

from config.log_filters import RefusalsWithoutTraceback

pytestmark = pytest.mark.django_db


def test_a_refusal_is_logged_as_one_line_without_a_traceback(client, spectator, campaign, caplog):
    client.force_login(spectator)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(f"/campaigns/{campaign.pk}/settings/")
    assert response.status_code == 403
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.getMessage() == f"Forbidden (Permission denied): /campaigns/{campaign.pk}/settings/"
    # The record as it leaves the console handler's filter.
    assert RefusalsWithoutTraceback().filter(record) is True
    assert record.exc_info is None
    assert "Traceback" not in logging.Formatter().format(record)


def test_the_console_handler_filters_refusals(settings):
    handler = settings.LOGGING["handlers"]["console"]
    assert handler["filters"] == ["refusals_without_traceback"]
    assert (
        settings.LOGGING["filters"]["refusals_without_traceback"]["()"]
        == "config.log_filters.RefusalsWithoutTraceback"
    )


def test_other_records_keep_their_traceback():
    try:
        raise ValueError("a bug")
    except ValueError:
        import sys

        record = logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "Internal Server Error", (), sys.exc_info()
        )
    record.status_code = 500
    assert RefusalsWithoutTraceback().filter(record) is True
    assert record.exc_info is not None
