"""Speed of the history pages with 100,000 history events in one campaign: `python bench/bench_history.py`.

Measured (server time: the Django test client calling the app in process, middleware and templates included, no
network): the campaign feed's first page, a page deep in it (a keyset cursor 90,000 events back), and the
roster of a 30-fighter warband as of a game in the middle of the campaign with what changed in it. Aims: 50 ms,
50 ms and 100 ms. Printed for each: the median and the 95th percentile of 40 requests after 5 warm-up ones, and
the number of queries.

The history is made the way the app makes it: rows are inserted and updated with SQL, so pghistory's triggers
write the events, under `pghistory.context(...)` with the contexts the services set (games recorded, post-games
applied with their rolls, XP adjusted, Battlekit moved, the Strongbox spent), one transaction per step so events
carry distinct times. The database is the bench's own `warband_bench_history` (bench/support.py: created and migrated when missing,
never the one `make run` uses); the bench
campaign is loaded once and reused, then `ANALYZE`d (docs/development.md). The first run loads in well under two
minutes; later runs take seconds.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, setup_django  # noqa: E402

BENCH_DATABASE = "warband_bench_history"
CAMPAIGN = "Bench history campaign (bench/bench_history.py)"
TARGET_EVENTS = 100_000
WARBANDS = 8
FIGHTERS = {0: 30}  # the first warband has 30 fighters (the as-of view's), the others 20
OTHER_FIGHTERS = 20
ITEMS_PER_FIGHTER = 2
WARMUP, RUNS = 5, 40
DEEP = 90_000
AIMS_MS = {"feed, first page": 50, "feed, deep page": 50, "as of a game (30 fighters)": 100}


def count_events(campaign) -> int:
    from django.db import connection

    from rosters.history import registry

    total = 0
    with connection.cursor() as db:
        for source in registry.table_sources():
            # Everything in the bench database belongs to the bench campaign.
            db.execute(f"SELECT count(*) FROM {source.table}")  # noqa: S608 - a model's table name
            total += db.fetchone()[0]
    return total


def _founding():
    """The campaign, its four members and eight warbands with their fighters and Battlekit."""
    import pghistory
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from campaigns.models import Campaign, Membership
    from rosters.models import Fighter, Item, Warband

    users = get_user_model()
    people = [
        users.objects.create_user(f"bench_{n}", first_name=name)
        for n, name in enumerate(("Olga", "Pat", "Quinn", "Sam"))
    ]
    with pghistory.context(action="campaign.create", user=people[0].pk):
        campaign = Campaign.objects.create(name=CAMPAIGN, created_by=people[0])
        for index, user in enumerate(people):
            Membership.objects.create(
                campaign=campaign, user=user, role="organiser" if index == 0 else "player"
            )
    warbands = []
    for w in range(WARBANDS):
        owner = people[1 + w % 3]
        with transaction.atomic(), pghistory.context(action="warband.create", user=owner.pk):
            warband = Warband.objects.create(
                campaign=campaign, owner=owner, name=f"Warband {w}", strongbox=500
            )
            size = FIGHTERS.get(w, OTHER_FIGHTERS)
            fighters = Fighter.objects.bulk_create(
                Fighter(
                    warband=warband, name=f"Fighter {w}-{n}", keywords=["ELITE"] if n < 5 else [], xp=n % 4
                )
                for n in range(size)
            )
            Item.objects.bulk_create(
                Item(warband=warband, fighter=f, name=f"Blade {f.name}-{k}")
                for f in fighters
                for k in range(ITEMS_PER_FIGHTER)
            )
        warbands.append(warband)
    return campaign, people, warbands


def _record_game(db, campaign, organiser, number, home, away):
    """The game is recorded: its entry per warband, a few fighters taken Out of Action."""
    import pghistory
    from django.db import transaction

    from campaigns.models import Game, GamePlayer

    with transaction.atomic(), pghistory.context(action="game.record", user=organiser.pk):
        game = Game.objects.create(
            campaign=campaign, number=number, played_on="2026-01-01", created_by=organiser
        )
        pghistory.context(game=game.pk)
        players = GamePlayer.objects.bulk_create(
            [
                GamePlayer(game=game, warband=home, result="win"),
                GamePlayer(game=game, warband=away, result="loss"),
            ]
        )
        db.execute(
            "INSERT INTO campaigns_outofaction (player_id, fighter_id) "
            "SELECT %s, id FROM rosters_fighter WHERE warband_id = %s ORDER BY id LIMIT 3",
            [players[1].pk, away.pk],
        )
    return game, players


def _post_game(db, campaign, game, number, player, warband):
    """The post-game: XP for every fighter, an Injury, Battlekit to the Arsenal, the Strongbox."""
    import pghistory
    from django.db import transaction

    from combat.models import DiceRoll

    owner = warband.owner_id
    rolls = DiceRoll.objects.bulk_create(
        DiceRoll(
            campaign=campaign,
            game=game,
            warband=warband,
            rolled_by_id=owner,
            source="server",
            sides=6,
            faces=[4, 1 + k],
            purpose="trauma",
            label=f"D66 4{1 + k}",
        )
        for k in range(3)
    )
    context = pghistory.context(
        action="post_game.apply",
        game=game.pk,
        warband=warband.pk,
        user=owner,
        step="apply",
        reason=f"Post-game of Game {number} applied to {warband.name}",
        roll=[r.pk for r in rolls],
    )
    with transaction.atomic(), context:
        db.execute("UPDATE rosters_fighter SET xp = xp + 1 WHERE warband_id = %s", [warband.pk])
        db.execute(
            "INSERT INTO rosters_injury (fighter_id, code, name, effect, game_id, d66, created_at) "
            "SELECT id, 'hand_wound', 'Hand Wound', '', %s, 14, now() FROM rosters_fighter "
            "WHERE warband_id = %s ORDER BY random() LIMIT 1",
            [game.pk, warband.pk],
        )
        db.execute(
            "UPDATE rosters_item SET fighter_id = NULL WHERE id IN (SELECT id FROM rosters_item "
            "WHERE warband_id = %s AND fighter_id IS NOT NULL ORDER BY random() LIMIT 3)",
            [warband.pk],
        )
        db.execute("UPDATE rosters_warband SET strongbox = strongbox + 15 WHERE id = %s", [warband.pk])
        db.execute("UPDATE campaigns_gameplayer SET post_game = 'done' WHERE id = %s", [player.pk])


def _between_games(db, number, warband):
    """Between games: the Arsenal handed out again, the Strongbox spent, Glorious Deeds."""
    import pghistory
    from django.db import transaction

    owner = warband.owner_id
    with transaction.atomic(), pghistory.context(action="item.move", user=owner, reason="rearmed"):
        db.execute(
            "UPDATE rosters_item i SET fighter_id = (SELECT id FROM rosters_fighter f "
            "WHERE f.warband_id = i.warband_id ORDER BY random() LIMIT 1) "
            "WHERE warband_id = %s AND fighter_id IS NULL",
            [warband.pk],
        )
    with (
        transaction.atomic(),
        pghistory.context(action="warband.adjust", user=owner, reason="bought Battlekit"),
    ):
        db.execute("UPDATE rosters_warband SET strongbox = strongbox - 10 WHERE id = %s", [warband.pk])
    with transaction.atomic(), pghistory.context(action="xp.adjust", user=owner, reason="Glorious Deeds"):
        db.execute(
            "UPDATE rosters_fighter SET xp = xp + 1 WHERE warband_id = %s AND id %% 2 = %s",
            [warband.pk, number % 2],
        )


def load(target: int = TARGET_EVENTS):
    """The bench campaign, loaded once: 8 warbands, their fighters and Battlekit, then games and post-games until
    the campaign's history holds `target` events."""
    from django.db import connection

    from campaigns.models import Campaign, Game

    existing = Campaign.objects.filter(name=CAMPAIGN).first()
    if existing is not None and count_events(existing) >= target:
        return existing
    if existing is not None or Campaign.objects.exists():
        raise SystemExit(
            f"The database {os.environ['DATABASE_URL']} holds other data or a half-loaded bench; drop it first."
        )
    started = time.perf_counter()
    campaign, people, warbands = _founding()
    number = 0
    with connection.cursor() as db:
        while number % 20 or count_events(campaign) < target:
            number += 1
            home, away = warbands[number % WARBANDS], warbands[(number * 3 + 1) % WARBANDS]
            if home == away:
                away = warbands[(number + 1) % WARBANDS]
            game, players = _record_game(db, campaign, people[0], number, home, away)
            for player, warband in zip(players, (home, away), strict=True):
                _post_game(db, campaign, game, number, player, warband)
                _between_games(db, number, warband)
            Game.objects.filter(pk=game.pk).update(status="done")
        db.execute("ANALYZE")
    print(
        f"   loaded {count_events(campaign):,} history events in {number} games in {time.perf_counter() - started:.0f} s"
    )
    return campaign


