"""Writes for a warband: founding it, editing it, and adjusting its Strongbox, Glory and crew XP."""

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from campaigns.history_context import add_context
from campaigns.models import Campaign
from campaigns.words import possessive
from rosters.models import WARBAND_FIELDS, Warband
from rosters.services.common import change_context, describe_fields, refuse_unknown
from rosters.services.errors import RosterRefused


@transaction.atomic
def warband_create(
    *,
    campaign: Campaign,
    owner,
    name: str,
    by,
    faction: str = "",
    notes: str = "",
    strongbox: int = 0,
    glory: int = 0,
    crew_xp: int = 0,
) -> Warband:
    """A new warband in the campaign, kept by `owner`."""
    warband = Warband(
        campaign=campaign,
        owner=owner,
        name=name.strip(),
        faction=faction.strip(),
        notes=notes.strip(),
        strongbox=strongbox,
        glory=glory,
        crew_xp=crew_xp,
    )
    warband.full_clean()
    with change_context(action="warband.create", reason=f"{owner} founded the warband {warband.name}", by=by):
        warband.save()
        add_context(warband=warband.pk, campaign=campaign.pk)
    return warband


@transaction.atomic
def warband_update(*, warband: Warband, by, changes: Mapping[str, Any]) -> Warband:
    """Change a warband's name, faction, notes, Strongbox, Glory or crew XP (`changes` maps field to value)."""
    refuse_unknown(changes, WARBAND_FIELDS, "A warband")
    warband = Warband.objects.select_for_update().get(pk=warband.pk)
    changed = []
    for name, value in changes.items():
        if isinstance(value, str):
            value = value.strip()
        if getattr(warband, name) != value:
            setattr(warband, name, value)
            changed.append(name)
    if not changed:
        return warband
    warband.full_clean()
    with change_context(
        action="warband.update",
        reason=f"{by} changed {possessive(warband.name)} {describe_fields(changed)}",
        by=by,
        warband=warband,
    ):
        warband.save(update_fields=changed)
    return warband


@transaction.atomic
def warband_adjust(
    *, warband: Warband, by, reason: str, strongbox: int = 0, glory: int = 0, crew_xp: int = 0, **context: Any
) -> Warband:
    """Add to (or take from) the Strongbox, Glory and crew XP; none may go below 0.

    For the post-game (a ransom moving ducats between Strongboxes) and the tracker (Harsh Lessons crew XP); extra
    keyword arguments (`game=`, `roll=`, `step=`, `action=`) go into the history context.
    """
    warband = Warband.objects.select_for_update().get(pk=warband.pk)
    changed = []
    for name, delta in (("strongbox", strongbox), ("glory", glory), ("crew_xp", crew_xp)):
        if delta:
            setattr(warband, name, getattr(warband, name) + delta)
            changed.append(name)
    if not changed:
        return warband
    if warband.strongbox < 0:
        raise RosterRefused(
            f"{warband.name} has only {warband.strongbox - strongbox} in the Strongbox; it cannot go below 0."
        )
    warband.full_clean()
    action = context.pop("action", "warband.adjust")
    with change_context(action=action, reason=reason, by=by, warband=warband, **context):
        warband.save(update_fields=changed)
    return warband
