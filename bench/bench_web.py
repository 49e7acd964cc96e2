"""Speed of the roster and campaign pages, served as in production: `python bench/bench_web.py`.

gunicorn with 2 sync workers and production settings (DEBUG off, a SECRET_KEY, ALLOWED_HOSTS=127.0.0.1, no SSL
redirect) serves, on 127.0.0.1 only: a bare plain-text view of the same app (`/bench/plain`, routed only with
BENCH_VIEWS=true), the roster page of a 50-fighter warband, and the campaign page. Another process loads each in
turn: `wrk` when installed (Debian: `apt-get install wrk`), else a small threaded Python load generator. Printed
for each: requests per second, p50 and p99 latency, and the throughput as a ratio of the bare view's. Aim: the
roster page at least half the bare view's throughput.

The database is the bench's own `warband_bench` (bench/support.py: on the server of `BENCH_DATABASE_URL`,
`DATABASE_URL`, 127.0.0.1:5432 or the embedded PostgreSQL, created and migrated when missing). The bench campaign is created once and
reused; `ANALYZE` runs after it is loaded (PITFALLS.md). The whole run takes about a minute and a half, and the server's
processes are stopped at the end, whatever happens (an error, Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, stop_on_sigterm  # noqa: E402

BENCH_DATABASE = "warband_bench"
CAMPAIGN = "Bench campaign (bench/bench_web.py)"
FIGHTERS = 50
WARMUP_SECONDS = 2
SECONDS = 8
# The pages are loaded in turn, twice over, and each keeps its better round: a burst of other work on the machine
# then spoils one round of one page, not the comparison.
ROUNDS = 2
CONNECTIONS = 4

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


def prepare() -> dict[str, str]:
    """Migrate, collect static files, load the bench campaign once; the paths to load and a session cookie."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection

    from campaigns.models import Campaign
    from rosters.models import Warband

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    campaign = Campaign.objects.filter(name=CAMPAIGN).first()
    if campaign is None:
        started = time.perf_counter()
        campaign = load_campaign()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"loaded the bench campaign in {time.perf_counter() - started:.1f} s", flush=True)
    warband = Warband.objects.get(campaign=campaign, name="Bench Pilgrims")
    user = get_user_model().objects.get(username="bench_player")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    connection.close()
    return {
        "cookie": f"sessionid={session.session_key}",
        "roster": f"/warbands/{warband.pk}/",
        "campaign": f"/campaigns/{campaign.pk}/",
    }


def load_campaign():
    """A campaign with a 50-fighter warband (Battlekit, Injuries, Scars), a rival warband and ten games."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from campaigns.services import campaigns as campaign_services
    from campaigns.services import invitations as invitation_services
    from rosters.services.fighters import fighter_create
    from rosters.services.warbands import warband_create

    users = get_user_model().objects
    with transaction.atomic():
        organiser = users.filter(username="bench_organiser").first() or users.create_user("bench_organiser")
        player = users.filter(username="bench_player").first() or users.create_user("bench_player")
        campaign = campaign_services.campaign_create(name=CAMPAIGN, by=organiser)
        invitation_services.campaign_join(code=campaign.invitation_code, user=player)
        pilgrims = warband_create(
            campaign=campaign,
            owner=player,
            name="Bench Pilgrims",
            faction="Trench Pilgrims",
            strongbox=120,
            by=player,
        )
        rivals = warband_create(
            campaign=campaign, owner=organiser, name="Bench Heretics", faction="Heretic Legion", by=organiser
        )
        fighters = _load_pilgrims(pilgrims, player)
        rival_fighters = [
            fighter_create(warband=rivals, by=organiser, name=f"Heretic {number}", elite=number < 3)
            for number in range(12)
        ]
        _load_games(campaign, organiser, (pilgrims, fighters), (rivals, rival_fighters))
    return campaign


def _load_pilgrims(pilgrims, player) -> list:
    """FIGHTERS fighters, each with two pieces of Battlekit, every fourth with an Injury; five spare items."""
    from rosters.services.battlekit import item_create
    from rosters.services.fighters import fighter_create
    from rosters.services.injuries import injury_add

    fighters = []
    for number in range(FIGHTERS):
        elite = number % 5 == 0
        fighter = fighter_create(
            warband=pilgrims,
            by=player,
            name=f"Bench Fighter {number}",
            fighter_type="Castigator" if elite else "Trench Pilgrim",
            elite=elite,
            xp=number % 9,
            battle_scars=1 if elite and number % 2 else 0,
        )
        item_create(warband=pilgrims, fighter=fighter, name="Bolt Action Rifle", by=player)
        item_create(warband=pilgrims, fighter=fighter, name="Trench Club", keywords=["TWO-HANDED"], by=player)
        if number % 4 == 0:
            injury_add(fighter=fighter, code="leg_wound", name="Leg Wound", d66=31, by=player)
        fighters.append(fighter)
    for number in range(5):
        item_create(warband=pilgrims, name=f"Spare kit {number}", by=player)
    return fighters


def _load_games(campaign, organiser, pilgrims_side, rivals_side) -> None:
    """Ten games of the two warbands, a week apart, with a fighter or two Out of Action on each side."""
    import datetime

    from rosters.services.games import GameEntry, game_record

    (pilgrims, fighters), (rivals, rival_fighters) = pilgrims_side, rivals_side
    for number in range(10):
        game_record(
            campaign=campaign,
            by=organiser,
            played_on=datetime.date(2025, 1, 1) + datetime.timedelta(days=7 * number),
            scenario="Bench scenario",
            entries=[
                GameEntry(pilgrims, "win" if number % 2 else "loss", fighters[number : number + 2]),
                GameEntry(
                    rivals, "loss" if number % 2 else "win", rival_fighters[number % 12 : number % 12 + 1]
                ),
            ],
        )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(port: int, path: str, cookie: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Cookie": cookie})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - 127.0.0.1 only
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def wait_until_up(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn stopped while starting; see its log above")
        try:
            if fetch(port, "/bench/plain", "")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer within 30 s")


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _milliseconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * _UNITS[unit]


def load_with_wrk(port: int, path: str, cookie: str, seconds: int) -> dict:
    command = [
        shutil.which("wrk"),
        "-t2",
        f"-c{CONNECTIONS}",
        f"-d{seconds}s",
        "--latency",
        "-H",
        f"Cookie: {cookie}",
        f"http://127.0.0.1:{port}{path}",
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True, timeout=seconds + 30).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": _milliseconds(re.search(r"\s50%\s+(\S+)", output).group(1)),
        "p99": _milliseconds(re.search(r"\s99%\s+(\S+)", output).group(1)),
        "errors": int(errors.group(1)) if errors else 0,
        "note": socket_errors.group(1) if socket_errors else "",
    }


def load_with_python(port: int, path: str, cookie: str, seconds: int) -> dict:
    """CONNECTIONS threads, each sending one request after another for `seconds` (gunicorn's sync workers close
    every connection, so each request opens its own)."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def worker() -> None:
        nonlocal errors
        mine, failed = [], 0
        while time.monotonic() < stop:
            started = time.perf_counter()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                connection.request("GET", path, headers={"Cookie": cookie})
                response = connection.getresponse()
                response.read()
                failed += response.status >= 400
            except OSError:
                failed += 1
            finally:
                connection.close()
            mine.append((time.perf_counter() - started) * 1000)
        with lock:
            latencies.extend(mine)
            errors += failed

    threads = [threading.Thread(target=worker) for _ in range(CONNECTIONS)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    latencies.sort()

    def percentile(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))]

    return {
        "rps": len(latencies) / elapsed,
        "p50": percentile(0.50),
        "p99": percentile(0.99),
        "errors": errors,
        "note": "",
    }


