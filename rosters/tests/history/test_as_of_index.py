"""The as-of roster reads only the warband's own rows, through indexes: its plan on a large history.

The history tables are filled with SQL generate_series (other warbands' fighters and Battlekit, and the measured
warband's own fighters changing after the moment), ANALYZEd, then the snapshot's query is EXPLAINed: it must
find the rows that ever belonged to the warband by the (warband_id, pgh_obj_id) and (fighter_id, pgh_obj_id)
indexes and each row's last event by (pgh_obj_id, pgh_created_at, pgh_id), with no scan of a whole event table.
"""

import datetime as dt
import re

import pytest
from django.db import connection
from django.utils import timezone

from rosters.history import registry
from rosters.history.snapshot import _snapshot_sql, roster_snapshot
from rosters.services.battlekit import item_create
from rosters.services.fighters import fighter_create
from rosters.services.injuries import injury_add

pytestmark = pytest.mark.django_db

EVENTS = 20_000


def copy_rows(db, table: str, source_where: str, overrides: dict[str, str], count: int, params: dict) -> None:
    """`count` copies of one event row of `table`, with `overrides` (SQL over t and n)."""
    db.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = %s ORDER BY ordinal_position",
        [table],
    )
    columns = [name for (name,) in db.fetchall() if name != "pgh_id"]
    values = ", ".join(overrides.get(name, f"t.{name}") for name in columns)
    db.execute(
        f"INSERT INTO {table} ({', '.join(columns)}) SELECT {values} "  # noqa: S608 - the app's own tables
        f"FROM (SELECT * FROM {table} WHERE {source_where} LIMIT 1) t, generate_series(1, %(count)s) n",
        {**params, "count": count},
    )


@pytest.fixture
def large_history(warband, rival_warband, player, player2):
    """Two fighters with Battlekit and an Injury in the warband; EVENTS events elsewhere or later; ANALYZEd."""
    marcus = fighter_create(warband=warband, by=player, name="Brother Marcus", elite=True)
    ada = fighter_create(warband=warband, by=player, name="Sister Ada")
    item_create(warband=warband, fighter=marcus, name="Trench Club", by=player)
    injury_add(fighter=ada, code="leg_wound", name="Leg Wound", d66=31, by=player)
    rival = fighter_create(warband=rival_warband, by=player2, name="Heretic")
    item_create(warband=rival_warband, fighter=rival, name="Rifle", by=player2)
    fighters, items = registry.by_name("fighter").table, registry.by_name("item").table
    later = "now() + make_interval(days => 1, secs => n)"
    with connection.cursor() as db:
        # The warband's own fighters, changing again and again after the moment.
        copy_rows(
            db,
            fighters,
            "pgh_obj_id = %(marcus)s",
            {"pgh_created_at": later, "xp": "n %% 1000"},
            EVENTS // 2,
            {"marcus": marcus.pk},
        )
        # Other warbands' fighters and Battlekit, rows no one has now.
        for table in (fighters, items):
            copy_rows(
                db,
                table,
                "warband_id = %(rival)s",
                {
                    "pgh_obj_id": "1000000 + n / 10",
                    "id": "1000000 + n / 10",
                    "warband_id": "100000 + n %% 50",
                },
                EVENTS // 4,
                {"rival": rival_warband.pk},
            )
        db.execute("ANALYZE")
    return {"marcus": marcus, "ada": ada}


def plan(warband, at) -> str:
    with connection.cursor() as db:
        db.execute("EXPLAIN (ANALYZE, TIMING OFF) " + _snapshot_sql("<="), {"w": warband.pk, "t": at})
        return "\n".join(row for (row,) in db.fetchall())


def rows_read(shown: str, index: str) -> int:
    """The index entries the plan's scans of `index` returned, over all their loops."""
    lines = [line for line in shown.splitlines() if f"using {index} " in line]
    found = [re.search(r"actual rows=(\d+) loops=(\d+)", line) for line in lines]
    return sum(int(match[1]) * int(match[2]) for match in found if match)


def test_the_as_of_roster_reads_the_warband_s_rows_through_their_indexes(warband, large_history):
    shown = plan(warband, timezone.now())
    for index in (
        "rosters_fighterevent_hist_members",
        "rosters_fighterevent_hist_obj",
        "rosters_itemevent_hist_members",
        "rosters_itemevent_hist_obj",
    ):
        assert index in shown, shown
    # (The Injury, skill and Location tables hold a row or none here: a scan of them is the planner's cheapest.)
    for table in ("rosters_fighterevent", "rosters_itemevent"):
        assert f"Seq Scan on {table}" not in shown, shown
        assert f"Bitmap Heap Scan on {table}" not in shown, shown
    # One entry per row the warband ever had (two fighters, one item) and one probe past the last: not one per
    # event, though Brother Marcus changed EVENTS // 2 times since.
    assert rows_read(shown, "rosters_fighterevent_hist_members") <= 2
    assert rows_read(shown, "rosters_itemevent_hist_members") <= 1


def test_the_events_after_the_moment_do_not_change_the_roster_then(warband, large_history):
    at = timezone.now()
    then = roster_snapshot(warband_id=warband.pk, at=at)
    assert [(f.name, f.xp) for f in then.fighters] == [("Brother Marcus", 0), ("Sister Ada", 0)]
    assert [i.name for i in then.fighters[0].battlekit_then] == ["Trench Club"]
    assert [i.name for i in then.fighters[1].injuries_then] == ["Leg Wound"]
    # The thousands of later events: the last of them is the roster a day and a half on.
    later = roster_snapshot(warband_id=warband.pk, at=at + dt.timedelta(days=2))
    assert later.fighters[0].xp == (EVENTS // 2) % 1000
