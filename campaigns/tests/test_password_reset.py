"""Password reset does the same work for known and unknown addresses: the e-mail is sent once
the answer has gone out, so the answer's timing says nothing about which addresses have accounts."""

import time

import pytest
from django.core import mail
from django.test import RequestFactory

from campaigns.views.password_reset import password_reset

pytestmark = pytest.mark.django_db

SLOW_SECONDS = 1.0


class SlowMailServer:
    """An e-mail backend as slow as a distant SMTP server, counting what it sends."""

    sent: list = []

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        time.sleep(SLOW_SECONDS)
        SlowMailServer.sent.extend(messages)
        return len(messages)


def answer(email):
    request = RequestFactory().post("/accounts/password_reset/", {"email": email})
    request._dont_enforce_csrf_checks = True
    started = time.monotonic()
    response = password_reset(request)
    return response, time.monotonic() - started


@pytest.fixture
def slow_mail(settings):
    settings.EMAIL_BACKEND = f"{__name__}.SlowMailServer"
    SlowMailServer.sent = []
    return SlowMailServer.sent


def test_known_and_unknown_addresses_get_the_same_answer_before_any_mail_is_sent(slow_mail, make_user):
    make_user("erin")
    answer("warm-up@example.org")  # the first call in a process loads what it imports
    known, known_took = answer("erin@example.org")
    unknown, unknown_took = answer("nobody@example.org")
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/accounts/password_reset/done/"
    # Neither answer waited for the (slow) mail server.
    assert known_took < SLOW_SECONDS
    assert unknown_took < SLOW_SECONDS
    assert slow_mail == []
    known.close()  # what the WSGI server does once the answer is written
    unknown.close()
    assert [message.to for message in slow_mail] == [["erin@example.org"]]


def test_the_reset_link_still_arrives_through_the_test_client(client, make_user):
    make_user("erin")
    response = client.post("/accounts/password_reset/", {"email": "erin@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body


def test_a_mail_server_that_fails_after_the_answer_is_logged_not_raised(settings, make_user, caplog):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = 9  # discard: nothing listens, the connection is refused
    make_user("erin")
    response, _ = answer("erin@example.org")
    response.close()
    # Django's form logs its own failure to send; the visitor already has their answer.
    assert "Failed to send password reset email" in caplog.text
