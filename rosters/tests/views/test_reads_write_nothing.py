"""GET never writes: every page of the permission matrix, read by each person, leaves every table as it was.

The matrix (test_permissions.py) already checks that a read writes no history; this checks the rows themselves,
in every table of every app (history events and sessions included; the page cache is in memory), by content, not only by count.
"""

import pytest
from django.apps import apps
from django.db import connection

from rosters.tests.views.test_permissions import CASES, ROLES

pytestmark = pytest.mark.django_db

GETS = [case for case in CASES if case[1] == "get"]


def every_table() -> dict[str, str]:
    """Each table's name and a digest of all its rows."""
    tables = sorted(
        {
            model._meta.db_table
            for model in apps.get_models(include_auto_created=True)
            if model._meta.managed
            and not model._meta.proxy  # pghistory's Events is a view over the event tables
        }
    )
    digests = {}
    with connection.cursor() as cursor:
        for table in tables:
            name = connection.ops.quote_name(table)
            # The table names come from the app registry, quoted: no outside input reaches this SQL.
            cursor.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {name} t"  # noqa: S608
            )
            digests[table] = cursor.fetchone()
    return digests


@pytest.fixture
def people(organiser, player, spectator, outsider):
    return {
        "anonymous": None,
        "outsider": outsider,
        "spectator": spectator,
        "player": player,
        "organiser": organiser,
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("url", "headers"), [pytest.param(case[2], case[4], id=f"GET {case[0]}") for case in GETS]
)
def test_a_read_changes_no_row_of_any_table(client, world, people, role, url, headers, request):
    user = request.getfixturevalue("demoted") if role == "demoted" else people[role]
    if user is not None:
        client.force_login(user)
    path = url(world)
    before = every_table()

    client.get(path, **headers)

    after = every_table()
    assert [table for table in before if before[table] != after[table]] == [], f"{role} GET {path}"
