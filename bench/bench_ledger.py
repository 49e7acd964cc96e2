"""Speed of a Strongbox ledger of 10,000 entries: `python bench/bench_ledger.py`.

Measured (server time: the Django test client calling the app in process, middleware and templates included, no
network): the ledger page's first page, a page in the middle and the last page (keyset pagination on the entry's
id, `?before=`, served by the index `strongbox_entry_newest` (warband, -id): rosters/selectors/ledger.py), each
with its median and 95th percentile of 30 requests after 5 warm-up ones, aiming at under 50 ms, and its number of
queries, which must be the same on every page (that, not a timing, fails the run).

The entries are inserted with SQL in one statement (StrongboxEntry is not tracked by pghistory), each with the
balance after it, so the ledger sums to the Strongbox as the services keep it. The database is the bench's own
`warband_bench_ledger` (bench/support.py), loaded once and reused, then `ANALYZE`d (docs/development.md).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, setup_django  # noqa: E402

BENCH_DATABASE = "warband_bench_ledger"
CAMPAIGN = "Bench ledger campaign (bench/bench_ledger.py)"
ENTRIES = 10_000
OTHER_WARBANDS = 5  # the same number of entries each, so the index has to pick one warband's out
WARMUP, RUNS = 5, 30
AIM_MS = 50.0


def _load():
    from django.contrib.auth import get_user_model
    from django.db import connection

    from campaigns.models import Campaign, Membership
    from rosters.models import StrongboxEntry, Warband

    existing = Campaign.objects.filter(name=CAMPAIGN).first()
    if existing is not None:
        warband = existing.warbands.order_by("id").first()
        if StrongboxEntry.objects.filter(warband=warband).count() >= ENTRIES:
            return existing, warband
    if existing is not None or Campaign.objects.exists():
        raise SystemExit(
            f"The database {BENCH_DATABASE} holds other data or a half-loaded bench; drop it first."
        )
    started = time.perf_counter()
    user = get_user_model().objects.create_user("bench_organiser", first_name="Olga")
    campaign = Campaign.objects.create(name=CAMPAIGN, created_by=user)
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.ORGANISER)
    warbands = [
        Warband.objects.create(campaign=campaign, owner=user, name=f"Warband {n}", strongbox=ENTRIES + 700)
        for n in range(1 + OTHER_WARBANDS)
    ]
    with connection.cursor() as db:
        for warband in warbands:
            db.execute(
                """INSERT INTO rosters_strongboxentry (warband_id, ducats, glory, balance, glory_balance, cause,
                       reason, by_id, created_at)
                   SELECT %(warband)s, CASE WHEN g = 1 THEN 701 ELSE 1 END, 0, 700 + g, 0,
                       CASE WHEN g = 1 THEN 'start' ELSE 'adjustment' END, 'Bench entry ' || g, %(user)s,
                       now() - make_interval(secs => %(entries)s - g)
                   FROM generate_series(1, %(entries)s) g""",
                {"warband": warband.pk, "user": user.pk, "entries": ENTRIES},
            )
        db.execute("ANALYZE")
    print(f"   loaded {ENTRIES * len(warbands):,} entries in {time.perf_counter() - started:.0f} s")
    return campaign, warbands[0]


def _measure(client, url: str) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(WARMUP):
        assert client.get(url).status_code == 200, url
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, url
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), statistics.quantiles(times, n=20)[-1], len(queries)


def main() -> int:
    setup_django(bench_database_url(BENCH_DATABASE))
    from django.test import Client
    from django.urls import reverse

    from rosters.models import StrongboxEntry

    campaign, warband = _load()
    client = Client()
    client.force_login(campaign.created_by)
    ledger = reverse("warband_ledger", args=[warband.pk])
    ids = list(StrongboxEntry.objects.filter(warband=warband).order_by("-id").values_list("id", flat=True))
    pages = {
        "first page": ledger,
        "a page in the middle": f"{ledger}?before={ids[len(ids) // 2]}",
        "the last page": f"{ledger}?before={ids[-40]}",
    }
    results = {name: _measure(client, url) for name, url in pages.items()}
    for name, (median, p95, queries) in results.items():
        verdict = "ok" if p95 <= AIM_MS else "OVER AIM"
        print(
            f"   {name:<22} median {median:6.1f} ms   p95 {p95:6.1f} ms   {queries:2d} queries   "
            f"aim < {AIM_MS:.0f} ms: {verdict}"
        )
    query_counts = {queries for _median, _p95, queries in results.values()}
    if len(query_counts) != 1:
        print(f"   query counts differ between pages: {sorted(query_counts)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
