"""The Apply's and the Revert's part of the Harsh Lessons step (combat/selectors/post_game/harsh_lessons.py): the
crew's 1 XP when one of its Champions was Incapacitated in a game recorded by hand (000 "Experience: Harsh
Lessons", RULING D-11), written to the crew's XP and kept in the attempt's snapshot, per crew and per game, so the
Revert takes back exactly that."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import F

from combat.selectors.post_game.base import PostGameState
from combat.services.post_game.attempt import PostGameError
from rosters.models import Warband

SNAPSHOT_KEY = "harsh_lessons"


def apply_part(state: PostGameState) -> dict[str, Any]:
    """The crew's Harsh Lessons XP added (nothing when the board already gave it, or no Champion fell)."""
    step = state.harsh_lessons
    if step is None or not step.award.xp:
        return {}
    Warband.objects.filter(pk=state.warband.pk).update(crew_xp=F("crew_xp") + step.award.xp)
    return {SNAPSHOT_KEY: {"warband_id": state.warband.pk, "xp": step.award.xp}}


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """The XP the Apply added taken back; refused if the crew has spent it since (its XP would fall below 0)."""
    part = (snapshot or {}).get(SNAPSHOT_KEY)
    if not part:
        return
    warband = Warband.objects.select_for_update().get(pk=part["warband_id"])
    if warband.crew_xp < part["xp"]:
        raise PostGameError(f"{warband.name} has spent its crew XP since: reverting would leave it below 0.")
    Warband.objects.filter(pk=warband.pk).update(crew_xp=F("crew_xp") - part["xp"])


def summary_part(state: PostGameState) -> dict[str, str]:
    """The step's sentence in the Apply's summary, whatever it added."""
    step = state.harsh_lessons
    return {SNAPSHOT_KEY: step.award.words} if step is not None else {}
