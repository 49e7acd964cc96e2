"""Writes for a warband: founding it, editing it, and adjusting its Strongbox, Glory and crew XP."""

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.history_context import add_context
from campaigns.models import Campaign, Game
from combat.rules.words import possessive
from rosters.models import WARBAND_FIELDS, LedgerCause, StrongboxEntry, Warband
from rosters.selectors.limits import late_joiner
from rosters.services.common import change_context, describe_fields, refuse_unknown
from rosters.services.errors import RosterRefused
from rosters.services.strongbox import strongbox_post

# CAMPAIGN_PHASE.md: "A warband begins the campaign with its starting value in ducats in its Strongbox."
STANDARD_STARTING_VALUE = Warband._meta.get_field("starting_value").default


@transaction.atomic
def warband_create(
    *,
    campaign: Campaign,
    owner,
    name: str,
    by,
    faction: str = "",
    notes: str = "",
    starting_value: int = STANDARD_STARTING_VALUE,
    strongbox: int | None = None,
    glory: int = 0,
    crew_xp: int = 0,
) -> Warband:
    """A new warband in the campaign, kept by `owner`, with its starting value in its Strongbox (or `strongbox`
    when given: a warband brought in part-way) as the ledger's first entry, "start".

    A late joiner (a battle of the campaign is played already) builds at the campaign's current Threshold Value
    for its `starting_value` and may tick 1 XP per battle of the warband that has played most (CAMPAIGN_PHASE.md,
    late joiners; `rosters.selectors.limits.late_joiner`): its stored starting value is that Threshold Value, so
    its own Threshold Values rise from it (RULING C-1). Refused when a warband has played battle 12."""
    joining = late_joiner(campaign=campaign, starting_value=starting_value)
    if joining.problem:
        raise RosterRefused(joining.problem, code="campaign_over")
    starting_value = joining.starting_value
    strongbox = starting_value if strongbox is None else strongbox
    warband = Warband(
        campaign=campaign,
        owner=owner,
        name=name.strip(),
        faction=faction.strip(),
        notes=notes.strip(),
        starting_value=starting_value,
        strongbox=strongbox,
        glory=glory,
        crew_xp=crew_xp,
        starting_xp=joining.starting_xp,
    )
    warband.full_clean()
    with change_context(action="warband.create", reason=f"{owner} founded the warband {warband.name}", by=by):
        warband.save()
        add_context(warband=warband.pk, campaign=campaign.pk)
        StrongboxEntry.objects.create(
            warband=warband,
            ducats=strongbox,
            glory=glory,
            balance=strongbox,
            glory_balance=glory,
            cause=LedgerCause.START,
            reason=(
                f"Starting value of {warband.name}: the Threshold Value of battle {joining.most_played + 1}, "
                "as a late joiner"
                if joining.joins_late
                else f"Starting value of {warband.name}"
            ),
            by=by if getattr(by, "pk", None) else None,
        )
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
    reason = f"{by} changed {possessive(warband.name)} {describe_fields(changed)}"
    _ledger_for_hand_edits(warband, by=by, changed=changed)
    with change_context(action="warband.update", reason=reason, by=by, warband=warband):
        warband.save(update_fields=changed)
    return warband


def _ledger_for_hand_edits(warband: Warband, *, by, changed: list[str]) -> None:
    """A Strongbox or Glory typed in by hand is an adjustment in the ledger, so the ledger still sums
    to it; the entry moves the columns, and the other changed fields are saved by the caller."""
    before = Warband.objects.filter(pk=warband.pk).values("strongbox", "glory").get()
    ducats = warband.strongbox - before["strongbox"] if "strongbox" in changed else 0
    glory = warband.glory - before["glory"] if "glory" in changed else 0
    for name in ("strongbox", "glory"):
        if name in changed:
            changed.remove(name)
            setattr(warband, name, before[name])
    if ducats or glory:
        strongbox_post(
            warband=warband,
            by=by,
            cause=LedgerCause.ADJUSTMENT,
            reason=f"{by} changed the {warband.campaign.terms.strongbox} by hand",
            ducats=ducats,
            glory=glory,
        )


@transaction.atomic
def warband_adjust(
    *, warband: Warband, by, reason: str, strongbox: int = 0, glory: int = 0, crew_xp: int = 0, **context: Any
) -> Warband:
    """Add to (or take from) the Strongbox, Glory and crew XP; none may go below 0.

    For the post-game (a ransom moving ducats between Strongboxes) and the tracker (Harsh Lessons crew XP); extra
    keyword arguments (`game=`, `roll=`, `step=`, `action=`) go into the history context, and `cause=` names the
    ledger's cause of a Strongbox or Glory change (an "adjustment" by default).
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
    cause = context.pop("cause", LedgerCause.ADJUSTMENT)
    if strongbox or glory:
        # Through the ledger: the entry moves the Strongbox and Glory, with this reason.
        warband.strongbox -= strongbox
        warband.glory -= glory
        strongbox_post(
            warband=warband,
            by=by,
            cause=cause,
            reason=reason,
            ducats=strongbox,
            glory=glory,
            action=action,
            **context,
        )
        changed = [name for name in changed if name == "crew_xp"]
    if changed:
        with change_context(action=action, reason=reason, by=by, warband=warband, **context):
            warband.save(update_fields=changed)
    return warband


@transaction.atomic
def warband_disband(*, warband: Warband, by) -> Warband:
    """Disband the warband (CAMPAIGN_PHASE.md: "A warband may be disbanded at the end of any game; a new one starts
    in its place"): it keeps its roster, its ledger and its row in the standings, marked (RULING W-2). Refused
    while one of its games is still being played, and for a warband disbanded already."""
    warband = Warband.objects.select_for_update().get(pk=warband.pk)
    if warband.disbanded_at is not None:
        raise RosterRefused(f"{warband.name} is disbanded already.")
    if warband.game_entries.filter(game__status=Game.Status.IN_PROGRESS).exists():
        raise RosterRefused(f"{warband.name} is in a game being played: disband it at the end of the game.")
    warband.disbanded_at = timezone.now()
    with change_context(
        action="warband.disband", reason=f"{by} disbanded {warband.name}", by=by, warband=warband
    ):
        warband.save(update_fields=["disbanded_at"])
    return warband
