"""Writes for Battlekit: held by a fighter or kept in the Arsenal, created, changed, moved, deleted."""

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction

from campaigns.history_context import add_context
from combat.rules import sale_value
from combat.rules.words import possessive
from rosters.models import ITEM_FIELDS, Fighter, Item, Warband
from rosters.services.common import change_context, clean_keywords, describe_fields, refuse_unknown
from rosters.services.errors import RosterRefused
from rosters.services.strongbox import strongbox_post


def _holder_in_warband(warband: Warband, fighter: Fighter | None) -> None:
    if fighter is None:
        return
    if fighter.warband_id != warband.pk:
        raise RosterRefused(f"{fighter.name} is not in {warband.name}.")
    if not fighter.is_active:
        raise RosterRefused(f"{fighter.name} is not on the active roster ({fighter.get_status_display()}).")


@transaction.atomic
def item_create(
    *,
    warband: Warband,
    by,
    name: str,
    fighter: Fighter | None = None,
    notes: str = "",
    keywords: Iterable[str] = (),
    removable: bool = True,
    cost: int = 0,
    pay: bool = False,
) -> Item:
    """A piece of Battlekit, held by `fighter`, or in the Arsenal when `fighter` is None.

    With `pay`, it is bought: its cost is paid from the Strongbox in the same transaction (an entry "buy"), and
    refused, nothing written, when the Strongbox cannot pay in full (CAMPAIGN_PHASE.md, "Buying, selling")."""
    _holder_in_warband(warband, fighter)
    item = Item(
        warband=warband,
        fighter=fighter,
        name=name.strip(),
        notes=notes.strip(),
        keywords=clean_keywords(keywords),
        removable=removable,
        cost=cost,
    )
    item.full_clean()
    where = fighter.name if fighter else "the Arsenal"
    with change_context(
        action="item.create",
        reason=f"{item.name} added to {where}",
        by=by,
        warband=warband,
        fighter=fighter,
    ):
        item.save()
        add_context(item=item.pk)
    if pay and item.cost:
        strongbox_post(
            warband=warband,
            by=by,
            cause="buy",
            reason=f"Bought {item.name} for {item.cost} {warband.campaign.terms.currency}",
            ducats=-item.cost,
            fighter=fighter,
            item=item.pk,
        )
    return item


@transaction.atomic
def item_update(*, item: Item, by, changes: Mapping[str, Any]) -> Item:
    """Change a piece of Battlekit's name, notes, keywords or whether it can be removed."""
    refuse_unknown(changes, ITEM_FIELDS, "Battlekit")
    item = Item.objects.select_for_update().select_related("warband").get(pk=item.pk)
    changed = []
    for name, value in changes.items():
        if name == "keywords":
            value = clean_keywords(value)
        elif isinstance(value, str):
            value = value.strip()
        if getattr(item, name) != value:
            setattr(item, name, value)
            changed.append(name)
    if not changed:
        return item
    item.full_clean()
    with change_context(
        action="item.update",
        reason=f"{by} changed {possessive(item.name)} {describe_fields(changed)}",
        by=by,
        warband=item.warband,
        item=item.pk,
    ):
        item.save(update_fields=changed)
    return item


@transaction.atomic
def item_move(*, item: Item, to_fighter: Fighter | None, by) -> Item:
    """Give Battlekit to a fighter of the same warband, or put it in the Arsenal (`to_fighter=None`).

    Battlekit that cannot be removed from the model stays with it (TRAUMA_TABLE.md, RULING T-4).
    """
    item = Item.objects.select_for_update(of=("self",)).select_related("warband", "fighter").get(pk=item.pk)
    _holder_in_warband(item.warband, to_fighter)
    if item.fighter_id == (to_fighter.pk if to_fighter else None):
        return item
    if item.fighter is not None and not item.removable:
        raise RosterRefused(f"{item.name} cannot be removed from {item.fighter.name}.")
    source = item.fighter.name if item.fighter else "the Arsenal"
    target = to_fighter.name if to_fighter else "the Arsenal"
    item.fighter = to_fighter
    item.full_clean()
    with change_context(
        action="item.move",
        reason=f"{item.name} moved from {source} to {target}",
        by=by,
        warband=item.warband,
        fighter=to_fighter,
        item=item.pk,
    ):
        item.save(update_fields=["fighter"])
    return item


@transaction.atomic
def item_delete(*, item: Item, by, reason: str = "") -> None:
    """Take Battlekit off the roster altogether (sold, lost, or entered by mistake)."""
    item = Item.objects.select_for_update(of=("self",)).select_related("warband", "fighter").get(pk=item.pk)
    where = item.fighter.name if item.fighter else "the Arsenal"
    with change_context(
        action="item.delete",
        reason=reason or f"{item.name} taken off {where}",
        by=by,
        warband=item.warband,
        fighter=item.fighter,
        item=item.pk,
    ):
        item.delete()


@transaction.atomic
def item_sell(*, item: Item, by) -> int:
    """Sell surplus Battlekit: it leaves the roster and half its cost, rounded up (RULING C-3,
    `rules.sale_value`), goes into the Strongbox as an entry "sell". Battlekit that cannot be removed from the
    fighter who holds it cannot be sold off them (RULING T-4). Returns the ducats received."""
    item = (
        Item.objects.select_for_update(of=("self",))
        .select_related("warband__campaign", "fighter")
        .get(pk=item.pk)
    )
    if item.fighter is not None and not item.removable:
        raise RosterRefused(
            f"{item.name} cannot be removed from {item.fighter.name}, so it cannot be sold.",
            code="not_removable",
        )
    warband = item.warband
    terms = warband.campaign.terms
    price = sale_value(item.cost)
    reason = f"Sold {item.name} for {price} {terms.currency} (half of {item.cost}, rounded up: RULING C-3)"
    with change_context(
        action="item.sell", reason=reason, by=by, warband=warband, fighter=item.fighter, item=item.pk
    ):
        item.delete()
    if price:  # a 0-cost item sells for 0 (C-3): no entry moves nothing, the history still tells the sale
        strongbox_post(warband=warband, by=by, cause="sell", reason=reason, ducats=price)
    return price
