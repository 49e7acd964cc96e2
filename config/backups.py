"""Backups with PostgreSQL's own tools: `manage.py backup PATH` and `manage.py restore PATH`.

The whole database, schema, rows, history events and the history triggers, in pg_dump's custom format, restored
by pg_restore in one transaction. The tools are found in this order: the folder named by PG_BIN_DIR, the PATH
(the system's PostgreSQL client, as in the Docker image), and the binaries bundled with pgserver (the embedded
PostgreSQL of `make run`). Of those, one of the server's own major version is taken first, so the embedded server
is dumped by its own pg_dump even where the system's client is older (pg_dump refuses to dump a server newer than
itself); else the first that is newer than the server. The connection is the one Django uses: on the embedded
server that is its socket folder (config/database.py), never PostgreSQL's default socket.

A restore moves the database back in time, so the shared cache is emptied after it (`config.cache.forget_everything`):
no session, kept page, page generation or tracker entry of the world before it survives. The restore replaces the
session table too, so the sessions that still work afterwards are those of the backup.

It lives in config/, with its two commands (config/management/commands/): the whole database is the site's,
no app's, and no app calls it.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

from django.db import connection

from config.cache import forget_everything
from config.outages import is_lost_connection


class BackupError(Exception):
    """A backup or restore that could not be done, with the reason in words."""


class CacheNotEmptied(BackupError):
    """The database was restored, but the shared cache could not be emptied after it."""


def _candidates(name: str) -> list[Path]:
    found = []
    if os.environ.get("PG_BIN_DIR"):
        found.append(Path(os.environ["PG_BIN_DIR"]) / name)
    on_path = shutil.which(name)
    if on_path:
        found.append(Path(on_path))
    try:
        import pgserver._commands as pgserver_commands
    except ImportError:
        pass
    else:
        found.append(Path(pgserver_commands.POSTGRES_BIN_PATH) / name)
    return [path for path in found if path.is_file()]


def _major(tool: Path) -> int:
    # A PostgreSQL tool found by pg_tool, no shell, no user input (so for S603 below too).
    output = subprocess.run([str(tool), "--version"], capture_output=True, text=True, check=True).stdout  # noqa: S603
    match = re.search(r"(\d+)(?:\.\d+)?", output)
    return int(match.group(1)) if match else 0


def pg_tool(name: str) -> Path:
    """pg_dump or pg_restore of the server's own major version, else the first that is newer."""
    connection.ensure_connection()
    server = connection.pg_version // 10000
    candidates = _candidates(name)
    majors = {tool: _major(tool) for tool in candidates}
    matching = [tool for tool in candidates if majors[tool] == server]
    newer = [tool for tool in candidates if majors[tool] > server]
    if matching or newer:
        return (matching or newer)[0]
    raise BackupError(
        f"No {name} of PostgreSQL {server} or newer was found (tried {', '.join(map(str, candidates)) or 'none'}): "
        "install the PostgreSQL client or set PG_BIN_DIR."
    )


def _connection_arguments() -> tuple[list[str], dict]:
    db = connection.settings_dict
    arguments = ["--dbname", db["NAME"]]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            arguments += [flag, str(db[key])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return arguments, env


def _run(command: list[str], env: dict) -> None:
    result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)  # noqa: S603
    if result.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {result.stderr.strip()}")


def backup(path: Path) -> None:
    """Write the whole database to `path` (pg_dump's custom format)."""
    arguments, env = _connection_arguments()
    _run(
        [
            str(pg_tool("pg_dump")),
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            "--file",
            str(path),
            *arguments,
        ],
        env,
    )


def restore(path: Path) -> None:
    """Replace the database's contents with the backup at `path`, all or nothing; then forget everything the cache
    kept of the database before."""
    if not path.is_file():
        raise BackupError(f"{path} is not a file.")
    arguments, env = _connection_arguments()
    connection.close()  # pg_restore drops and recreates tables this process may hold open
    _run(
        [
            str(pg_tool("pg_restore")),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            *arguments,
            str(path),
        ],
        env,
    )
    try:
        forget_everything()
    except Exception as error:
        if not is_lost_connection(error):
            raise
        raise CacheNotEmptied(
            f"The database was restored, but the shared cache could not be emptied ({error}): it still holds "
            "sessions and pages of the data before the restore. Empty it (restart Redis with no saved data, or "
            "run `manage.py restore` again once Redis answers) before serving again."
        ) from error
