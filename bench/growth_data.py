"""The data bench_growth.py measures on, in its own database `warband_bench_growth` (loaded once, reused).

- `campaigns()`: two campaigns alike but for their length, one of 10 games and one of 500 (two warbands each).
- `warbands()`: two warbands alike but for their size, 10 and 200 fighters (each with two pieces of Battlekit).
- `as_of_campaign()` and `fill_history(total)`: a campaign of 10 recorded games between two 15-fighter warbands,
  then history events written straight with SQL `generate_series` until the database holds `total` events:
  half of them the measured warband's own fighters changing *after* the moment the as-of page shows, half other
  warbands' fighters and Battlekit, with a context for every 20 (as the services write them). The filler's rows
  are marked by `pgh_label = 'bench.filler'` and deleted again before a smaller total is filled. ANALYZE after.
"""

# ruff: noqa: S608 - the SQL below is assembled from the app's own table and column names; values are parameters.
from __future__ import annotations

import datetime

GAMES = {"short": 10, "long": 500}
FIGHTERS = {"small": 10, "large": 200}
FILLER = "bench.filler"
AS_OF_CAMPAIGN = "Growth: as-of (bench/bench_growth.py)"


def _users():
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    organiser = users.filter(username="growth_organiser").first() or users.create_user("growth_organiser")
    player = users.filter(username="growth_player").first() or users.create_user("growth_player")
    return organiser, player


def _campaign(name: str, organiser, player):
    from campaigns.models import Campaign
    from campaigns.services import campaigns as campaign_services
    from campaigns.services import invitations as invitation_services

    campaign = Campaign.objects.filter(name=name).first()
    if campaign is None:
        campaign = campaign_services.campaign_create(name=name, by=organiser)
        invitation_services.campaign_join(code=campaign.invitation_code, user=player)
    return campaign


def _warband(campaign, owner, name: str, fighters: int, faction: str = "Trench Pilgrims"):
    from rosters.models import Warband
    from rosters.services.battlekit import item_create
    from rosters.services.fighters import fighter_create
    from rosters.services.warbands import warband_create

    warband = Warband.objects.filter(campaign=campaign, name=name).first()
    if warband is not None:
        return warband
    warband = warband_create(
        campaign=campaign, owner=owner, name=name, faction=faction, strongbox=100, by=owner
    )
    for number in range(fighters):
        fighter = fighter_create(
            warband=warband, by=owner, name=f"{name} {number}", elite=number % 5 == 0, xp=number % 9
        )
        item_create(warband=warband, fighter=fighter, name="Bolt Action Rifle", by=owner)
        item_create(warband=warband, fighter=fighter, name="Trench Club", keywords=["TWO-HANDED"], by=owner)
    return warband


def _games(campaign, organiser, home, away, count: int) -> None:
    from campaigns.models import Game
    from rosters.services.games import GameEntry, game_record

    done = Game.objects.filter(campaign=campaign).count()
    fighters = list(home.fighters.order_by("id"))
    for number in range(done, count):
        game_record(
            campaign=campaign,
            by=organiser,
            played_on=datetime.date(2020, 1, 1) + datetime.timedelta(days=number),
            scenario="Growth scenario",
            entries=[
                GameEntry(home, "win" if number % 2 else "loss", fighters[number % len(fighters) :][:1]),
                GameEntry(away, "loss" if number % 2 else "win", []),
            ],
        )


def campaigns() -> dict:
    """{"short": campaign of 10 games, "long": campaign of 500}, and the user who reads them."""
    from django.db import transaction

    organiser, player = _users()
    found = {}
    for size, count in GAMES.items():
        with transaction.atomic():
            campaign = _campaign(f"Growth: {count} games (bench/bench_growth.py)", organiser, player)
            home = _warband(campaign, player, f"Pilgrims of {count}", 12)
            away = _warband(campaign, organiser, f"Heretics of {count}", 12, "Heretic Legion")
        for start in range(0, count, 50):  # one transaction per 50 games: a failure keeps what was loaded
            with transaction.atomic():
                _games(campaign, organiser, home, away, min(count, start + 50))
        found[size] = campaign
    return {"campaigns": found, "user": player}


def warbands() -> dict:
    """{"small": warband of 10 fighters, "large": of 200}, and their owner."""
    from django.db import transaction

    organiser, player = _users()
    with transaction.atomic():
        campaign = _campaign("Growth: rosters (bench/bench_growth.py)", organiser, player)
        found = {size: _warband(campaign, player, f"Roster of {n}", n) for size, n in FIGHTERS.items()}
    return {"warbands": found, "user": player}


