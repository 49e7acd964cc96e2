"""Throttling: lock-outs per user and per address on the login, the admin login, sign-up and
password reset, with a clear message and a cool-off, configurable from the environment."""

import subprocess
import sys
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from config.tests.test_settings import ROOT, production_environment, start_settings

pytestmark = pytest.mark.django_db

LIMIT = 5


@pytest.fixture(autouse=True)
def real_limits(settings):
    """The production defaults (the test settings raise sign-up and reset limits for the rest of the suite)."""
    cache.clear()
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.SIGNUPS_PER_HOUR = 10
    settings.PASSWORD_RESETS_PER_HOUR = 5
    yield
    cache.clear()


def log_in(client, username, password, *, address="10.0.0.1", path="/accounts/login/"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_right_password_is_refused_after_repeated_failures_with_a_clear_message(client, player, password):
    for _ in range(LIMIT - 1):
        assert log_in(client, player.username, "wrong-password").status_code == 200
    assert log_in(client, player.username, "wrong-password").status_code == 429  # the LIMIT-th failure locks
    response = log_in(client, player.username, password)
    assert response.status_code == 429
    assert b"Too many attempts" in response.content
    assert b"paused for about 15 minutes" in response.content
    assert "_auth_user_id" not in client.session


def test_a_username_is_locked_at_the_address_it_failed_from_not_everywhere(client, player, password):
    """A lock-out by username alone would let anyone lock any player out by typing their name wrongly."""
    for _ in range(LIMIT):
        log_in(client, player.username, "wrong-password", address="10.0.1.1")
    assert log_in(client, player.username, password, address="10.0.1.1").status_code == 429
    assert log_in(client, player.username, password, address="10.0.2.1").status_code == 302


def test_another_player_behind_the_same_address_still_logs_in(client, player, player2, password):
    """A gaming club on one network: one player's mistyped password locks that player, not the club."""
    for _ in range(LIMIT + 1):
        log_in(client, player.username, "wrong-password", address="10.0.3.1")
    assert log_in(client, player.username, password, address="10.0.3.1").status_code == 429
    other = log_in(client, player2.username, password, address="10.0.3.1")
    assert other.status_code == 302
    assert client.session["_auth_user_id"] == str(player2.pk)


def test_an_address_trying_many_usernames_is_stopped_at_the_higher_limit(
    client, make_user, password, settings
):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3 * LIMIT
    for number in range(3 * LIMIT):  # a few tries at each of many names: none reaches the per-user limit
        assert log_in(client, f"nobody{number // 2}", "wrong-password", address="10.0.3.9").status_code == 200
    make_user("fresh")
    refused = log_in(client, "fresh", password, address="10.0.3.9")
    assert refused.status_code == 429
    assert b"Too many attempts" in refused.content
    assert "_auth_user_id" not in client.session
    assert log_in(client, "fresh", password, address="10.0.3.10").status_code == 302


def test_the_address_limit_is_far_above_one_players_by_default():
    from django.conf import settings as defaults

    assert defaults.LOGIN_ADDRESS_FAILURE_LIMIT >= 10 * defaults.AXES_FAILURE_LIMIT


def test_the_admin_login_is_throttled_too(client, make_user, password):
    make_user("root", is_staff=True, is_superuser=True)
    for _ in range(LIMIT):
        log_in(client, "root", "wrong-password", path="/admin/login/")
    assert log_in(client, "root", password, path="/admin/login/").status_code == 429


def test_a_lock_out_ends_after_the_cool_off(client, player, password):
    from axes.models import AccessAttempt

    for _ in range(LIMIT):
        log_in(client, player.username, "wrong-password")
    assert log_in(client, player.username, password).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in(client, player.username, password).status_code == 302


def test_fewer_failures_than_the_limit_do_not_lock_out(client, player, password):
    for _ in range(LIMIT - 1):
        log_in(client, player.username, "wrong-password")
    assert log_in(client, player.username, password).status_code == 302


def signup(client, number, address="10.0.4.1"):
    return client.post(
        "/accounts/signup/",
        {
            "username": f"spammer{number}",
            "email": f"s{number}@example.org",
            "password1": "x",
            "password2": "y",
        },
        REMOTE_ADDR=address,
    )


def test_sign_up_is_limited_per_address(client):
    for number in range(10):
        assert signup(client, number).status_code == 200  # refused by the form (the passwords differ)
    response = signup(client, 10)
    assert response.status_code == 429
    assert b"Too many sign-up requests came from here" in response.content
    assert signup(client, 11, address="10.0.4.2").status_code == 200


def reset(client, email, address="10.0.5.1"):
    return client.post("/accounts/password_reset/", {"email": email}, REMOTE_ADDR=address)


def test_password_reset_is_limited_per_address(client):
    for number in range(5):
        assert reset(client, f"someone{number}@example.org").status_code == 302
    response = reset(client, "someone9@example.org")
    assert response.status_code == 429
    assert b"Too many password reset requests" in response.content


def test_password_reset_is_limited_per_e_mail_address(client, mailoutbox, player):
    for number in range(5):
        assert reset(client, player.email, address=f"10.0.6.{number}").status_code == 302
    assert reset(client, player.email, address="10.0.6.99").status_code == 429
    assert len(mailoutbox) == 5


@override_settings(THROTTLE_TRUST_FORWARDED_FOR=True)
def test_behind_the_proxy_the_client_is_the_address_it_appended(client, player, password, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = LIMIT  # the address lock-out, reached by many names quickly
    for _ in range(LIMIT):
        client.post(
            "/accounts/login/",
            {"username": f"x{_}", "password": "no"},
            REMOTE_ADDR="172.16.0.1",
            HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.7",
        )
    locked = client.post(
        "/accounts/login/",
        {"username": player.username, "password": password},
        REMOTE_ADDR="172.16.0.1",
        HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.7",
    )
    assert locked.status_code == 429
    other = client.post(
        "/accounts/login/",
        {"username": player.username, "password": password},
        REMOTE_ADDR="172.16.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.8",
    )
    assert other.status_code == 302


def test_the_limits_come_from_the_environment():
    script = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.AXES_FAILURE_LIMIT, int(s.AXES_COOLOFF_TIME.total_seconds()), s.SIGNUPS_PER_HOUR, "
        "s.PASSWORD_RESETS_PER_HOUR, s.LOGIN_ADDRESS_FAILURE_LIMIT)"
    )
    env = production_environment(
        DATABASE_URL="postgres://nobody@127.0.0.1:5432/nothing",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="ledger.example.org",
        LOGIN_FAILURE_LIMIT="7",
        LOGIN_COOLOFF_MINUTES="2",
        SIGNUPS_PER_HOUR="3",
        PASSWORD_RESETS_PER_HOUR="4",
        LOGIN_ADDRESS_FAILURE_LIMIT="40",
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.stdout.split() == ["7", "120", "3", "4", "40"], result.stderr


def test_a_malformed_limit_stops_the_start_naming_it():
    result = start_settings(
        SECRET_KEY="x" * 50, ALLOWED_HOSTS="ledger.example.org", LOGIN_FAILURE_LIMIT="five"
    )
    assert result.returncode != 0
    assert "LOGIN_FAILURE_LIMIT must be a whole number" in result.stderr


def test_authenticate_without_a_request_is_left_to_djangos_backend(player, password):
    from django.contrib.auth import authenticate

    assert authenticate(username=player.username, password=password) == player
    assert authenticate(username=player.username, password="wrong") is None
