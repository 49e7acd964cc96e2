"""combat/management/demo_prices.py: the demo campaign's own made-up prices are a price list the campaign keeps,
and they price every fighter type and piece of Battlekit the demo's warbands are recruited with."""

from combat.management.commands.load_demo import HERETICS, PILGRIMS
from combat.management.demo_prices import BATTLEKIT_ROWS, FIGHTER_TYPES, the_long_trench_rows
from rosters.price_lists import BATTLEKIT, DEMO_ROWS, FIGHTERS, checked_rows


def test_the_rows_are_a_price_list_the_checks_keep_as_they_are():
    rows = the_long_trench_rows()
    for kind in (FIGHTERS, BATTLEKIT):
        clean = checked_rows(kind, rows[kind])
        assert sorted(clean, key=lambda row: row["name"]) == sorted(rows[kind], key=lambda row: row["name"])


def test_they_keep_the_shipped_demo_list_and_add_the_warbands_own_types_and_battlekit():
    rows = the_long_trench_rows()
    assert rows[FIGHTERS][: len(DEMO_ROWS[FIGHTERS])] == DEMO_ROWS[FIGHTERS]
    assert rows[BATTLEKIT][: len(DEMO_ROWS[BATTLEKIT])] == DEMO_ROWS[BATTLEKIT]
    shipped = {row["name"] for kind in (FIGHTERS, BATTLEKIT) for row in DEMO_ROWS[kind]}
    assert not shipped & {row["name"] for row in [*FIGHTER_TYPES, *BATTLEKIT_ROWS]}


def test_every_demo_fighter_type_and_piece_is_listed_at_a_price():
    fighters = [*PILGRIMS, *HERETICS]
    types = {row["name"]: row for row in FIGHTER_TYPES}
    kit = {row["name"]: row for row in BATTLEKIT_ROWS}
    assert {kind for _, kind, _, _ in fighters} == set(types)
    assert {name for *_, held in fighters for name in held} | {
        "Trench Shield",
        "Incendiary Grenades",
        "Blasphemous Tome",
    } == set(kit)
    assert min(row["cost"] for row in [*FIGHTER_TYPES, *BATTLEKIT_ROWS]) > 0
    # ELITE on the list is what makes a recruit ELITE (RULING T-1): the story's heroes and no Troop.
    elite = {kind for kind, row in types.items() if "ELITE" in row["keywords"]}
    assert elite == {
        "War Prophet",
        "Castigator",
        "Communicant",
        "Heretic Priest",
        "Heretic Chorister",
        "Heretic Death Commando",
    }