def as_of_campaign() -> dict:
    """The as-of page's campaign: two 15-fighter warbands, 10 games; the measured warband and its 5th game."""
    from django.db import transaction

    from campaigns.models import Game

    organiser, player = _users()
    with transaction.atomic():
        campaign = _campaign(AS_OF_CAMPAIGN, organiser, player)
        home = _warband(campaign, player, "As-of Pilgrims", 15)
        away = _warband(campaign, organiser, "As-of Heretics", 15, "Heretic Legion")
        _games(campaign, organiser, home, away, 10)
    middle = Game.objects.get(campaign=campaign, number=5)
    return {"warband": home, "other": away, "game": middle, "user": player}


def count_events() -> int:
    from django.db import connection

    from rosters.history import registry

    total = 0
    with connection.cursor() as db:
        for source in registry.table_sources():
            db.execute("SELECT reltuples::bigint FROM pg_class WHERE relname = %s", [source.table])
            total += max(db.fetchone()[0], 0)
    return total


def _copy_sql(table: str, overrides: dict[str, str]) -> str:
    """INSERT ... SELECT copying one template row `t` of `table` per `n` of a generate_series, with `overrides`
    (column -> SQL expression over t and n); pgh_id comes from the table's identity. Written from the table's
    columns as they are, so a field added to a model later does not break the bench."""
    from django.db import connection

    with connection.cursor() as db:
        db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s ORDER BY ordinal_position",
            [table],
        )
        columns = [name for (name,) in db.fetchall() if name != "pgh_id"]
    values = ", ".join(overrides.get(name, f"t.{name}") for name in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) SELECT {values}"


def fill_history(setup: dict, total: int) -> int:
    """Filler events (and contexts) until the database holds about `total` history events; ANALYZEd after."""
    from django.db import connection, transaction

    from rosters.history import registry

    fighters_table, items_table = registry.by_name("fighter").table, registry.by_name("item").table
    with connection.cursor() as db:
        for table in (fighters_table, items_table):
            db.execute(f"DELETE FROM {table} WHERE pgh_label = %s", [FILLER])
        db.execute("DELETE FROM pghistory_context WHERE metadata->>'action' = %s", [FILLER])
        db.execute("VACUUM ANALYZE")  # outside a transaction: Django autocommits
        missing = max(total - count_events(), 0)
        if missing:
            with transaction.atomic():
                _fill(db, setup, fighters_table, items_table, missing)
        db.execute("VACUUM ANALYZE")
    return count_events()


def _fill(db, setup: dict, fighters_table: str, items_table: str, missing: int) -> None:
    own, other = setup["warband"].pk, setup["other"].pk
    later = "now() + make_interval(secs => n / 1000.0)"  # after every moment of the ten games
    own_fighters = list(setup["warband"].fighters.values_list("pk", flat=True))
    half = missing // 2
    # The measured warband's own fighters, changing after the moment (their XP goes up and up).
    db.execute(
        _copy_sql(
            fighters_table,
            {
                "pgh_created_at": later,
                "pgh_label": "%(filler)s",
                "pgh_context_id": "NULL",
                "pgh_obj_id": "(%(own_fighters)s::bigint[])[1 + n %% %(fighters)s]",
                "id": "(%(own_fighters)s::bigint[])[1 + n %% %(fighters)s]",
                "xp": "n %% 1000",
            },
        )
        + f" FROM (SELECT * FROM {fighters_table} WHERE warband_id = %(own)s LIMIT 1) t,"
        " generate_series(1, %(count)s) n",
        {
            "filler": FILLER,
            "own_fighters": own_fighters,
            "fighters": len(own_fighters),
            "own": own,
            "count": half,
        },
    )
    # Other warbands' fighters and Battlekit (ids no row has now), before and after the moment alike.
    for table, count in (
        (fighters_table, (missing - half) // 2),
        (items_table, (missing - half) - (missing - half) // 2),
    ):
        db.execute(
            _copy_sql(
                table,
                {
                    "pgh_created_at": "now() - make_interval(days => 3000) + make_interval(secs => n)",
                    "pgh_label": "%(filler)s",
                    "pgh_context_id": "NULL",
                    "pgh_obj_id": "1000000000 + n / 20",
                    "id": "1000000000 + n / 20",
                    "warband_id": "1000000 + n %% 500",
                },
            )
            + f" FROM (SELECT * FROM {table} WHERE warband_id = %(other)s LIMIT 1) t,"
            " generate_series(1, %(count)s) n",
            {"filler": FILLER, "other": other, "count": count},
        )
    db.execute(
        "INSERT INTO pghistory_context (id, created_at, updated_at, metadata)"
        " SELECT gen_random_uuid(), now(), now(),"
        " jsonb_build_object('action', %s::text, 'game', (1000000 + n %% 5000)::text)"
        " FROM generate_series(1, %s) n",
        [FILLER, missing // 20],
    )
