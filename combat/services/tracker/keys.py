"""Idempotency keys of the board's actions ("nothing is lost and nothing is applied twice").

A phone that loses its signal keeps the board's taps in a queue and sends them, one by one, when it is back; a tap
whose answer was lost is sent again. Each carries a key the phone made (`Sent.key`), unique per person and game:
the first send applies the action and keeps the key with it; a repeat is answered with that same action and
changes nothing. Taps of one queue share `Sent.batch`: they were all made on the board the phone saw when it went
offline, so each is checked against what the other phones changed since, never against the taps of its own queue
sent before it (three taps on one fighter are three actions, not two refusals).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from campaigns.models import Game
from combat.models import TrackerAction, TrackerActionKey, TrackerGame


@dataclass(frozen=True)
class Sent:
    """The key a phone gave one action, and the queue (`batch`) it was kept in ("" when it was never queued)."""

    key: str
    batch: str = ""


def replayed(*, game: Game, by, sent: Sent | None) -> TrackerAction | None:
    """The action this key already made, or None. Locks the board first, so a repeat sent at the same moment as
    the first waits for it and finds its key (called inside the service's transaction)."""
    if sent is None:
        return None
    TrackerGame.objects.select_for_update(of=("self",)).filter(game_id=game.pk).first()
    found = (
        TrackerActionKey.objects.filter(game_id=game.pk, user=by, key=sent.key)
        .select_related("action")
        .first()
    )
    return found.action if found is not None else None


def remember(action: TrackerAction, *, by, sent: Sent | None) -> TrackerAction:
    """Keep the key with the action it made (the same transaction: both or neither)."""
    if sent is not None:
        TrackerActionKey.objects.create(
            game_id=action.tracker.game_id, user=by, key=sent.key, batch=sent.batch, action=action
        )
    return action


def own_queue(changes: QuerySet[TrackerAction], *, game: Game, by, sent: Sent | None) -> QuerySet:
    """`changes` without the actions sent before from the same queue, unless someone has undone them since."""
    if sent is None or not sent.batch:
        return changes
    mine = TrackerActionKey.objects.filter(game_id=game.pk, user=by, batch=sent.batch).values("action_id")
    return changes.exclude(Q(pk__in=mine) & Q(undone_at__isnull=True))
