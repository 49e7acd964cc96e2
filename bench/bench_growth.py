"""Pages that do not grow with the campaign: `python bench/bench_growth.py`.

Each pair is the same page on data alike but for its size, measured in one run, printed with its ratio:
- the campaign page at 10 and at 500 games (and the statistics page on them, printed, not aimed: it counts every
  game, so its time grows with the campaign while its queries stay a fixed number);
- the roster at 10 and at 200 fighters (its first screen: FIRST_ROWS rows in full, the rest one htmx request later,
  printed beside them, not aimed), warm (its cached parts there) and cold (the cache emptied before every
  request), and each size's cold against its warm;
- the as-of page (a 15-fighter warband as of its 5th game) and its campaign's history feed, each with 10,000 and
  with 1,000,000 history events in the database, the extra ones written with SQL generate_series
  (bench/growth_data.py), ANALYZEd after; half of them are the campaign's own fighters changing after its games,
  so the feed's first page is among them.
Aim: each pair within 1.5x, cold within 2x of warm. Server time: the Django test client calling the app in
process (every middleware, the view, the template; no network), the median of RUNS requests after a warm-up,
with the production settings and each process's own memory cache. The database is the bench's own
`warband_bench_growth` (loaded once, in about a minute; later runs take seconds, plus the 1M events' filling).
"""

from __future__ import annotations

import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, setup_django  # noqa: E402

BENCH_DATABASE = "warband_bench_growth"
WARMUP = 5
RUNS = int(os.environ.get("BENCH_GROWTH_RUNS", "30"))
EVENTS = {"10k events": 10_000, "1M events": int(os.environ.get("BENCH_GROWTH_EVENTS", "1000000"))}
PAIR_AIM, COLD_AIM = 1.5, 2.0
HTMX = {"HX-Request": "true"}


def timed(client, url: str, *, cold: bool = False, before=None, headers=None) -> tuple[float, int]:
    """Median milliseconds of RUNS requests of `url` (the cache emptied before each when `cold`, `before()`
    called before each, untimed, when given), and queries."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(WARMUP):
        status = client.get(url, headers=headers).status_code
        if status != 200:
            raise RuntimeError(f"{url} answered {status}")
    times = []
    for _ in range(RUNS):
        if cold:
            cache.clear()
        if before is not None:
            before()
        started = time.perf_counter()
        client.get(url, headers=headers)
        times.append((time.perf_counter() - started) * 1000)
    if cold:
        cache.clear()
    if before is not None:
        before()
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers)
    return statistics.median(times), len(queries)


def pair(title: str, small: tuple[str, float, int], large: tuple[str, float, int], aim: float) -> bool:
    (small_name, small_ms, small_queries), (large_name, large_ms, large_queries) = small, large
    ratio = large_ms / small_ms
    verdict = "ok" if ratio <= aim else "MISSED"
    print(
        f"{title:34} {small_name} {small_ms:6.1f} ms ({small_queries} q)   {large_name} {large_ms:6.1f} ms "
        f"({large_queries} q)   ratio {ratio:4.2f}  aim <= {aim:.1f} {verdict}",
        flush=True,
    )
    return ratio <= aim


def client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def campaign_pages() -> None:
    import growth_data
    from django.urls import reverse

    found = growth_data.campaigns()
    client = client_for(found["user"])
    figures = {}
    for size, campaign in found["campaigns"].items():
        ms, queries = timed(client, reverse("campaign_detail", args=[campaign.pk]))
        figures[size] = (f"{growth_data.GAMES[size]} games", ms, queries)
    pair("campaign page", figures["short"], figures["long"], PAIR_AIM)


def stats_pages() -> None:
    """The statistics page on the same two campaigns. Its queries are a fixed number, pinned by its tests; its
    time is not aimed: it counts every game's rows in Python, so it grows with the campaign by nature."""
    import growth_data
    from django.urls import reverse

    found = growth_data.campaigns()
    client = client_for(found["user"])
    for size, campaign in found["campaigns"].items():
        ms, queries = timed(client, reverse("campaign_stats", args=[campaign.pk]))
        print(
            f"{'statistics page':34} {growth_data.GAMES[size]:>3} games {ms:6.1f} ms ({queries} q)   not aimed",
            flush=True,
        )