def start_gunicorn(port: int, log) -> subprocess.Popen:
    """gunicorn with 2 sync workers in a session of its own, so stopping its group stops every worker."""
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--workers", "2"]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    return subprocess.Popen(
        command, cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


def stop_gunicorn(server: subprocess.Popen) -> None:
    """SIGTERM to gunicorn's whole group, SIGKILL after 10 s: no worker outlives the bench."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def measure(port: int, pages: dict[str, str], cookie: str, load, log_name: str) -> dict[str, dict]:
    """Check each page answers itself, warm up, then load each page ROUNDS times and keep its best round."""
    for path in pages.values():
        status, body = fetch(port, path, cookie)
        if status != 200 or (
            path != "/bench/plain" and "Bench Fighter" not in body and "Bench Pilgrims" not in body
        ):
            raise RuntimeError(f"{path} answered {status}, not the page: check {log_name}")
    for path in pages.values():
        load(port, path, cookie, WARMUP_SECONDS)
        time.sleep(1)  # let the workers drain the warm-up's queue (PITFALLS.md)
    results: dict[str, dict] = {}
    for _ in range(ROUNDS):
        for name, path in pages.items():
            figures = load(port, path, cookie, SECONDS)
            if name not in results or figures["rps"] > results[name]["rps"]:
                results[name] = figures
            time.sleep(1)
    return results


def report(results: dict[str, dict]) -> None:
    bare = results["bare view (/bench/plain)"]["rps"]
    print(f"{'':28} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>6}")
    for name, figures in results.items():
        errors = f"  ({figures['errors']} errors)" if figures["errors"] else ""
        print(
            f"{name:28} {figures['rps']:8.0f} {figures['p50']:8.1f} {figures['p99']:8.1f} "
            f"{figures['rps'] / bare:6.2f}{errors}"
        )
    ratio = results["roster, 50 fighters"]["rps"] / bare
    print(f"roster / bare view: {ratio:.2f} (aim >= 0.50) {'ok' if ratio >= 0.5 else 'MISSED'}")


def main() -> int:
    stop_on_sigterm()  # a SIGTERM still runs the `finally` below, which stops gunicorn
    url = bench_database_url(BENCH_DATABASE)
    os.environ.update(PRODUCTION)
    os.environ["DATABASE_URL"] = url
    print(f"database: {url}", flush=True)
    targets = prepare()
    cookie = targets.pop("cookie")
    load = load_with_wrk if shutil.which("wrk") else load_with_python
    print(
        f"load: {'wrk' if load is load_with_wrk else 'Python threads'}, {CONNECTIONS} connections, "
        f"{SECONDS} s each, best of {ROUNDS} rounds",
        flush=True,
    )
    pages = {
        "bare view (/bench/plain)": "/bench/plain",
        "roster, 50 fighters": targets["roster"],
        "campaign page": targets["campaign"],
    }
    port = free_port()
    # gunicorn's own output, kept (and its path printed) only when something went wrong.
    log = tempfile.NamedTemporaryFile("w", prefix="bench_web_gunicorn_", suffix=".log", delete=False)  # noqa: SIM115
    server = start_gunicorn(port, log)
    failed = True
    try:
        wait_until_up(port, server)
        results = measure(port, pages, cookie, load, log.name)
        failed = False
    finally:
        stop_gunicorn(server)
        log.close()
        if failed:
            print(f"gunicorn's log: {log.name}", file=sys.stderr)
        else:
            os.unlink(log.name)
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
