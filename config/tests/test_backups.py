"""Backups that restore: the demo campaign, backed up with `manage.py backup`, restored with
`manage.py restore` into a fresh database, comes back with every row and every history event equal."""

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from psycopg import sql

from config.database import database_url

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)

TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
ROWS = sql.SQL(
    "SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM {table} t"
)
TRIGGERS = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname"


def connect(dbname: str) -> psycopg.Connection:
    db = connection.settings_dict
    return psycopg.connect(
        dbname=dbname,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        autocommit=True,
    )


def contents(dbname: str) -> dict:
    """Every table's row count and a digest of its rows in a fixed order, and the triggers that keep history."""
    with connect(dbname) as conn:
        tables = [row[0] for row in conn.execute(TABLES)]
        seen = {}
        for table in tables:
            count, digest = conn.execute(ROWS.format(table=sql.Identifier(table))).fetchone()
            seen[table] = (count, digest)
        seen["triggers"] = [row[0] for row in conn.execute(TRIGGERS)]
    return seen


@pytest.fixture
def fresh_database():
    name = f"{connection.settings_dict['NAME']}_restored"
    with connect("postgres") as maintenance:
        maintenance.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        maintenance.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with connect("postgres") as maintenance:
            maintenance.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_demo_campaign_survives_backup_and_restore_exactly(tmp_path, fresh_database):
    from pghistory.models import Events

    call_command("load_demo")
    assert Events.objects.count() > 100
    dump = tmp_path / "ledger.dump"
    call_command("backup", str(dump))
    assert dump.stat().st_size > 0
    connection.close()

    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict, name=fresh_database),
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(dump), "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    original, restored = contents(connection.settings_dict["NAME"]), contents(fresh_database)
    assert original.keys() == restored.keys()
    assert [t for t in original if original[t] != restored[t]] == []
    assert original["rosters_fighter"][0] > 10  # the demo's warbands came back, not two empty databases
    assert any("pgh" in name or "event" in name for name in original)


def test_a_missing_backup_is_refused_with_a_clear_message(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="is not a file. Nothing was changed."):
        call_command("restore", str(tmp_path / "nothing.dump"), "--noinput")


def test_a_restore_asks_first(tmp_path, monkeypatch):
    from django.core.management.base import CommandError

    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    with pytest.raises(CommandError, match="Restore cancelled; nothing was changed."):
        call_command("restore", str(tmp_path / "nothing.dump"))


def fake_tool(folder: Path, major: int) -> Path:
    """A stand-in pg_dump that only says its version, as `pg_dump --version` does."""
    tool = folder / str(major) / "pg_dump"
    tool.parent.mkdir()
    tool.write_text(f"#!/bin/sh\necho 'pg_dump (PostgreSQL) {major}.3'\n")
    tool.chmod(0o755)
    return tool


def test_the_servers_own_pg_dump_is_taken_before_an_older_or_newer_one(tmp_path, monkeypatch):
    """The embedded server (PostgreSQL 16) beside a system client of 15, as on Debian 12: pg_dump 15 refuses to
    dump it, so the server's own version is chosen; a newer one only when there is no exact match."""
    from config import backups

    connection.ensure_connection()
    server = connection.pg_version // 10000
    older, own, newer = (fake_tool(tmp_path, major) for major in (server - 1, server, server + 1))
    monkeypatch.setattr(backups, "_candidates", lambda name: [older, newer, own])
    assert backups.pg_tool("pg_dump") == own
    monkeypatch.setattr(backups, "_candidates", lambda name: [older, newer])
    assert backups.pg_tool("pg_dump") == newer
    monkeypatch.setattr(backups, "_candidates", lambda name: [older])
    with pytest.raises(backups.BackupError, match=f"No pg_dump of PostgreSQL {server} or newer"):
        backups.pg_tool("pg_dump")