def rosters() -> None:
    import growth_data
    from django.urls import reverse

    from rosters.selectors.roster import FIRST_ROWS

    found = growth_data.warbands()
    client = client_for(found["user"])
    figures = {}
    for size, warband in found["warbands"].items():
        url = reverse("warband_detail", args=[warband.pk])
        for temperature in ("warm", "cold"):
            ms, queries = timed(client, url, cold=temperature == "cold")
            figures[size, temperature] = (f"{growth_data.FIGHTERS[size]} fighters {temperature}", ms, queries)
        ms, queries = timed(client, url, before=one_change(warband, found["user"]))
        figures[size, "changed"] = (f"{growth_data.FIGHTERS[size]} fighters changed", ms, queries)
    large = found["warbands"]["large"]
    later = reverse("warband_detail", args=[large.pk]) + "?part=later"
    later_figures = [timed(client, later, cold=cold, headers=HTMX) for cold in (False, True)]
    pair("roster, warm", figures["small", "warm"], figures["large", "warm"], PAIR_AIM)
    pair("roster, cold", figures["small", "cold"], figures["large", "cold"], PAIR_AIM)
    for size in growth_data.FIGHTERS:
        pair(
            f"roster of {growth_data.FIGHTERS[size]}, warm to cold",
            figures[size, "warm"],
            figures[size, "cold"],
            COLD_AIM,
        )
    # Not aimed, for comparison: what a shared cache leaves to do after a player's write, the usual miss.
    print("   after one fighter's XP changed (the other rows still cached), not aimed:")
    for size in growth_data.FIGHTERS:
        _, warm_ms, _ = figures[size, "warm"]
        name, ms, queries = figures[size, "changed"]
        print(f"   {name:30} {ms:6.1f} ms ({queries} q)   {ms / warm_ms:4.2f}x its warm page")
    # The rows after the first screen (rosters/selectors/roster.py, FIRST_ROWS), fetched by htmx when scrolled to.
    (warm_ms, warm_q), (cold_ms, cold_q) = later_figures
    rest = growth_data.FIGHTERS["large"] - FIRST_ROWS
    print(
        f"   the other {rest} rows of the 200 (htmx), not aimed: warm {warm_ms:.1f} ms ({warm_q} q), "
        f"cold {cold_ms:.1f} ms ({cold_q} q)"
    )


def one_change(warband, user):
    """A write between requests: one XP more for the warband's first fighter (always more: a roster the page has
    shown before would be found in the cache under its old digest)."""
    from rosters.services.fighters import fighter_adjust_xp

    fighter = warband.fighters.order_by("pk").first()

    def change() -> None:
        fighter.refresh_from_db()
        fighter_adjust_xp(fighter=fighter, delta=1, by=user, reason="bench_growth")

    return change


def history_pages() -> None:
    """The as-of page and the campaign's history feed, each with 10,000 and with 1,000,000 events in the database
    (half of the added ones the campaign's own fighters changing after its games, so the feed's newest)."""
    import growth_data
    from django.urls import reverse

    setup = growth_data.as_of_campaign()
    client = client_for(setup["user"])
    urls = {
        "as-of page (15 fighters)": reverse("warband_as_of", args=[setup["warband"].pk, setup["game"].pk]),
        "history feed (the campaign's)": reverse("campaign_history", args=[setup["warband"].campaign_id]),
    }
    figures: dict[tuple[str, str], tuple[str, float, int]] = {}
    for size, total in EVENTS.items():
        started = time.perf_counter()
        events = growth_data.fill_history(setup, total)
        print(f"   {events:,} history events in the database ({time.perf_counter() - started:.0f} s to fill)")
        for title, url in urls.items():
            ms, queries = timed(client, url)
            figures[title, size] = (size, ms, queries)
    for title in urls:
        pair(title, figures[title, "10k events"], figures[title, "1M events"], PAIR_AIM)


def main() -> int:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "testserver",
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "SECURE_HSTS_SECONDS": "0",
            "LOG_LEVEL": "ERROR",
        }
    )
    os.environ.pop("REDIS_URL", None)
    setup_django(bench_database_url(BENCH_DATABASE))
    from django.core.management import call_command

    call_command("collectstatic", verbosity=0, interactive=False)
    print(
        f"in-process, median of {RUNS} requests after {WARMUP}; each process's own memory cache", flush=True
    )
    only = set(sys.argv[1:]) or {"campaign", "stats", "roster", "history"}
    if "campaign" in only:
        campaign_pages()
    if "stats" in only:
        stats_pages()
    if "roster" in only:
        rosters()
    if "history" in only or "as-of" in only:
        history_pages()
    return 0


if __name__ == "__main__":
    sys.exit(main())
