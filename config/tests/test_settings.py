"""Settings refuse to start with a missing or malformed value, naming the variable."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_list, env_origins

ROOT = Path(__file__).resolve().parents[2]

# Variables the test settings or conftest put in this process's environment, which production would not have.
NOT_IN_PRODUCTION = {
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
}


def production_environment(**env) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in NOT_IN_PRODUCTION}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return clean


def start_settings(**env):
    """Import the production settings in a fresh interpreter, as `manage.py` would at start."""
    clean = production_environment(**{"DATABASE_URL": "postgres://nobody@127.0.0.1:5432/nothing", **env})
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_refuses_to_start_without_secret_key_when_debug_is_off():
    result = start_settings(DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_refuses_a_malformed_debug():
    result = start_settings(DEBUG="ture", SECRET_KEY="x" * 50)
    assert result.returncode != 0
    assert "DEBUG must be one of" in result.stderr
    assert "'ture'" in result.stderr


def test_it_refuses_a_database_url_that_is_not_postgres():
    result = start_settings(DEBUG="true", DATABASE_URL="sqlite:///db.sqlite3")
    assert result.returncode != 0
    assert "DATABASE_URL must point at PostgreSQL" in result.stderr


def test_it_starts_with_production_values_and_check_deploy_is_silent():
    env = production_environment(
        DEBUG="false",
        SECRET_KEY="a-long-random-production-secret-key-with-enough-variety-0123456789-XYZ",
        ALLOWED_HOSTS="ledger.example.org",
        CSRF_TRUSTED_ORIGINS="https://ledger.example.org",
        DATABASE_URL="postgres://nobody@127.0.0.1:5432/nothing",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(("raw", "expected"), [("true", True), ("0", False), ("Yes", True), ("off", False)])
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("SOME_FLAG", raw)
    assert env_bool("SOME_FLAG", default=not expected) is expected


def test_env_list_refuses_empty_items(monkeypatch):
    monkeypatch.setenv("ALLOWED_HOSTS", "a.example,,b.example")
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS"):
        env_list("ALLOWED_HOSTS", [])


def test_env_origins_wants_a_scheme(monkeypatch):
    monkeypatch.setenv("CSRF_TRUSTED_ORIGINS", "ledger.example.org")
    with pytest.raises(ImproperlyConfigured, match="CSRF_TRUSTED_ORIGINS"):
        env_origins("CSRF_TRUSTED_ORIGINS", [])
