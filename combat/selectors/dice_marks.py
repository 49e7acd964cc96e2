"""What the dice log says of each roll: whether it counts, and if not, who struck it, when, why.

A stored roll is never deleted (docs/architecture.md, Randomness); it stops counting in four ways (combat/models/
dice_log.py): voided by the organiser, corrected (a die typed from the table, the right faces in a new roll),
undone by a tracker Undo, or undone when a post-game of the first version was reverted. The roll that counts
instead (`replaced_by`) says which roll it replaces. The page's query reads who struck a roll and whether it was a
post-game's; one more query reads the replacements and the rolls replaced, so the page's query count stays
constant. (Joining those two as well made PostgreSQL plan the page's query for 50 ms: eight relations pass its
join_collapse_limit, measured on 300,000 rolls; each read apart plans in about a millisecond.)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from combat.models import DiceRoll, PostGameRoll
from rosters.history.lookups import display_name

COUNTED = DiceRoll.Status.COUNTED

# The log's status filter: a choice of the form names one of these (all rolls when none).
STATUS_FILTERS: dict[str, tuple[str, Q]] = {
    "counts": ("Rolls that count", Q(status=COUNTED)),
    "struck": ("Rolls that no longer count", ~Q(status=COUNTED)),
    "voided": ("Voided", Q(status=DiceRoll.Status.VOIDED)),
    "corrected": ("Corrected", Q(status=DiceRoll.Status.CORRECTED)),
    "undone": ("Undone", Q(status=DiceRoll.Status.UNDONE)),
}


@dataclass(frozen=True)
class RollMark:
    """A roll that no longer counts: how (`status`), in words (`words`), and the roll that counts instead."""

    status: str
    words: str  # "voided by Olga at 21:14", "undone: tracker Undo by Pat at 21:14"
    reason: str
    replacement: DiceRoll | None
    replacement_spot: str = ""  # the log's cursor that opens on the replacement (its link's `before`)


@dataclass(frozen=True)
class Replaces:
    """A roll that counts in place of another: the struck roll and how it was struck ("corrected", "voided")."""

    roll: DiceRoll
    how: str
    spot: str  # the log's cursor that opens on the struck roll


def with_mark_rows(rolls):
    """The dice log's query, with what its marks read: who struck a roll, and whether it was a post-game's roll
    (an undone post-game roll was reverted; any other was a tracker Undo)."""
    in_post_game = PostGameRoll.objects.filter(dice_roll=OuterRef("pk"))
    return rolls.select_related("status_by").annotate(in_post_game=Exists(in_post_game))


def read_replacements(rolls: list[DiceRoll]) -> None:
    """In one query, each roll's replacement (`replacement_roll`) and the roll it replaces (`replaced_roll`)."""
    new_ids = [roll.replaced_by_id for roll in rolls if roll.replaced_by_id is not None]
    found = DiceRoll.objects.filter(Q(pk__in=new_ids) | Q(replaced_by__in=[roll.pk for roll in rolls]))
    found = list(found) if rolls else []
    by_id = {roll.pk: roll for roll in found}
    by_new = {roll.replaced_by_id: roll for roll in found if roll.replaced_by_id is not None}
    for roll in rolls:
        roll.replacement_roll = by_id.get(roll.replaced_by_id)
        roll.replaced_roll = by_new.get(roll.pk)


def filter_status(rolls, status: str | None):
    """Only the rolls of one status filter (STATUS_FILTERS), or all of them."""
    if not status:
        return rolls
    return rolls.filter(STATUS_FILTERS[status][1])


def _when(moment: dt.datetime, rolled_at: dt.datetime) -> str:
    """ "at 21:14" on the day of the roll, "on 2 Dec at 09:05" on a later day (in the site's time zone)."""
    moment, rolled_at = timezone.localtime(moment), timezone.localtime(rolled_at)
    at = f"at {moment:%H:%M}"
    return at if moment.date() == rolled_at.date() else f"on {moment.day} {moment:%b} {at}"


def _how(roll: DiceRoll) -> str:
    if roll.status == DiceRoll.Status.VOIDED:
        return "voided"
    if roll.status == DiceRoll.Status.CORRECTED:
        return "corrected"
    # An undone roll: a post-game's was set aside by a revert (first version); the tracker's by its Undo.
    return "undone: post-game reverted" if getattr(roll, "in_post_game", False) else "undone: tracker Undo"


def roll_mark(roll: DiceRoll, spot: Callable[[DiceRoll], str]) -> RollMark | None:
    """The mark of a roll that no longer counts; None for a roll that counts (shown plain). `spot` gives the
    log's cursor of a roll, for the link to its replacement."""
    if roll.status == COUNTED:
        return None
    words = _how(roll)
    if roll.status_by_id is not None:
        words += f" by {display_name(roll.status_by)}"
    if roll.status_at is not None:
        words += f" {_when(roll.status_at, roll.created_at)}"
    new = roll.replacement_roll
    return RollMark(roll.status, words, roll.status_reason, new, spot(new) if new is not None else "")


def roll_replaces(roll: DiceRoll, spot: Callable[[DiceRoll], str]) -> Replaces | None:
    """The roll this one counts in place of, if any (read_replacements found it)."""
    old = roll.replaced_roll
    if old is None:
        return None
    return Replaces(old, _how(old), spot(old))
