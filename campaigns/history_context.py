"""Adding to the history context once a new row's id is known.

A service opens `pghistory.context(action=..., reason=...)` before it writes. When it creates a row, that row's id
(the new warband's, fighter's, game's) is only known after the insert, and the insert's event is already tied to
the context. Every event of one context shares one context row, so adding the id to the context afterwards and
writing the context row again gives the insert's event the id too: `add_context(warband=warband.pk)`.
"""

from typing import Any

import pghistory
from django.db import connection


def add_context(**values: Any) -> None:
    """Merge `values` into the open history context and store it now (outside one, it does nothing)."""
    pghistory.context(**values)
    with connection.cursor() as cursor:
        # pghistory's own function upserts the context row from the values pghistory sends with a statement;
        # it sends none with a statement that starts with SELECT, hence the WITH.
        cursor.execute("WITH attached AS (SELECT _pgh_attach_context()) SELECT 1 FROM attached")
