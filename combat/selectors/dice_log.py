"""Reads of the campaign's dice log.

Every roll of the campaign (DiceRoll: stored before its result is shown, docs/architecture.md), newest first, with
who rolled, when, server or entered (RULING T-7), the faces and what for, and whether it still counts
(combat/selectors/dice_marks.py). Pages by keyset over (created_at, id), which the `diceroll_campaign_recent`
index serves however long the log grows (and `diceroll_campaign_struck` for the rolls that no longer count).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from campaigns.models import Game
from combat.models import DiceRoll
from combat.selectors.dice_marks import (
    filter_status,
    read_replacements,
    roll_mark,
    roll_replaces,
    with_mark_rows,
)
from rosters.history.lookups import display_name
from rosters.models import Warband

DICE_PURPOSES = {
    "survival": "Survival Roll",
    "trauma": "Trauma roll",
    "bitter_lessons": "Bitter Lessons D3",
    "attack": "Attack Test",
    "confusion": "Confusion Test",
    "scenario": "Scenario roll",
}


@dataclass
class DiceLogPage:
    rolls: list
    older: str | None  # cursor of the next (older) page; None on the last page


class BadDiceCursor(ValueError):
    """A dice-log page link that was not made here."""


def _epoch():
    return dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def dice_cursor(roll) -> str:
    return f"{(roll.created_at - _epoch()) // dt.timedelta(microseconds=1)}-{roll.pk}"


def roll_spot(roll) -> str:
    """The cursor of the page that starts with `roll` (the keyset takes rolls older than it: its id plus one),
    so a link can lead to a roll wherever it now falls in the log."""
    return f"{(roll.created_at - _epoch()) // dt.timedelta(microseconds=1)}-{roll.pk + 1}"


def _parse_dice_cursor(text: str):
    match = re.fullmatch(r"(\d{1,18})-(\d{1,18})", text or "")
    if not match:
        raise BadDiceCursor("That page link is not valid; start again from the newest rolls.")
    return _epoch() + dt.timedelta(microseconds=int(match.group(1))), int(match.group(2))


def _moment(at: dt.datetime) -> dict[str, str]:
    """The roll's time in the site's time zone, in the parts the page shows: "2 Dec", "2026", "21:14", "05" (a
    phone leaves out the year and the seconds); formatted here once, not by four template filters a roll."""
    local = timezone.localtime(at)
    return {
        "iso": local.isoformat(),
        "day": f"{local.day} {local:%b}",
        "year": f"{local.year}",
        "minute": f"{local:%H:%M}",
        "second": f"{local:%S}",
    }


def _dice_words(roll) -> str:
    # A D66 is two D6 read as tens and units (TRAUMA_TABLE.md); other rolls are so many dice of so many sides.
    if roll.sides == 6 and len(roll.faces) == 2 and roll.purpose == "trauma":
        return "D66"
    return f"{len(roll.faces)}D{roll.sides}"


def dice_log_page(
    *,
    campaign,
    before: str | None = None,
    game_id: int | None = None,
    warband_id: int | None = None,
    status: str | None = None,
    limit: int = 50,
) -> DiceLogPage:
    """One page of the campaign's dice log, newest first; a fixed number of queries whatever its length.

    `status` is one of dice_marks.STATUS_FILTERS (the rolls that count, that no longer count, or of one status).
    """
    rolls = with_mark_rows(
        DiceRoll.objects.filter(campaign=campaign)
        .select_related("rolled_by", "game", "warband", "fighter")
        .order_by("-created_at", "-id")
    )
    rolls = filter_status(rolls, status)
    if game_id is not None:
        rolls = rolls.filter(game_id=game_id)
    if warband_id is not None:
        rolls = rolls.filter(warband_id=warband_id)
    if before:
        at, roll_id = _parse_dice_cursor(before)
        rolls = rolls.filter(Q(created_at__lt=at) | Q(created_at=at, id__lt=roll_id))
    found = list(rolls[: limit + 1])
    older = dice_cursor(found[limit - 1]) if len(found) > limit else None
    found = found[:limit]
    read_replacements(found)
    for roll in found:
        roll.purpose_words = DICE_PURPOSES.get(roll.purpose, roll.purpose.replace("_", " "))
        roll.dice_words = _dice_words(roll)
        roll.roller_name = display_name(roll.rolled_by) if roll.rolled_by else "someone"
        roll.at = _moment(roll.created_at)
        roll.mark = roll_mark(roll, roll_spot)
        roll.replacing = roll_replaces(roll, roll_spot)
    return DiceLogPage(rolls=found, older=older)


def dice_log_warband_choices(campaign) -> list[tuple[int, str]]:
    """The campaign's warbands for the log's filter, by name."""
    return list(Warband.objects.filter(campaign=campaign).order_by("name", "id").values_list("id", "name"))


def dice_log_game_id(*, campaign, number: int) -> int | None:
    """The id of the campaign's Game `number`, or None when there is no such game."""
    return Game.objects.filter(campaign=campaign, number=number).values_list("id", flat=True).first()
