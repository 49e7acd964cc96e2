"""Writes for a fighter: joining the roster, editing, XP, leaving the roster and coming back."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from campaigns.history_context import add_context
from combat.rules import xp_limit_problem
from combat.rules.words import possessive
from rosters.limited_potential import has_limited_potential
from rosters.models import ELITE, FIGHTER_FIELDS, Fighter, Item, Warband
from rosters.services.common import change_context, clean_keywords, describe_fields, refuse_unknown
from rosters.services.errors import RosterRefused
from rosters.services.strongbox import strongbox_post

REMOVED_STATUSES = tuple(status for status in Fighter.Status.values if status != Fighter.Status.ACTIVE)


def _elite_keywords(keywords: list[str], elite: bool | None) -> list[str]:
    if elite is None:
        return keywords
    keywords = [keyword for keyword in keywords if keyword != ELITE]
    return [ELITE, *keywords] if elite else keywords


@transaction.atomic
def fighter_create(
    *, warband: Warband, by, name: str, elite: bool | None = None, pay: bool = False, **fields: Any
) -> Fighter:
    """A new fighter on the warband's roster. `elite` adds or takes away the ELITE keyword (RULING T-1); the other
    keyword arguments are Fighter fields (fighter_type, keywords, champion, the S.P.E.C.I.A.L. stats, health,
    harm_limit, movement, unit_size, xp, battle_scars, can_gain_xp, misses_next_game, cost).

    With `pay`, the fighter is recruited: its cost is paid from the Strongbox in the same transaction, an entry
    "recruit" in the ledger, and refused (nothing written) when the Strongbox cannot pay it in full
    (CAMPAIGN_PHASE.md, "Buying, selling, Glory")."""
    refuse_unknown(fields, FIGHTER_FIELDS, "A fighter")
    fields["keywords"] = _elite_keywords(clean_keywords(fields.get("keywords", ())), elite)
    fighter = Fighter(warband=warband, name=name.strip(), **fields)
    if isinstance(fighter.fighter_type, str):
        fighter.fighter_type = fighter.fighter_type.strip()
    fighter.full_clean()
    with change_context(
        action="fighter.create", reason=f"{fighter.name} joined {warband.name}", by=by, warband=warband
    ):
        fighter.save()
        add_context(fighter=fighter.pk)
    if pay and fighter.cost:
        terms = warband.campaign.terms
        strongbox_post(
            warband=warband,
            by=by,
            cause="recruit",
            reason=f"Recruited {fighter.name} for {fighter.cost} {terms.currency}",
            ducats=-fighter.cost,
            fighter=fighter,
        )
    return fighter


@transaction.atomic
def fighter_update(*, fighter: Fighter, by, changes: Mapping[str, Any], elite: bool | None = None) -> Fighter:
    """Change a fighter's name, type, keywords, stats, XP, Battle Scars... (`changes` maps field to value)."""
    refuse_unknown(changes, FIGHTER_FIELDS, "A fighter")
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    changes = dict(changes)
    if "keywords" in changes or elite is not None:
        changes["keywords"] = _elite_keywords(
            clean_keywords(changes.get("keywords", fighter.keywords)), elite
        )
    changed, xp_before = [], fighter.xp
    for name, value in changes.items():
        if isinstance(value, str):
            value = value.strip()
        if getattr(fighter, name) != value:
            setattr(fighter, name, value)
            changed.append(name)
    if not changed:
        return fighter
    fighter.full_clean()
    if "xp" in changed and fighter.xp > xp_before:
        # RULING X-2, as for the XP buttons: raised past 7, a Limited Potential fighter blocks its next post-game.
        problem = xp_limit_problem(fighter.xp, limited_potential=has_limited_potential(fighter))
        if problem:
            raise RosterRefused(f"{fighter.name} would have {fighter.xp} XP; {problem}.")
    with change_context(
        action="fighter.update",
        reason=f"{by} changed {possessive(fighter.name)} {describe_fields(changed)}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        fighter.save(update_fields=changed)
    return fighter


@transaction.atomic
def fighter_adjust_xp(*, fighter: Fighter, delta: int, by, reason: str = "", **context: Any) -> Fighter:
    """Add `delta` XP (negative to take some away). XP never goes below 0, a fighter that can no longer gain XP
    (Head Wound, TRAUMA_TABLE.md 22) gains none, and a Limited Potential one none past 7 (RULING X-2). The row is locked, so two quick taps both count."""
    fighter = (
        Fighter.objects.select_for_update(of=("self",)).select_related("warband__campaign").get(pk=fighter.pk)
    )
    if delta == 0:
        return fighter
    if delta > 0 and not fighter.can_gain_xp:
        raise RosterRefused(f"{fighter.name} can no longer gain XP (Head Wound).")
    # RULING X-2: a Limited Potential fighter never goes past 7 XP (the next post-game refuses to count from past
    # it); taking XP back is always allowed, down to 0.
    limited = delta > 0 and has_limited_potential(fighter)
    problem = xp_limit_problem(fighter.xp + delta, limited_potential=limited)
    if problem:
        raise RosterRefused(f"{fighter.name} has {fighter.xp} XP; {problem}.")
    fighter.xp += delta
    fighter.full_clean()
    with change_context(
        action=context.pop("action", "xp.adjust"),
        reason=reason
        or f"{fighter.name} {'gained' if delta > 0 else 'lost'} {abs(delta)} XP (now {fighter.xp})",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
        **context,
    ):
        fighter.save(update_fields=["xp"])
    return fighter


class Battlekit:
    """What happens to a removed fighter's Battlekit."""

    ARSENAL = "arsenal"  # goes to the warband's Arsenal (Unfit For Duty, retired: RULING T-4)
    LOST = "lost"  # lost with the fighter (Dead, Blinded, Executed: RULING T-6)
    KEPT = "kept"  # stays with the fighter's record (nothing moves)
    choices = ((ARSENAL, "to the Arsenal"), (LOST, "lost"), (KEPT, "kept with the fighter"))


@dataclass(frozen=True)
class Removal:
    """A removal's outcome: the fighter, and where its Battlekit went (ids to the Arsenal, names lost or kept)."""

    fighter: Fighter
    moved_to_arsenal: tuple[int, ...] = ()
    lost: tuple[str, ...] = ()
    kept_in_place: tuple[str, ...] = ()


@transaction.atomic
def fighter_remove(
    *, fighter: Fighter, status: str, by, battlekit: str = Battlekit.ARSENAL, reason: str = ""
) -> Removal:
    """Take a fighter off the active roster with a status (dead, retired, ...). The row stays, with its history.

    Its Battlekit goes to the Arsenal, is lost (deleted), or stays with it; Battlekit that cannot be removed from
    the model is never moved to the Arsenal (RULING T-4) and stays with it.
    """
    if status not in REMOVED_STATUSES:
        raise RosterRefused(f"{status!r} is not a way to leave the roster.")
    if battlekit not in (Battlekit.ARSENAL, Battlekit.LOST, Battlekit.KEPT):
        raise RosterRefused(f"{battlekit!r} is not a choice for the Battlekit.")
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    old_status = fighter.status
    fighter.status = status
    fighter.full_clean()
    label = Fighter.Status(status).label
    with change_context(
        action="fighter.remove",
        reason=reason or f"{fighter.name} left the roster: {label}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
        status_before=old_status,
    ):
        fighter.save(update_fields=["status"])
        return _settle_battlekit(fighter, battlekit)


def _settle_battlekit(fighter: Fighter, battlekit: str) -> Removal:
    """The removed fighter's Battlekit to the Arsenal, lost, or kept, as chosen. Battlekit that cannot be removed
    from the model never goes to the Arsenal and stays with it (RULING T-4)."""
    moved: list[int] = []
    lost: list[str] = []
    kept: list[str] = []
    for item in Item.objects.select_for_update().filter(fighter=fighter):
        if battlekit == Battlekit.ARSENAL and item.removable:
            item.fighter = None
            item.full_clean()
            item.save(update_fields=["fighter"])
            moved.append(item.pk)
        elif battlekit == Battlekit.LOST:
            lost.append(item.name)
            item.delete()
        else:
            kept.append(item.name)
    return Removal(
        fighter=fighter, moved_to_arsenal=tuple(moved), lost=tuple(lost), kept_in_place=tuple(kept)
    )


@transaction.atomic
def fighter_restore(*, fighter: Fighter, by, items: Iterable[int] = (), reason: str = "") -> Fighter:
    """Put a removed fighter back on the active roster (undo a removal). `items` are Battlekit ids to give back
    from the Arsenal (those still there and in this warband; others are left where they are)."""
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    if fighter.is_active:
        return fighter
    old = fighter.get_status_display()
    fighter.status = Fighter.Status.ACTIVE
    fighter.full_clean()
    with change_context(
        action="fighter.restore",
        reason=reason or f"{fighter.name} is back on the roster (was {old})",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        fighter.save(update_fields=["status"])
        for item in Item.objects.select_for_update().filter(
            pk__in=list(items), warband=fighter.warband, fighter__isnull=True
        ):
            item.fighter = fighter
            item.full_clean()
            item.save(update_fields=["fighter"])
    return fighter
