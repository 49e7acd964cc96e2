"""What the Django benchmarks share: a database of their own, Django set up on it, and percentiles.

A benchmark never writes into the database `make run` uses: it takes a database named for itself on the
server of `BENCH_DATABASE_URL`, else of `DATABASE_URL`, else of the local server on 127.0.0.1:5432, else of the
embedded PostgreSQL under `.data/postgres`, creating it when missing. An embedded server the bench had to start
is stopped again when the bench ends, also when it fails or is sent SIGTERM; one that was already
running (`make run`'s) is left running.
"""

from __future__ import annotations

import atexit
import os
import signal
import statistics
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

LOCAL_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"


def redis_url() -> str:
    """The Redis the benchmarks run their Redis configurations on: `REDIS_URL`, as the site reads it, else this
    machine's own on its default port. Each run keeps its keys under a prefix of its own and deletes them after."""
    return os.environ.get("REDIS_URL") or LOCAL_REDIS


def _with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _create_if_missing(url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(_with_database(url, "postgres"), autocommit=True, connect_timeout=3) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')
    return _with_database(url, name)


def bench_database_url(name: str) -> str:
    """The URL of the bench's own database `name`, created on the first server that answers.
    `BENCH_DATABASE_SUFFIX` is added to the name, so two checkouts on one server each seed their own."""
    import psycopg

    name += os.environ.get("BENCH_DATABASE_SUFFIX", "")

    servers = [os.environ.get("BENCH_DATABASE_URL"), os.environ.get("DATABASE_URL"), LOCAL_SERVER]
    problems = []
    for server in filter(None, servers):
        try:
            return _create_if_missing(server, name)
        except psycopg.OperationalError as error:
            problems.append(f"{urlsplit(server).hostname or 'socket'}: {error}".strip())
    try:
        return _create_if_missing(_embedded_server_url(), name)
    except Exception as error:
        problems.append(f"embedded: {error}")
        raise SystemExit(f"no PostgreSQL for the benchmarks ({'; '.join(problems)})") from error


def stop_on_sigterm() -> None:
    """SIGTERM ends the bench through SystemExit, so its `finally` blocks and atexit hooks stop what it started."""

    def _exit(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _exit)


def _embedded_server_url() -> str:
    """The embedded server's URL; when the bench is the one that starts it, it is stopped at exit."""
    from config import embedded_db
    from config.database import STARTED_HERE, embedded_database_url

    data_dir = ROOT / ".data" / "postgres"
    url = embedded_database_url(data_dir)
    if data_dir in STARTED_HERE:
        stop_on_sigterm()
        atexit.register(lambda: print("\n".join(embedded_db.stop(data_dir)), flush=True))
    return url


def setup_django(url: str) -> None:
    """Django on `url` with the test settings (production code paths, plain static names), migrated."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def median_p95_ms(seconds: list[float]) -> tuple[float, float]:
    """Median and 95th percentile of durations in seconds, in milliseconds."""
    ordered = sorted(seconds)
    p95 = ordered[max(0, int(round(0.95 * len(ordered))) - 1)]
    return statistics.median(ordered) * 1000, p95 * 1000
