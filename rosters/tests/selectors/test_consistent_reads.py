"""A page's reads in one snapshot (`consistent_reads`): REPEATABLE READ asked with the transaction's BEGIN, and the
connection back at its own level after it, whether the reads ended well or not."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rosters.selectors.common import consistent_reads


def isolation() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW transaction_isolation")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_the_reads_share_one_snapshot_and_the_connection_keeps_its_own_level():
    before = isolation()
    with CaptureQueriesContext(connection) as captured, consistent_reads():
        assert isolation() == "repeatable read"
    # No statement of its own: the level rides on the BEGIN.
    assert [query["sql"] for query in captured] == ["BEGIN", "SHOW transaction_isolation", "COMMIT"]
    assert isolation() == before == "read committed"
    with pytest.raises(ZeroDivisionError), consistent_reads():
        1 / 0  # noqa: B018
    assert isolation() == "read committed"


@pytest.mark.django_db
def test_inside_a_transaction_already_open_it_adds_nothing(django_assert_num_queries):
    with django_assert_num_queries(0), consistent_reads():
        pass