def measure(client, url: str, *, expect: int = 200) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(WARMUP):
        assert client.get(url).status_code == expect, url
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == expect, url
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), statistics.quantiles(times, n=20)[-1], len(queries)


def _deep_cursor(events: int) -> str:
    """The position 90,000 events back: where "Older changes" clicked 1,800 times would be."""
    from django.db import connection

    from rosters.history import registry
    from rosters.history.sources import Cursor

    union = " UNION ALL ".join(
        f"SELECT pgh_created_at, {source.rank} AS rank, pgh_id FROM {source.table}"  # noqa: S608
        for source in registry.table_sources()
    )
    with connection.cursor() as db:
        db.execute(
            f"SELECT * FROM ({union}) e ORDER BY 1 DESC, 2 DESC, 3 DESC OFFSET %s LIMIT 1",  # noqa: S608
            [min(DEEP, events - 1)],
        )
        at, rank, pgh_id = db.fetchone()
    return Cursor(at=at, rank=rank, pgh_id=pgh_id).encode()


def _pages(campaign, warband, middle, deep) -> tuple[dict, dict]:
    from django.urls import reverse

    feed = reverse("campaign_history", args=[campaign.pk])
    pages = {
        "feed, first page": feed,
        "feed, deep page": f"{feed}?before={deep}",
        "as of a game (30 fighters)": reverse("warband_as_of", args=[warband.pk, middle.pk]),
    }
    extra = {
        "feed filtered by warband and kind": f"{feed}?warband={warband.pk}&kind=xp",
        "warband timeline": reverse("warband_history", args=[warband.pk]),
        "fighter timeline": reverse("fighter_history", args=[warband.fighters.order_by("id").first().pk]),
        "dice log": reverse("campaign_dice_log", args=[campaign.pk]),
    }
    return pages, extra


