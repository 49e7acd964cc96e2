"""Speed of the roster and campaign pages, served as in production: `python bench/bench_web.py`.

gunicorn with 2 sync workers and production settings (DEBUG off, a SECRET_KEY, ALLOWED_HOSTS=127.0.0.1, no SSL
redirect) serves, on 127.0.0.1 only: a bare plain-text view of the same app (`/bench/plain`, routed only with
BENCH_VIEWS=true), the roster page of a 50-fighter warband, and the campaign page. Another process loads each in
turn: `wrk` when installed (Debian: `apt-get install wrk`), else a small threaded Python load generator. Printed
for each: requests per second, p50 and p99 latency, and the throughput as a ratio of the bare view's. Aim: the
roster page at least half the bare view's throughput, the tracker's "nothing changed" poll (204) at least 0.8x.

the whole load runs twice, with each process's own memory cache and with one Redis (127.0.0.1:6379,
a key prefix of the run's own, deleted at the end), at 4 connections and again at 20; then the bytes of each
page's first load, compressed (bench/web_checks.py), and two gunicorn instances on one database and one Redis: a
login on one used on the other, a Damage on one seen by a poll on the other (pass/fail, with the delay).

The database is the bench's own `warband_bench` (bench/support.py: on the server of `BENCH_DATABASE_URL`,
`DATABASE_URL`, 127.0.0.1:5432 or the embedded PostgreSQL, created and migrated when missing). The bench campaign is created once and
reused; `ANALYZE` runs after it is loaded (docs/development.md). The whole run takes about a minute and a half, and the server's
processes are stopped at the end, whatever happens (an error, Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, stop_on_sigterm  # noqa: E402
from web_checks import (  # noqa: E402
    LARGE_BOARD_SIDES,
    first_load_bytes,
    report_bytes,
    tracker_game,
    two_instances,
)
from web_load import (  # noqa: E402
    CONNECTIONS,
    REDIS_URL,
    fetch,
    flush_redis,
    load_with_python,
    load_with_wrk,
    redis_answers,
    serve,
)

BENCH_DATABASE = "warband_bench"
CAMPAIGN = "Bench campaign (bench/bench_web.py)"
FIGHTERS = 50
# The campaign page's campaign: twelve warbands (the roster's, its rival and CREWS crews) and GAMES games.
CREWS, CREW_FIGHTERS, GAMES = 10, 15, 100
# Its first load is printed beside the aimed ones, not held to the aim (web_checks.py: LARGE_BOARD_SIDES).
LARGE_BOARD = "tracker board, 50 v 12"
WARMUP_SECONDS = 2
SECONDS = int(os.environ.get("BENCH_WEB_SECONDS", "8"))  # shorter for a quick look
# The pages are loaded in turn, twice over, and each keeps its better round: a burst of other work on the machine
# then spoils one round of one page, not the comparison.
ROUNDS = int(os.environ.get("BENCH_WEB_ROUNDS", "2"))
MANY_CONNECTIONS = 20
CROWD = 100  # zero non-2xx and zero socket errors at 100 connections
CROWD_SECONDS = int(os.environ.get("BENCH_WEB_CROWD_SECONDS", "5"))

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
    from django.utils.crypto import get_random_string

    from campaigns.models import Campaign
    from rosters.models import Warband

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    campaign = Campaign.objects.filter(name=CAMPAIGN).first()
    if campaign is not None and (
        campaign.preset != Campaign.Preset.FALLOUT_FACTIONS or campaign.warbands.count() != CREWS + 2
    ):
        # Loaded by an older bench: before it named its preset (Trench Crusade became the default, whose board has
        # no Damage), or with two warbands and ten games rather than the twelve and a hundred.
        campaign.delete()
        campaign = None
    if campaign is None:
        started = time.perf_counter()
        campaign = load_campaign()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"loaded the bench campaign in {time.perf_counter() - started:.1f} s", flush=True)
    warband = Warband.objects.get(campaign=campaign, name="Bench Pilgrims")
    user = get_user_model().objects.get(username="bench_player")
    game = tracker_game(campaign, user)  # sets the user's password: before the session takes its hash
    large_board = tracker_game(campaign, user, LARGE_BOARD_SIDES)["board"]
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    connection.close()
    fighter = warband.fighters.order_by("id").first()
    return {
        # What a phone's browser sends once it has loaded a page: the session, the CSRF cookie that page set, and
        # the hint of whose page generation to read (config/page_cache.py).
        "cookie": f"sessionid={session.session_key}; csrftoken={get_random_string(32)}; wl_member={user.pk}",
        "roster": f"/warbands/{warband.pk}/",
        "campaign": f"/campaigns/{campaign.pk}/",
        "dashboard": "/",
        "fighter card": f"/fighters/{fighter.pk}/",
        "history feed": f"/campaigns/{campaign.pk}/history/",
        "game": game,
        "large board": large_board,
    }


def load_campaign():
    """The issue's campaign: twelve warbands (a 50-fighter one with Battlekit, Injuries and Scars, a 12-fighter
    rival, ten crews of 15) and a hundred games among them."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from campaigns.models import Campaign
    from campaigns.services import campaigns as campaign_services
    from campaigns.services import invitations as invitation_services
    from rosters.services.fighters import fighter_create
    from rosters.services.warbands import warband_create

    users = get_user_model().objects
    with transaction.atomic():
        organiser = users.filter(username="bench_organiser").first() or users.create_user("bench_organiser")
        player = users.filter(username="bench_player").first() or users.create_user("bench_player")
        # Fallout: Factions: the board's Damage is what the tracker's figures (the poll, one Damage's bytes, the
        # two instances) measure; a Trench Crusade board marks Out of Action instead.
        campaign = campaign_services.campaign_create(
            name=CAMPAIGN, by=organiser, preset=Campaign.Preset.FALLOUT_FACTIONS
        )
        invitation_services.campaign_join(code=campaign.invitation_code, user=player)
        pilgrims = warband_create(
            campaign=campaign,
            owner=player,
            name="Bench Pilgrims",
            faction="Trench Pilgrims",
            strongbox=120,
            by=player,
        )
        sides = [(pilgrims, _load_pilgrims(pilgrims, player))]
        rivals = warband_create(
            campaign=campaign, owner=organiser, name="Bench Heretics", faction="Heretic Legion", by=organiser
        )
        heretics = [
            fighter_create(warband=rivals, by=organiser, name=f"Heretic {number}", elite=number < 3)
            for number in range(12)
        ]
        sides.append((rivals, heretics))
        for crew in range(1, CREWS + 1):
            # The first crew is the bench player's too: the board's game is theirs to play (web_checks.py).
            owner = player if crew == 1 else organiser
            warband = warband_create(
                campaign=campaign, owner=owner, name=f"Bench Crew {crew}", faction="Survivors", by=owner
            )
            fighters = [
                fighter_create(
                    warband=warband, by=owner, name=f"Crew {crew} fighter {number}", elite=number < 2
                )
                for number in range(CREW_FIGHTERS)
            ]
            sides.append((warband, fighters))
        _load_games(campaign, organiser, sides)
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


