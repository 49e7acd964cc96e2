"""rosters/selectors/common.py: the headline numbers the pages share, counted in the database as the engine counts
them (RULING T-1: the ELITE keyword compared without case, or a Fallout: Factions Champion)."""

import pytest

from combat import rules
from combat.rules.roles import keyword_key
from rosters.models import Fighter, Warband
from rosters.selectors.common import warbands_with_headlines

pytestmark = pytest.mark.django_db


def test_the_elite_count_compares_the_keyword_as_the_engine_does(warband, make_fighter):
    fighters = [
        make_fighter(warband, "Sister Agnes", keywords=["ELITE"]),
        make_fighter(
            warband, "Brother Imported", keywords=["elite"]
        ),  # as an import or the admin may store it
        make_fighter(warband, "Padded Knight", keywords=["HEAVY", " Elite\t"]),
        make_fighter(warband, "Vault Champion", champion=True),
        make_fighter(warband, "Yeoman Tom", keywords=["ELITES", "HEAVY"]),
        make_fighter(warband, "Elite-in-name Troop", keywords=["TROOP"]),
        make_fighter(warband, "Gone Elite", keywords=["elite"], status=Fighter.Status.DEAD),
    ]
    engine = sum(f.counts_as_elite for f in fighters if f.is_active)
    assert engine == 4
    row = warbands_with_headlines(Warband.objects.filter(pk=warband.pk)).get()
    assert (row.elite_count, row.fighter_count) == (engine, 6)
    assert keyword_key(" Elite\t") == rules.ELITE


def test_the_headlines_cost_one_query(warband, make_fighter, django_assert_num_queries):
    make_fighter(warband, "Brother Imported", keywords=["elite"])
    with django_assert_num_queries(1):
        [row] = list(warbands_with_headlines(Warband.objects.filter(pk=warband.pk)))
    assert row.elite_count == 1
