"""The history context every service writes under, and adding to it once a new row's id is known.

`history_context(by=..., action=..., reason=..., ...)` is the one way a service opens pghistory's context (the
contract: `action`, `reason`, and `game`, `warband`, `fighter`, `roll`, `step` where they apply); it adds the
acting user's id, which a request's middleware records too but demo data and tests have no request for.

A service opens `pghistory.context(action=..., reason=...)` before it writes. When it creates a row, that row's id
(the new warband's, fighter's, game's) is only known after the insert, and the insert's event is already tied to
the context. Every event of one context shares one context row, so adding the id to the context afterwards and
writing the context row again gives the insert's event the id too: `add_context(warband=warband.pk)`.

Leaving the context tells `campaigns.page_versions` which campaign the write touched (its `campaign`, or its
`game`'s), so the members' cached pages are replaced once it commits (issue 15).
"""

from typing import Any

import pghistory
from django.db import connection

from campaigns import page_versions


class _HistoryContext(pghistory.context):
    """pghistory's context, which on leaving has the pages of the campaign it wrote to replaced after the commit
    (left inside a transaction: when it commits; outside one: the writes are committed already)."""

    def __exit__(self, *exc_info):
        values = self.metadata
        page_versions.campaign_changed(
            campaign=values.get("campaign"), game=values.get("game"), by=values.get("user")
        )
        return super().__exit__(*exc_info)


def history_context(*, by, **values: Any) -> pghistory.context:
    """pghistory's context for one write, with `user` set to the acting user's id when there is one."""
    if by is not None and getattr(by, "pk", None) is not None:
        values["user"] = by.pk
    return _HistoryContext(**values)


def add_context(**values: Any) -> None:
    """Merge `values` into the open history context and store it now (outside one, it does nothing)."""
    pghistory.context(**values)
    if "campaign" in values or "game" in values:  # a campaign or game made in this write: its id is known now
        page_versions.campaign_changed(campaign=values.get("campaign"), game=values.get("game"))
    with connection.cursor() as cursor:
        # pghistory's own function upserts the context row from the values pghistory sends with a statement;
        # it sends none with a statement that starts with SELECT, hence the WITH.
        cursor.execute("WITH attached AS (SELECT _pgh_attach_context()) SELECT 1 FROM attached")