def _load_games(campaign, organiser, sides) -> None:
    """GAMES games, three days apart, each between two of the warbands in turn, a fighter or two of each side Out
    of Action."""
    import datetime

    from rosters.services.games import GameEntry, game_record

    for number in range(GAMES):
        first = number % len(sides)
        second = (first + 1 + number // len(sides)) % len(sides)
        if second == first:
            second = (first + 1) % len(sides)
        (one, one_fighters), (other, other_fighters) = sides[first], sides[second]
        out = number % 10
        game_record(
            campaign=campaign,
            by=organiser,
            played_on=datetime.date(2024, 1, 1) + datetime.timedelta(days=3 * number),
            scenario="Bench scenario",
            entries=[
                GameEntry(one, "win" if number % 2 else "loss", one_fighters[out : out + 2]),
                GameEntry(other, "loss" if number % 2 else "win", other_fighters[out : out + 1]),
            ],
        )


def measure(port: int, pages: dict[str, str], cookie: str, load, log_name: str, connections: int) -> dict:
    """Check each page answers itself, warm up, then load each page ROUNDS times and keep its best round."""
    for path in pages.values():
        status, body = fetch(port, path, cookie)
        poll = "/tracker/board/" in path
        if (poll and status != 204) or (
            not poll
            and (
                status != 200
                or (path != "/bench/plain" and "Bench Fighter" not in body and "Bench" not in body)
            )
        ):
            raise RuntimeError(f"{path} answered {status}, not the page: check {log_name}")
    for path in pages.values():
        load(port, path, cookie, WARMUP_SECONDS, connections)
        time.sleep(1)  # let the workers drain the warm-up's queue (docs/development.md)
    results: dict[str, dict] = {}
    for _ in range(ROUNDS):
        for name, path in pages.items():
            figures = load(port, path, cookie, SECONDS, connections)
            if name not in results or figures["rps"] > results[name]["rps"]:
                results[name] = figures
            time.sleep(1)
    return results


AIMS = {
    "roster, 50 fighters": 0.5,
    "campaign page": 0.5,
    "dashboard": 0.5,
    "fighter card": 0.5,
    "history feed": 0.5,
    "tracker poll, unchanged (204)": 0.8,
}


def report(title: str, results: dict[str, dict], *, aimed: bool) -> None:
    """The figures of one load; against the aims only as deployed (with Redis): without a cache every process
    shares, no page is kept (config/page_cache.py), so those figures are the full path's, for comparison."""
    bare = results["bare view (/bench/plain)"]["rps"]
    print(f"-- {title}" + ("" if aimed else " (nothing kept without a shared cache: no aim, for comparison)"))
    print(f"{'':30} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>6}")
    for name, figures in results.items():
        errors = f"  ({figures['errors']} errors)" if figures["errors"] else ""
        ratio = figures["rps"] / bare
        aim = AIMS.get(name) if aimed else None
        verdict = "" if aim is None else f"  aim >= {aim:.1f} {'ok' if ratio >= aim else 'MISSED'}"
        print(
            f"{name:30} {figures['rps']:8.0f} {figures['p50']:8.1f} {figures['p99']:8.1f} "
            f"{ratio:6.2f}{verdict}{errors}"
        )


def crowd(port: int, pages: dict[str, str], cookie: str, load) -> list[tuple[str, dict]]:
    """Each page once at CROWD connections for CROWD_SECONDS: its throughput and what went wrong."""
    results = []
    for name, path in pages.items():
        results.append((name, load(port, path, cookie, CROWD_SECONDS, CROWD)))
        time.sleep(1)
    return results


def report_crowd(title: str, results: list[tuple[str, dict]]) -> None:
    print(f"-- {title}, {CROWD} connections, {CROWD_SECONDS} s each (aim: zero non-2xx, zero socket errors)")
    for name, figures in results:
        clean = figures["errors"] == 0 and figures.get("socket_errors", 0) == 0
        print(
            f"{name:30} {figures['rps']:8.0f} req/s  p99 {figures['p99']:7.1f} ms  non-2xx {figures['errors']}"
            f"  socket errors {figures.get('socket_errors', 0)}  {'ok' if clean else 'MISSED'}"
        )


def main() -> int:
    stop_on_sigterm()  # a SIGTERM still runs the `finally` below, which stops gunicorn
    url = bench_database_url(BENCH_DATABASE)
    os.environ.update(PRODUCTION)
    os.environ["DATABASE_URL"] = url
    print(f"database: {url}", flush=True)
    targets = prepare()
    cookie = targets.pop("cookie")
    game = targets.pop("game")
    large_board = targets.pop("large board")
    load = load_with_wrk if shutil.which("wrk") else load_with_python
    print(
        f"load: {'wrk' if load is load_with_wrk else 'Python threads'}, {SECONDS} s each, best of {ROUNDS} rounds",
        flush=True,
    )
    pages = {
        "bare view (/bench/plain)": "/bench/plain",
        "roster, 50 fighters": targets["roster"],
        "campaign page": targets["campaign"],
        "dashboard": targets["dashboard"],
        "fighter card": targets["fighter card"],
        "history feed": targets["history feed"],
        "tracker poll, unchanged (204)": game["poll"],
    }
    prefix = f"wl-bench-{secrets.token_hex(4)}"
    configs = {"local memory, no Redis": {}}
    if redis_answers():
        configs["one Redis"] = {"REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": prefix}
    else:
        print(f"no Redis on {REDIS_URL}: the Redis runs and the two-instance check are left out")
    try:
        for title, env in configs.items():
            for connections in (CONNECTIONS, MANY_CONNECTIONS):
                results = serve(
                    env,
                    lambda port, log, c=connections: measure(port, pages, cookie, load, log, c),
                    "load",
                )
                report(f"{title}, {connections} connections", results, aimed=bool(env))
        title, env = list(configs.items())[-1]  # with Redis when there is one: as deployed
        report_crowd(title, serve(env, lambda port, _: crowd(port, pages, cookie, load), "crowd"))
        first_pages = {**{k: v for k, v in pages.items() if "/bench/" not in v and "board" not in v}}
        first_pages["tracker board, 15 v 15"] = game["board"]
        first_pages[LARGE_BOARD] = large_board
        figures = serve({}, lambda port, log: first_load_bytes(port, first_pages, cookie), "bytes")
        report_bytes(figures, compared=(LARGE_BOARD,))
        if "one Redis" in configs:
            env = configs["one Redis"]
            results = serve(env, lambda a, _: serve(env, lambda b, __: two_instances(a, b, game), "b"), "a")
            print("-- two gunicorn instances, one PostgreSQL, one Redis")
            for name, passed, note in results:
                print(f"{name:40} {'pass' if passed else 'FAIL'}  {note}")
    finally:
        if "one Redis" in configs:
            flush_redis(prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
