"""The history context every service writes under, and adding to it once a new row's id is known.

`history_context(by=..., action=..., reason=..., ...)` is the one way a service opens pghistory's context (the
contract: `action`, `reason`, and `game`, `warband`, `fighter`, `roll`, `step` where they apply); it adds the
acting user's id, which a request's middleware records too but demo data and tests have no request for.

A service opens the context before it writes. When it creates a row, that row's id (the new warband's, fighter's,
game's) is only known after the insert, and the insert's event is already tied to the context. Every event of one
context shares one context row (`pghistory.models.Context`), so adding the id to the context afterwards and writing
that row again gives the insert's event the id too: `add_context(warband=warband.pk)`.

Leaving the context says what the write touched (its `campaign`, or its `game`'s, and its `action`) through
`campaigns.signals.campaign_written`, so the caches above campaigns that show it (the page cache's tokens,
config/page_versions.py, which decides from the action how far a write reaches) are replaced once it commits. Only pghistory's public API is used: the context is entered
and left as a context manager, never subclassed, and the context row is written through its model.

It lives in campaigns, the lowest app, because every app's services write under it, campaigns' own included.
"""

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pghistory
from django.core.serializers.json import DjangoJSONEncoder
from pghistory.models import Context

from campaigns.signals import campaign_written


@contextlib.contextmanager
def history_context(*, by, **values: Any) -> Iterator[Any]:
    """pghistory's context for one write, with `user` set to the acting user's id when there is one. Leaving it
    (even by an error: a write outside a transaction may be half done) tells which campaign it wrote to; every
    listener acts once that commits, and not at all if it rolls back."""
    if by is not None and getattr(by, "pk", None) is not None:
        values["user"] = by.pk
    try:
        with pghistory.context(**values) as context:
            yield context
    finally:
        campaign_written.send(
            sender=None,
            campaign=values.get("campaign"),
            game=values.get("game"),
            by=values.get("user"),
            action=values.get("action"),
        )


def add_context(**values: Any) -> None:
    """Merge `values` into the open history context and store its row now (outside one, it does nothing)."""
    # Called, not entered: merged into the open context, ignored when none is open (pghistory's documented use).
    pghistory.context(**values)
    if "campaign" in values or "game" in values:  # a campaign or game made in this write: its id is known now
        campaign_written.send(sender=None, campaign=values.get("campaign"), game=values.get("game"), by=None)
    with pghistory.context() as context:  # entered: the open context, or a new and empty one when none is
        if not context.metadata:
            return
        # One upsert, as pghistory's own trigger writes the row (the first event of a context inserts it, a later
        # one replaces its values), with the values serialised as pghistory serialises them (DjangoJSONEncoder).
        metadata = json.loads(json.dumps(context.metadata, cls=DjangoJSONEncoder))
        Context.objects.bulk_create(
            [Context(id=context.id, metadata=metadata)],
            update_conflicts=True,
            unique_fields=["id"],
            update_fields=["metadata", "updated_at"],
        )
