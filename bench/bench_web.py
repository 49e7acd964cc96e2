"""Speed of the pages as served, deployed and by `make run`: `python bench/bench_web.py`.

Two servers on 127.0.0.1, on the same database, loaded in turn, each load after the other server's:
- deployed: gunicorn with 2 sync workers, the production settings (DEBUG off, a SECRET_KEY, ALLOWED_HOSTS=127.0.0.1,
  no SSL redirect) and one Redis (`REDIS_URL`, else this machine's; a key prefix of the run's own, deleted after);
- `make run`: what `make run` starts (config/serve.py, its default workers and threads, config/settings_run.py,
  its file cache in a folder of the run's own).
Each serves (routed only with BENCH_VIEWS=true) the baseline, an authenticated trivial view that loads the session
and the user through the whole middleware stack as any member's page must; a bare view that loads neither, for
comparison; then the roster of a 50-fighter warband, the campaign page, the dashboard, a fighter's card and the
history feed, each on its render path (every request a CSRF cookie never seen, so no kept page matches and the
page is rendered, as the first read after a write is: web_load.py) and on its cache-hit path; the tracker board
of 15 v 15 (never kept) and its "nothing changed" poll (204).

Loaded with `wrk` when installed (Debian: `apt-get install wrk`), else a threaded Python load generator, at 4
connections; after each load the server is given time to drain (web_load.py: its workers all answer as when
idle) before the next starts. Each load runs ROUNDS times and keeps its best round: a burst of other work on the
machine spoils one round of one page, not the comparison. Printed: req/s, p50 and p99, each page's ratio to its
server's authenticated view, and the aims (web_report.py): the render paths >= 0.35x (the board 0.2x), the cache
hits and the poll >= 1x, make run within 1.5x of deployed; then the deployed server at 100 connections on the
paths a room of phones repeats (zero errors), the bytes of each page's first load (web_checks.py), and two
deployed instances sharing one database and Redis (a login on one used on the other, a Damage on one seen by a
poll on the other).

The database is the bench's own `warband_bench` (bench/support.py; loaded once by web_data.py, reused). The whole
run takes about seven minutes; the servers are stopped at the end whatever happens (an error, Ctrl-C, SIGTERM).
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, stop_on_sigterm  # noqa: E402
from web_checks import first_load_bytes, report_bytes, two_instances  # noqa: E402
from web_data import prepare  # noqa: E402, F401 - bench_profile.py reads the campaign through this module
from web_load import (  # noqa: E402
    CONNECTIONS,
    DEPLOYED_WORKERS,
    REDIS_URL,
    fetch,
    flush_redis,
    idle_time,
    load_with_python,
    load_with_wrk,
    make_run_command,
    redis_answers,
    serve,
    wait_until_drained,
)
from web_report import (  # noqa: E402
    BARE,
    BASELINE,
    BOARD,
    POLL,
    report_aims,
    report_crowd,
    report_make_run,
    report_table,
)

BENCH_DATABASE = "warband_bench"
LARGE_BOARD = "tracker board, 50 v 12"
WARMUP_SECONDS = 1
SECONDS = int(os.environ.get("BENCH_WEB_SECONDS", "5"))  # shorter for a quick look
ROUNDS = int(os.environ.get("BENCH_WEB_ROUNDS", "2"))
CROWD = 100  # zero non-2xx and zero socket errors at 100 connections
CROWD_SECONDS = int(os.environ.get("BENCH_WEB_CROWD_SECONDS", "5"))
KEPT_PAGES = ("roster, 50 fighters", "campaign page", "dashboard", "fighter card", "history feed")
DEPLOYED, MAKE_RUN = "deployed (2 sync workers, Redis)", "make run (its defaults)"
# config/serve.py's defaults: the threads a drain probe must find free.
MAKE_RUN_SLOTS = 2 * 4

# Production settings (config/settings.py reads them): DEBUG off, so SECRET_KEY and ALLOWED_HOSTS are needed.
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "127.0.0.1",
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "SECURE_HSTS_SECONDS": "0",
    "BENCH_VIEWS": "true",
    "LOG_LEVEL": "WARNING",
}


@dataclass(frozen=True)
class Load:
    name: str
    path: str
    fresh: bool  # the render path: each request a CSRF cookie of its own


@dataclass
class Server:
    name: str
    port: int
    probes: int  # how many requests at once find every worker (or thread) busy
    idle: float = 0.0


def loads(targets: dict, game: dict) -> list[Load]:
    rows = [Load(BASELINE, "/bench/authenticated", False), Load(BARE, "/bench/plain", False)]
    for name in KEPT_PAGES:
        rows += [
            Load(f"{name}, render path", targets[name], True),
            Load(f"{name}, cache hit", targets[name], False),
        ]
    return rows + [Load(BOARD, game["board"], True), Load(POLL, game["poll"], False)]


def check_answers(server: Server, rows: list[Load], cookie: str, log_name: str) -> None:
    """Each load answers itself, not a login page or an error, before anything is timed."""
    for row in rows:
        status, body = fetch(server.port, row.path, cookie)
        expected = 204 if row.name == POLL else 200
        if status != expected or (row.path.startswith("/bench/authenticated") and not body.startswith("ok")):
            raise RuntimeError(
                f"{server.name}: {row.path} answered {status}, not {expected}: check {log_name}"
            )


def measure(
    servers: list[Server], rows: list[Load], cookies: dict[bool, str], load
) -> dict[str, dict[str, dict]]:
    """Every load on every server in turn, ROUNDS times, each after the server drained; the best round of each."""
    for server in servers:
        server.idle = idle_time(server.port, server.probes)
        for row in rows:  # warm: code paths, connections, the pages kept for the cache-hit loads
            load(server.port, row.path, cookies[row.fresh], WARMUP_SECONDS, CONNECTIONS, fresh=row.fresh)
            wait_until_drained(server.port, server.probes, server.idle)
    results: dict[str, dict[str, dict]] = {server.name: {} for server in servers}
    waited = 0.0
    for _ in range(ROUNDS):
        for row in rows:
            for server in servers:
                figures = load(
                    server.port, row.path, cookies[row.fresh], SECONDS, CONNECTIONS, fresh=row.fresh
                )
                waited += wait_until_drained(server.port, server.probes, server.idle)
                best = results[server.name].get(row.name)
                if best is None or figures["rps"] > best["rps"]:
                    results[server.name][row.name] = figures
    print(f"(waited {waited:.0f} s in all for the servers to drain between loads)", flush=True)
    return results


def crowd(port: int, rows: list[Load], cookie: str, load) -> list[tuple[str, dict]]:
    """The paths a room of phones repeats, each at CROWD connections for CROWD_SECONDS."""
    results = []
    for row in rows:
        if not row.fresh and row.name != BARE:
            results.append((row.name, load(port, row.path, cookie, CROWD_SECONDS, CROWD)))
            wait_until_drained(port, DEPLOYED_WORKERS, 0.01)
    return results


def deployed_env(prefix: str | None) -> dict[str, str | None]:
    if prefix is None:
        return {"REDIS_URL": None}
    return {"REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": prefix}


def make_run_env(folder: str) -> dict[str, str | None]:
    """As a clone runs `make run`: no secret, hosts, settings module or Redis given; a data folder of its own,
    whose kept secret is the bench's (the bench player's session carries an auth hash made with it)."""
    Path(folder, "secret_key").write_text(PRODUCTION["SECRET_KEY"] + "\n")
    unset = dict.fromkeys(("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "ALLOWED_HOSTS", "REDIS_URL", "DEBUG"))
    return {**unset, "RUN_DATA_DIR": folder, "BENCH_VIEWS": "true"}


def side_by_side(targets: dict, game: dict, load, prefix: str | None) -> dict[str, dict[str, dict]]:
    rows = loads(targets, game)
    cookies = {False: targets["cookie"], True: targets["session cookie"]}
    with tempfile.TemporaryDirectory(prefix="bench_web_make_run_") as folder:

        def both(deployed_port: int, deployed_log: str):
            def with_make_run(run_port: int, run_log: str):
                servers = [
                    Server(DEPLOYED, deployed_port, DEPLOYED_WORKERS),
                    Server(MAKE_RUN, run_port, MAKE_RUN_SLOTS),
                ]
                check_answers(servers[0], rows, cookies[False], deployed_log)
                check_answers(servers[1], rows, cookies[False], run_log)
                return measure(servers, rows, cookies, load)

            return serve(make_run_env(folder), with_make_run, "make_run", make_run_command)

        return serve(deployed_env(prefix), both, "deployed")


def main() -> int:
    stop_on_sigterm()  # a SIGTERM still runs the `finally` below, which stops gunicorn
    url = bench_database_url(BENCH_DATABASE)
    os.environ.update(PRODUCTION)
    os.environ["DATABASE_URL"] = url
    print(f"database: {url}", flush=True)
    targets = prepare()
    game, large_board = targets.pop("game"), targets.pop("large board")
    targets = {
        "roster, 50 fighters": targets["roster"],
        "campaign page": targets["campaign"],
        **{name: targets[name] for name in ("dashboard", "fighter card", "history feed")},
        "cookie": targets["cookie"],
        "session cookie": targets["session cookie"],
    }
    load = load_with_wrk if shutil.which("wrk") else load_with_python
    name = "wrk" if load is load_with_wrk else "Python threads"
    print(f"load: {name}, {SECONDS} s each at {CONNECTIONS} connections, best of {ROUNDS} rounds", flush=True)
    prefix = f"wl-bench-{secrets.token_hex(4)}" if redis_answers() else None
    if prefix is None:
        print(
            f"no Redis on {REDIS_URL}: the deployed server runs without one (nothing kept); no two-instance check"
        )
    try:
        results = side_by_side(targets, game, load, prefix)
        report_table(results, CONNECTIONS)
        report_aims(results[DEPLOYED], DEPLOYED)
        report_make_run(results[DEPLOYED], results[MAKE_RUN])
        rows = loads(targets, game)
        figures = serve(
            deployed_env(prefix), lambda port, _: crowd(port, rows, targets["cookie"], load), "crowd"
        )
        report_crowd(DEPLOYED, figures, CROWD, CROWD_SECONDS)
        first_pages = {name: targets[name] for name in KEPT_PAGES}
        first_pages |= {"tracker board, 15 v 15": game["board"], LARGE_BOARD: large_board}
        figures = serve(
            deployed_env(None),
            lambda port, _: first_load_bytes(port, first_pages, targets["cookie"]),
            "bytes",
        )
        report_bytes(figures, compared=(LARGE_BOARD,))
        if prefix is not None:
            env = deployed_env(prefix)
            checks = serve(env, lambda a, _: serve(env, lambda b, __: two_instances(a, b, game), "b"), "a")
            print("-- two gunicorn instances, one PostgreSQL, one Redis")
            for check, passed, note in checks:
                print(f"{check:40} {'pass' if passed else 'FAIL'}  {note}")
    finally:
        if prefix is not None:
            flush_redis(prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
