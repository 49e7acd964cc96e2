"""The Strongbox as a ledger: every change of a warband's ducats (caps) and Glory is an entry
with its cause, written in the same transaction as the change, the warband's row locked.

`strongbox_post` is the one way the Strongbox and Glory move: it locks the warband's row (`select_for_update`),
so two purchases from one Strongbox at once are paid one after the other and the second sees what the first
left; a change that would leave the Strongbox or Glory below 0 is refused (CAMPAIGN_PHASE.md: "A purchase is paid
from the Strongbox in full; a warband cannot buy what it cannot pay for"), and the database's own check
(`warband_strongbox_range`) holds it too. The entries of a warband therefore always sum to its Strongbox.
"""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Game
from combat.rules.words import possessive
from rosters.models import LEDGER_REASON_LENGTH, LedgerCause, StrongboxEntry, Warband
from rosters.services.common import change_context
from rosters.services.errors import RosterRefused


def _short(reason: str) -> str:
    reason = " ".join((reason or "").split())
    return reason if len(reason) <= LEDGER_REASON_LENGTH else reason[: LEDGER_REASON_LENGTH - 1] + "…"


def _refuse_overdraft(warband: Warband, *, ducats: int, glory: int) -> None:
    # The campaign's words are read only for a refusal: a move that is paid needs no query for them.
    if warband.strongbox + ducats < 0:
        terms = warband.campaign.terms
        raise RosterRefused(
            f"{possessive(warband.name)} {terms.strongbox} holds {warband.strongbox} {terms.currency}: "
            f"it cannot pay {-ducats}.",
            code="strongbox_short",
        )
    if warband.glory + glory < 0:
        terms = warband.campaign.terms
        raise RosterRefused(
            f"{warband.name} has {warband.glory} {terms.glory}: it cannot spend {-glory}.", code="glory_short"
        )


@transaction.atomic
def strongbox_post(
    *,
    warband: Warband,
    by,
    cause: str,
    reason: str,
    ducats: int = 0,
    glory: int = 0,
    game: Game | int | None = None,
    **context,
) -> StrongboxEntry:
    """Move `ducats` and `glory` (either sign) into the warband's Strongbox, as one ledger entry of `cause`.

    Refused with `RosterRefused` (nothing written) when the Strongbox or Glory would go below 0, for a cause the
    ledger does not know, or for an entry that moves nothing. `warband` is updated in place. Extra keyword
    arguments (`step=`, `roll=`) go into the history context."""
    if cause not in LedgerCause.values:
        raise RosterRefused(f"{cause!r} is not a cause of the ledger.")
    if not ducats and not glory and cause != LedgerCause.START:
        raise RosterRefused("The entry moves nothing.")
    locked = Warband.objects.select_for_update().select_related("campaign").get(pk=warband.pk)
    _refuse_overdraft(locked, ducats=ducats, glory=glory)
    locked.strongbox += ducats
    locked.glory += glory
    locked.full_clean(exclude=["campaign", "owner"], validate_unique=False, validate_constraints=False)
    entry = StrongboxEntry(
        warband=locked,
        ducats=ducats,
        glory=glory,
        balance=locked.strongbox,
        glory_balance=locked.glory,
        cause=cause,
        reason=_short(reason),
        game_id=game.pk if isinstance(game, Game) else game,  # a game or its id, as change_context takes it
        by=by if getattr(by, "pk", None) else None,
    )
    entry.full_clean(exclude=["warband", "game", "by"])
    with change_context(
        action=context.pop("action", f"strongbox.{cause}"),
        reason=entry.reason,
        by=by,
        warband=locked,
        game=game,
        **context,
    ):
        changed = [name for name, delta in (("strongbox", ducats), ("glory", glory)) if delta]
        if changed:
            locked.save(update_fields=changed)
        entry.save()
    warband.strongbox, warband.glory = locked.strongbox, locked.glory
    return entry


@transaction.atomic
def strongbox_adjust(*, warband: Warband, by, reason: str, ducats: int = 0, glory: int = 0) -> StrongboxEntry:
    """The organiser's hand correction of a Strongbox or Glory: an entry "adjustment" that must say why."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise RosterRefused("Say why the Strongbox changes: the ledger keeps the reason.", code="reason")
    return strongbox_post(
        warband=warband, by=by, cause=LedgerCause.ADJUSTMENT, reason=reason, ducats=ducats, glory=glory
    )


def ledger_entries(
    *,
    warband: Warband,
    moves: list[tuple[str, int, str]],
    by=None,
    game: Game | None = None,
    glory: bool = False,
) -> list[StrongboxEntry]:
    """The ledger's entries for ducats (or, `glory`, Glory) a caller moves itself in a write of its own (the
    post-game's Apply and revert move Strongboxes with one bulk statement under their own history context, which a
    nested context here would overwrite): `moves` are (cause, amount, reason), applied in order from
    `warband.strongbox` (or `warband.glory`), the balance before them. The caller holds the warband's row locked
    and saves the warband; this only writes the entries (one statement) and refuses, raising `RosterRefused`, a
    move that would leave the Strongbox below 0, or the Glory ("Glory Points are spent", never owed)."""
    return StrongboxEntry.objects.bulk_create(
        ledger_rows(warband=warband, moves=moves, by=by, game=game, glory=glory)
    )


def ledger_rows(
    *,
    warband: Warband,
    moves: list[tuple[str, int, str]],
    by=None,
    game: Game | None = None,
    glory: bool = False,
) -> list[StrongboxEntry]:
    """The entries `ledger_entries` writes, not yet written (a caller that writes several warbands' or steps'
    entries in one statement), with the same refusals."""
    held = warband.glory if glory else warband.strongbox
    balance = held
    entries = []
    for cause, amount, reason in moves:
        if not amount:
            continue
        if cause not in LedgerCause.values:
            raise RosterRefused(f"{cause!r} is not a cause of the ledger.")
        moved = amount + (balance - held)
        _refuse_overdraft(warband, ducats=0 if glory else moved, glory=moved if glory else 0)
        balance += amount
        if glory:
            amounts = {"glory": amount, "balance": warband.strongbox, "glory_balance": balance}
        else:
            amounts = {"ducats": amount, "balance": balance, "glory_balance": warband.glory}
        entries.append(
            StrongboxEntry(
                warband=warband,
                cause=cause,
                reason=_short(reason),
                game=game,
                by=by if getattr(by, "pk", None) else None,
                **amounts,
            )
        )
    return entries
