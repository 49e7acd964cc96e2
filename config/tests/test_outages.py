"""Outages answered, never crashed: 503 pages, /healthz whatever comes with it, one retry."""

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError, connection
from django.test import Client, override_settings

from config.outages import is_lost_connection
from config.tests.shared_cache import dead_redis_settings

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(organiser):
    # The test client would re-raise the exception behind a 503; a browser only sees the answer.
    client = Client(raise_request_exception=False)
    client.force_login(organiser)
    return client


@pytest.fixture
def lost_session_reads(monkeypatch):
    """The session read of every request fails as a dropped connection does, `fail` times (all when None)."""
    calls = {"count": 0, "fail": None}
    load = SessionStore.load

    def flaky(self):
        calls["count"] += 1
        if calls["fail"] is None or calls["count"] <= calls["fail"]:
            raise OperationalError("terminating connection due to administrator command")
        return load(self)

    monkeypatch.setattr(SessionStore, "load", flaky)
    return calls


def test_a_logged_in_page_answers_a_short_503_page_when_the_database_is_gone(logged_in, lost_session_reads):
    response = logged_in.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert b"The ledger is briefly unavailable" in response.content
    assert b"Nothing was lost" in response.content
    assert b"ledger.css" in response.content


@override_settings(DEBUG=True)
def test_with_debug_on_a_lost_database_is_still_a_503_not_the_debug_page(logged_in, lost_session_reads):
    """`make dev`: Django's technical 500 page, not handler500, is what DEBUG builds for an exception."""
    response = logged_in.get("/")
    assert response.status_code == 503
    assert b"The ledger is briefly unavailable" in response.content


@override_settings(DEBUG=True)
def test_with_debug_on_a_bug_is_still_the_debug_500(logged_in, monkeypatch):
    from django.db import IntegrityError

    def broken(self):
        raise IntegrityError("duplicate key")

    monkeypatch.setattr(SessionStore, "load", broken)
    response = logged_in.get("/")
    assert response.status_code == 500
    assert b"IntegrityError" in response.content


@pytest.mark.parametrize("debug", [False, True])
def test_a_redis_that_is_down_answers_a_logged_in_page_503_in_every_mode(logged_in, debug):
    with override_settings(**dead_redis_settings(), DEBUG=debug):
        response = logged_in.get("/")
    assert response.status_code == 503
    assert b"The ledger is briefly unavailable" in response.content


def test_healthz_answers_503_whatever_cookies_come_with_it(logged_in, monkeypatch):
    from django.db.backends.postgresql.base import DatabaseWrapper

    def unreachable(self, *args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(DatabaseWrapper, "cursor", unreachable)
    response = logged_in.get("/healthz", HTTP_COOKIE="sessionid=whatever; csrftoken=x")
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "unreachable"}
    # The logged-in client's own session cookie too.
    assert logged_in.get("/healthz").status_code == 503


def test_a_read_that_loses_its_connection_is_retried_once_on_a_fresh_one(logged_in, lost_session_reads):
    lost_session_reads["fail"] = 1
    response = logged_in.get("/")
    assert response.status_code == 200
    assert lost_session_reads["count"] == 2


def test_a_read_is_retried_only_once(logged_in, lost_session_reads):
    response = logged_in.get("/")
    assert response.status_code == 503
    assert lost_session_reads["count"] == 2


def test_a_write_that_loses_its_connection_answers_503_and_is_not_retried(logged_in, lost_session_reads):
    from campaigns.models import Campaign

    before = Campaign.objects.count()
    lost_session_reads["fail"] = 1
    response = logged_in.post("/campaigns/new/", {"name": "Lost in the post", "preset": "trench_crusade"})
    assert response.status_code == 503
    assert lost_session_reads["count"] == 1
    assert Campaign.objects.count() == before


def test_a_bug_in_the_database_layer_is_still_a_500(logged_in, monkeypatch):
    from django.db import IntegrityError

    def broken(self):
        raise IntegrityError("duplicate key")

    monkeypatch.setattr(SessionStore, "load", broken)
    assert logged_in.get("/").status_code == 500


def test_lost_connections_are_told_from_bugs():
    from django.db import DataError, IntegrityError, InterfaceError

    assert is_lost_connection(OperationalError("server closed the connection unexpectedly"))
    assert is_lost_connection(InterfaceError("connection already closed"))
    assert not is_lost_connection(IntegrityError("duplicate key"))
    assert not is_lost_connection(DataError("value too long"))
    assert not is_lost_connection(None)


def test_connections_are_health_checked_before_reuse():
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    assert connection.settings_dict["CONN_MAX_AGE"] > 0
