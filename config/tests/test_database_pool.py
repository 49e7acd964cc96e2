"""DATABASE_POOL_SIZE gives each web process Django's psycopg pool; unset, no pool."""

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.database import database_config

ROOT = Path(__file__).resolve().parents[2]
URL = "postgres://ledger:secret@db.example:5432/warband_ledger"


def test_without_a_pool_size_each_thread_keeps_its_own_connection(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", URL)
    monkeypatch.delenv("DATABASE_POOL_SIZE", raising=False)
    config = database_config(ROOT)
    assert "pool" not in config.get("OPTIONS", {})
    assert config["CONN_MAX_AGE"] == 60


def test_a_pool_size_opens_djangos_pool_without_persistent_connections(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", URL)
    monkeypatch.setenv("DATABASE_POOL_SIZE", "4")
    config = database_config(ROOT)
    assert config["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 4, "timeout": 10}
    assert config["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections


def test_a_negative_pool_size_is_refused(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", URL)
    monkeypatch.setenv("DATABASE_POOL_SIZE", "-1")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_POOL_SIZE"):
        database_config(ROOT)


def test_the_pool_serves_queries_and_stays_within_its_size():
    """A fresh process on this machine's database: three queries, one pooled connection, at most two."""
    script = (
        "import django, json; django.setup()\n"
        "from django.db import connection\n"
        "for _ in range(3):\n"
        "    connection.ensure_connection(); connection.cursor().execute('SELECT 1'); connection.close()\n"
        "stats = connection.pool.get_stats()\n"
        "print(json.dumps({'max': connection.pool.max_size, 'size': stats['pool_size']}))\n"
    )
    env = {**os.environ, "DATABASE_POOL_SIZE": "2", "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    if env.get("DATABASE_URL"):
        # The server's own maintenance database: the one DATABASE_URL names may not exist yet (CI names a fresh
        # one, whose test database pytest makes), and this process runs outside pytest's.
        env["DATABASE_URL"] = urlunsplit(urlsplit(env["DATABASE_URL"])._replace(path="/postgres"))
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["max"] == 2
    assert 1 <= figures["size"] <= 2


def test_behind_pgbouncer_no_server_side_cursor_is_used(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", URL)
    monkeypatch.setenv("DATABASE_BEHIND_PGBOUNCER", "true")
    assert database_config(ROOT)["DISABLE_SERVER_SIDE_CURSORS"] is True
