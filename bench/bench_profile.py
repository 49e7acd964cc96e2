"""Where a request's time goes: `python bench/bench_profile.py`.

The tracker's "nothing changed" poll, the board's changed poll, the roster, campaign page, dashboard, a
fighter's card and the history feed of bench_web.py's campaign,
each asked REQUESTS times in-process through Django's test Client (every middleware, the view, the template; no
network, no gunicorn) with the production settings, once with each process's own memory cache and once with
this machine's Redis (a key prefix of the run's own, deleted at the end). pyinstrument samples the timed requests;
printed per page: the median time, the queries per request, and the sampled time split by where it was spent
(PostgreSQL through psycopg, Redis, templates, the rest of Django, the project's code, everything else).
Each configuration runs in a process of its own, since the settings are read once at start.
"""

from __future__ import annotations

import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, redis_url  # noqa: E402
from web_load import flush_redis  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_PROFILE_REQUESTS", "200"))
WARM_UP = 20
REDIS_URL = redis_url()
# Where a sampled frame's own time is counted, by the first match on its file's path.
PLACES = [
    ("PostgreSQL (psycopg)", ("/psycopg/", "/psycopg_binary/", "/django/db/")),
    ("Redis", ("/redis/", "/django/core/cache/")),
    ("templates", ("/django/template/", "/template_partials/")),
    ("rest of Django and libraries", ("/site-packages/",)),
    ("the project's code", (str(ROOT),)),
]


def place_of(path: str) -> str:
    for name, needles in PLACES:
        if any(needle in path for needle in needles):
            return name
    return "Python itself"


def split(frame, totals: dict[str, float], parent_path: str = "") -> None:
    # pyinstrument keeps a function's own time in a synthetic child frame with no file: it is the parent's.
    path = frame.file_path or parent_path
    own = frame.total_self_time
    if own:
        totals[place_of(path)] = totals.get(place_of(path), 0.0) + own
    for child in frame.children:
        split(child, totals, path)


def profile_one(client, path: str, expect: int, requests: int = REQUESTS) -> dict:
    from django.db import connection
    from pyinstrument import Profiler

    for _ in range(min(WARM_UP, requests)):
        status = client.get(path).status_code
        if status != expect:
            raise RuntimeError(f"{path} answered {status}, not {expect}")
    # Counted by a wrapper: Django empties its own query log at the start of every request.
    queries = []
    with connection.execute_wrapper(lambda execute, sql, *args: queries.append(sql) or execute(sql, *args)):
        client.get(path)
    durations = []
    profiler = Profiler(interval=0.0005)
    profiler.start()
    for _ in range(requests):
        started = time.perf_counter()
        client.get(path)
        durations.append(time.perf_counter() - started)
    profiler.stop()
    totals: dict[str, float] = {}
    split(profiler.last_session.root_frame(), totals)
    sampled = sum(totals.values()) or 1.0
    return {
        "median_ms": statistics.median(durations) * 1000,
        "queries": len(queries),
        "split": {name: share / sampled for name, share in sorted(totals.items(), key=lambda item: -item[1])},
    }


def run_configuration(title: str) -> None:
    """In this process: Django on the bench database with this configuration's settings, each page profiled."""
    import django

    django.setup()
    import bench_web
    from django.test import Client

    targets = bench_web.prepare()
    game = targets["game"]
    client = Client()
    # The browser's cookies as bench_web sends them (the session, the CSRF cookie and the member hint): with
    # Redis, a page read again is answered from the page cache (config/page_cache.py), as a phone's would be.
    for pair in targets["cookie"].split("; "):
        name, value = pair.split("=", 1)
        client.cookies[name] = value
    # A version the board never had: the whole board is sent, as to a phone that missed a change.
    changed = f"/games/{game['game']}/tracker/board/?version=-1"
    pages = [
        ("bare view (/bench/plain)", "/bench/plain", 200, REQUESTS),
        ("tracker poll, unchanged (204)", game["poll"], 204, REQUESTS),
        # The whole board of both crews (two of 15) is rendered: a few hundred ms each, so fewer of them.
        ("tracker poll, changed (board)", changed, 200, 20),
        ("roster, 50 fighters", targets["roster"], 200, REQUESTS),
        ("campaign page", targets["campaign"], 200, REQUESTS),
        ("dashboard", targets["dashboard"], 200, REQUESTS),
        ("fighter card", targets["fighter card"], 200, REQUESTS),
        ("history feed", targets["history feed"], 200, REQUESTS),
    ]
    print(f"-- {title}: in-process, {REQUESTS} requests each (the changed board 20)", flush=True)
    for name, path, expect, requests in pages:
        figures = profile_one(client, path, expect, requests)
        where = ", ".join(
            f"{place} {share:.0%}" for place, share in figures["split"].items() if share >= 0.02
        )
        print(f"{name:32} {figures['median_ms']:6.2f} ms  {figures['queries']} queries  {where}", flush=True)


def main() -> int:
    if os.environ.get("BENCH_PROFILE_TITLE"):
        run_configuration(os.environ["BENCH_PROFILE_TITLE"])
        return 0
    import bench_web

    url = bench_database_url(bench_web.BENCH_DATABASE)
    base = {
        # The Redis configuration names its Redis itself; the other must not inherit one from the environment.
        **{name: value for name, value in os.environ.items() if name != "REDIS_URL"},
        **bench_web.PRODUCTION,
        "ALLOWED_HOSTS": "testserver,127.0.0.1",
        "DATABASE_URL": url,
    }
    prefix = f"wl-profile-{secrets.token_hex(4)}"
    configurations = {
        "local memory, no Redis": {},
        "one Redis": {"REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": prefix},
    }
    failed = 0
    try:
        for title, env in configurations.items():
            result = subprocess.run(
                [sys.executable, __file__],
                cwd=ROOT,
                env={**base, **env, "BENCH_PROFILE_TITLE": title},
                check=False,
            )
            failed += result.returncode != 0
    finally:
        flush_redis(prefix)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
