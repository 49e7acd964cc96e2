"""Speed of the dice log with 300,000 rolls in one campaign, 0.2% of them no longer counting: `python
bench/bench_dice_log.py`.

Measured (server time: the Django test client calling the app in process, middleware and templates included, no
network): the log's first page, the rolls that count, those that no longer count, only the voided ones (the
rarest: one roll in 10,000), a warband's rolls that no longer count, and a page of those deep in the log. Each
filtered page is reported as a ratio to the unfiltered first page measured in the same run (a wall-clock figure
depends on what else the machine does; a ratio does not), aiming at no more than 1.5x, with its median and 95th
percentile of 30 requests after 5 warm-up ones, and its number of queries, which must be the same on every page. The filters of rolls that no longer count are served by the partial index
`diceroll_campaign_struck` (combat/migrations/0010_dice_log_status_index.py); without it a page of voided rolls
scanned the whole campaign (49 ms in the query alone, measured with EXPLAIN ANALYZE on this data).

The rolls are inserted with SQL in one statement (DiceRoll is not tracked by pghistory); struck rolls are marked
as the services mark them: undone with who and when, voided and corrected with their replacement. The database is
the bench's own `warband_bench_dice_log` (bench/support.py: created and migrated when missing), loaded once and
reused, then `ANALYZE`d (docs/development.md).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, setup_django  # noqa: E402

BENCH_DATABASE = "warband_bench_dice_log"
CAMPAIGN = "Bench dice log campaign (bench/bench_dice_log.py)"
ROLLS = 300_000
STRUCK_EVERY = 500  # one roll in 500 no longer counts: undone, and one in ten of those voided or corrected
WARMUP, RUNS = 5, 30
AIM_RATIO = 1.5


def _load():
    from django.contrib.auth import get_user_model
    from django.db import connection

    from campaigns.models import Campaign, Membership
    from rosters.models import Warband

    existing = Campaign.objects.filter(name=CAMPAIGN).first()
    if existing is not None and existing.dice_rolls.count() >= ROLLS:
        return existing
    if existing is not None or Campaign.objects.exists():
        raise SystemExit(
            f"The database {BENCH_DATABASE} holds other data or a half-loaded bench; drop it first."
        )
    started = time.perf_counter()
    user = get_user_model().objects.create_user("bench_organiser", first_name="Olga")
    campaign = Campaign.objects.create(name=CAMPAIGN, created_by=user)
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.ORGANISER)
    warbands = [Warband.objects.create(campaign=campaign, owner=user, name=f"Warband {n}") for n in range(8)]
    first = warbands[0].pk
    with connection.cursor() as db:
        db.execute(
            """INSERT INTO combat_diceroll (campaign_id, warband_id, rolled_by_id, source, sides, faces, purpose,
                   label, created_at, status, status_at, status_by_id, status_reason)
               SELECT %(campaign)s, %(first)s + g %% 8, %(user)s, 'server', 10, ARRAY[1 + g %% 10, 1 + g %% 7],
                   'attack', 'Attack Test', now() - make_interval(secs => g),
                   CASE WHEN g %% %(every)s = 0 THEN 'undone' ELSE 'counted' END,
                   CASE WHEN g %% %(every)s = 0 THEN now() END,
                   CASE WHEN g %% %(every)s = 0 THEN %(user)s END,
                   CASE WHEN g %% %(every)s = 0 THEN 'Undo of: an attack' ELSE '' END
               FROM generate_series(1, %(rolls)s) g""",
            {"campaign": campaign.pk, "first": first, "user": user.pk, "every": STRUCK_EVERY, "rolls": ROLLS},
        )
        # One struck roll in ten is voided or corrected instead, its replacement a new roll that counts.
        db.execute(
            """WITH struck AS (
                   SELECT id, created_at, warband_id, row_number() OVER (ORDER BY id) AS n FROM combat_diceroll
                   WHERE campaign_id = %(campaign)s AND status = 'undone'),
               chosen AS (SELECT * FROM struck WHERE n %% 10 = 0),
               made AS (
                   INSERT INTO combat_diceroll (campaign_id, warband_id, rolled_by_id, source, sides, faces,
                       purpose, label, created_at, status, status_reason)
                   SELECT %(campaign)s, warband_id, %(user)s, 'server', 10, ARRAY[1 + id::int %% 10], 'attack',
                       'replaces ' || id, created_at + interval '1 millisecond', 'counted', ''
                   FROM chosen RETURNING id, label)
               UPDATE combat_diceroll r SET replaced_by_id = made.id,
                   status = CASE WHEN r.id %% 2 = 0 THEN 'voided' ELSE 'corrected' END, status_reason = 'why'
               FROM made WHERE made.label = 'replaces ' || r.id""",
            {"campaign": campaign.pk, "user": user.pk},
        )
        db.execute("ANALYZE")
    print(f"   loaded {campaign.dice_rolls.count():,} rolls in {time.perf_counter() - started:.0f} s")
    return campaign


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

    from combat.models import DiceRoll
    from combat.selectors.dice_log import dice_cursor

    campaign = _load()
    warband = campaign.warbands.order_by("id").first()
    client = Client()
    client.force_login(campaign.created_by)
    log = reverse("campaign_dice_log", args=[campaign.pk])
    deep = DiceRoll.objects.filter(campaign=campaign).order_by("-created_at", "-id")[ROLLS * 9 // 10]
    pages = {
        "first page": log,
        "rolls that count": f"{log}?status=counts",
        "rolls that no longer count": f"{log}?status=struck",
        "voided rolls (1 in 10,000)": f"{log}?status=voided",
        "a warband's struck rolls": f"{reverse('warband_dice_log', args=[warband.pk])}?status=struck",
        "struck rolls, deep page": f"{log}?status=struck&before={dice_cursor(deep)}",
    }
    results = {name: _measure(client, url) for name, url in pages.items()}
    baseline = results["first page"][0]
    query_counts = {queries for _median, _p95, queries in results.values()}
    for name, (median, p95, queries) in results.items():
        ratio = median / baseline if baseline else 0.0
        verdict = "ok" if ratio <= AIM_RATIO else "OVER AIM"
        print(
            f"   {name:<30} median {median:6.1f} ms   p95 {p95:6.1f} ms   {ratio:4.2f}x the first page   "
            f"{queries:2d} queries   aim {AIM_RATIO}x: {verdict}"
        )
    # Behaviour, not speed, fails the run: every page of the log runs the same number of queries.
    failed = len(query_counts) != 1
    if failed:
        print(f"   query counts differ between pages: {sorted(query_counts)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