def _report(client, pages: dict, extra: dict) -> bool:
    failed = False
    for name, url in pages.items():
        median, p95, queries = measure(client, url)
        aim = AIMS_MS[name]
        verdict = "ok" if median <= aim else "OVER AIM"
        failed |= median > aim
        print(
            f"   {name:<36} median {median:6.1f} ms   p95 {p95:6.1f} ms   {queries:2d} queries   aim {aim} ms: {verdict}"
        )
    for name, url in extra.items():
        median, p95, queries = measure(client, url)
        print(f"   {name:<36} median {median:6.1f} ms   p95 {p95:6.1f} ms   {queries:2d} queries")
    return failed


def feed_plan(campaign) -> tuple[int, float, float]:
    """The feed's first page's two queries (its events, then their rows) under EXPLAIN ANALYZE: how many subplans
    their plans run (a correlated subquery run again for each row it is asked for), and their execution and
    planning times in ms (a query naming every event table cost more to plan than to run)."""
    import json

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rosters.history.feed import history_page

    with CaptureQueriesContext(connection) as captured:
        history_page(campaign=campaign)
    # The page's events and their rows come first (its docstring), the names its sentences need after.
    plans = []
    for query in captured.captured_queries[:2]:
        with connection.cursor() as db:
            db.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + query["sql"])
            plan = db.fetchone()[0]
        plans.append((json.loads(plan) if isinstance(plan, str) else plan)[0])

    def subplans(node) -> int:
        # A CTE or an InitPlan runs once; a SubPlan once per row that asks for it.
        return node.get("Subplan Name", "").startswith("SubPlan") + sum(
            subplans(child) for child in node.get("Plans", ())
        )

    return (
        sum(subplans(plan["Plan"]) for plan in plans),
        sum(plan["Execution Time"] for plan in plans),
        sum(plan["Planning Time"] for plan in plans),
    )


def main() -> int:
    setup_django(bench_database_url(BENCH_DATABASE))
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from campaigns.models import Game
    from rosters.history.feed import history_page
    from rosters.models import Warband

    campaign = load()
    with connection.cursor() as db:
        db.execute("ANALYZE")
    events = count_events(campaign)
    warband = Warband.objects.filter(campaign=campaign).order_by("id").first()
    games = list(Game.objects.filter(campaign=campaign, players__warband=warband).order_by("number"))
    middle = games[len(games) // 2]
    client = Client()
    client.force_login(campaign.created_by)
    print(
        f"   {events:,} history events; {warband.fighters.count()} fighters in {warband.name}; as of Game {middle.number}"
    )
    failed = _report(client, *_pages(campaign, warband, middle, _deep_cursor(events)))
    subplans, executed, planned = feed_plan(campaign)
    print(
        f"   {'feed queries (EXPLAIN ANALYZE)':<36} {executed:6.1f} ms in the database, {planned:.1f} ms planning,"
        f" {subplans} subplans"
    )
    # Polling with nothing new: the cheapest answer, every ten seconds from every open feed.
    newest = history_page(campaign=campaign, limit=1).newest
    feed = reverse("campaign_history", args=[campaign.pk])
    median, p95, queries = measure(client, f"{feed}?after={newest}", expect=204)
    print(
        f"   {'feed poll, nothing new (204)':<36} median {median:6.1f} ms   p95 {p95:6.1f} ms   {queries:2d} queries"
    )
    if failed:
        print(
            "   (over an aim: figures are reported, not enforced; see the query plans with EXPLAIN ANALYZE)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
