"""The password reset behind its throttle (config/urls_accounts.py): a known and an unknown e-mail address are
answered alike, below the rate limit and past it: the same answer, the same queries, the same password-hash work
(none), and about the same time, so neither the answer nor its timing tells which addresses have an account.

The e-mail for a known address is sent after the answer has gone (campaigns/views/password_reset.py): the
response's `close()`, which the WSGI server calls once the last byte is written, is left out of every measure
here, as the visitor never waits for it.
"""

import re
import statistics
import time

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core import mail
from django.core.cache import cache
from django.core.signals import request_finished
from django.db import close_old_connections, connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import resolve

from config import throttling

pytestmark = pytest.mark.django_db

URL = "/accounts/password_reset/"
KNOWN, UNKNOWN = "erin@example.org", "nobody@example.org"
CSRF_TOKEN = re.compile(rb'"X-CSRFToken": "[^"]+"|name="csrfmiddlewaretoken" value="[^"]+"')
ROUNDS = 40
# Generous, for a loaded machine: the medians may differ by half the faster one, or 2 ms. Sending the e-mail
# while the visitor waits made a known address 10 to 15 times slower; the mail server here takes 20 ms.
RATIO, SLACK_SECONDS = 1.5, 0.002
MAIL_SECONDS = 0.02


class SlowMailServer:
    """An e-mail backend a little slower than the answer, as an SMTP server is, keeping what it sends."""

    sent: list = []

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        time.sleep(MAIL_SECONDS)
        SlowMailServer.sent.extend(messages)
        return len(messages)


class CountingHasher(MD5PasswordHasher):
    """The test settings' hasher, counting every password hashed or checked."""

    work: list[str] = []

    def encode(self, password, salt):
        CountingHasher.work.append("encode")
        return super().encode(password, salt)

    def verify(self, password, encoded):
        CountingHasher.work.append("verify")
        return super().verify(password, encoded)

    def harden_runtime(self, password, encoded):
        CountingHasher.work.append("harden")
        return super().harden_runtime(password, encoded)


@pytest.fixture(autouse=True)
def fresh_counts():
    """The throttle's counts emptied; and an answer's `close()` leaves the test's connection open (the signal it
    sends closes a request's connections, which here is the test's transaction), as Django's test client does."""
    cache.clear()
    request_finished.disconnect(close_old_connections)
    yield
    request_finished.connect(close_old_connections)
    cache.clear()


@pytest.fixture
def erin(make_user):
    return make_user("erin")


def ask(email: str, *, address: str = "10.7.0.1"):
    """The reset asked for `email` through the URL's view (the throttle, then the reset), as a WSGI server would
    call it; returns the answer, not yet closed, and how long it took."""
    request = RequestFactory().post(URL, {"email": email}, REMOTE_ADDR=address)
    request._dont_enforce_csrf_checks = True
    started = time.perf_counter()
    response = resolve(URL).func(request)
    return response, time.perf_counter() - started


def answer_of(response) -> tuple:
    """What the visitor is told; a page's CSRF token, new on every page, aside."""
    return response.status_code, response.get("Location"), CSRF_TOKEN.sub(b"(token)", response.content)


def test_a_reset_for_known_and_unknown_gets_the_same_answer_with_the_same_queries_and_no_hashing(
    erin, settings
):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    ask("warm-up@example.org")  # the first call in a process loads what it imports
    seen = {}
    for email in (KNOWN, UNKNOWN):
        CountingHasher.work = []
        with CaptureQueriesContext(connection) as queries:
            response, _ = ask(email)
        seen[email] = (answer_of(response), len(queries), CountingHasher.work)
        response.close()  # after the answer: the known address's e-mail goes now
    assert seen[KNOWN] == seen[UNKNOWN]
    assert seen[KNOWN][0][:2] == (302, "/accounts/password_reset/done/")
    assert seen[KNOWN][2] == []  # no password is hashed for either
    assert [message.to for message in mail.outbox] == [[KNOWN]]


def test_a_reset_for_known_and_unknown_takes_about_the_same_time_below_the_limit(erin, settings):
    settings.EMAIL_BACKEND = f"{__name__}.SlowMailServer"
    SlowMailServer.sent = []
    ask("warm-up@example.org")
    took = {KNOWN: [], UNKNOWN: []}
    for number in range(ROUNDS):
        # Interleaved, each first in turn: a busy moment of the machine falls on both alike.
        for email in (KNOWN, UNKNOWN) if number % 2 else (UNKNOWN, KNOWN):
            response, seconds = ask(email, address=f"10.7.{number}.{len(email)}")
            assert response.status_code == 302  # below the limit: answered, not throttled
            response.close()
            took[email].append(seconds)
    known, unknown = statistics.median(took[KNOWN]), statistics.median(took[UNKNOWN])
    assert abs(known - unknown) <= (RATIO - 1) * min(known, unknown) + SLACK_SECONDS, (known, unknown)
    assert len(SlowMailServer.sent) == ROUNDS


def test_a_reset_past_the_limit_refuses_known_and_unknown_alike(erin, settings, monkeypatch):
    # One moment for both askers: the refusal says the minutes left in the window, which a run that crosses a
    # minute between the two would tell apart though the two are answered alike.
    moment = throttling.clock()
    monkeypatch.setattr(throttling, "clock", lambda: moment)
    settings.PASSWORD_RESETS_PER_HOUR = 5
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    ask("warm-up@example.org", address="10.8.0.1")
    answers = {}
    for email, address in ((KNOWN, "10.8.1.1"), (UNKNOWN, "10.8.2.1")):
        CountingHasher.work = []
        steps = []
        for _ in range(7):
            with CaptureQueriesContext(connection) as queries:
                response, _ = ask(email, address=address)
            steps.append((answer_of(response), len(queries)))
            response.close()
        answers[email] = (steps, CountingHasher.work)
    assert answers[KNOWN] == answers[UNKNOWN]
    steps, work = answers[KNOWN]
    assert [answer[0] for answer, _ in steps] == [302] * 5 + [429] * 2
    assert b"Too many password reset requests" in steps[-1][0][2]
    assert [count for _, count in steps[5:]] == [0, 0]  # refused from the cache alone, before any lookup
    assert work == []
    assert [message.to for message in mail.outbox] == [[KNOWN]] * 5
