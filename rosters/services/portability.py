"""The import's writes: a warband recreated from an export file (checked by `rosters.portability`)."""

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from campaigns.history_context import add_context
from campaigns.models import Campaign
from rosters.models import Fighter, Injury, Item, LedgerCause, StrongboxEntry, Warband
from rosters.portability import FIGHTER_KEYS, INJURY_KEYS, ITEM_KEYS, WARBAND_KEYS
from rosters.services.common import change_context
from rosters.services.errors import RosterRefused


@transaction.atomic
def warband_import(*, campaign: Campaign, owner, by, data: Mapping[str, Any], name: str = "") -> Warband:
    """Recreate a warband from an export file's `warband` object (checked by `rosters.portability`) in
    `campaign`, kept by `owner`: its fighters with their Injuries and Battlekit, and its Arsenal, exactly, under
    `name` when one is given. All of it or nothing: a row the database would refuse raises ValidationError, and a
    name another warband of the campaign has (the file imported back into its own campaign, say) is refused
    with `code="name_taken"`; the transaction writes nothing."""

    warband = Warband(campaign=campaign, owner=owner, **{key: data[key] for key in WARBAND_KEYS})
    if name:
        warband.name = name
    # Locked, so two imports of one file at once cannot both take the name.
    Campaign.objects.select_for_update().filter(pk=campaign.pk).exists()
    taken = Warband.objects.filter(campaign=campaign, name__iexact=warband.name.strip()).first()
    if taken is not None:
        raise RosterRefused(
            f"{taken.name} is in {campaign.name} already: give the imported {campaign.terms.warband} another name.",
            code="name_taken",
        )
    warband.full_clean()
    with change_context(
        action="warband.import", reason=f"{owner} imported {warband.name} from a file", by=by
    ):
        warband.save()
        add_context(warband=warband.pk, campaign=campaign.pk)
        # Its ledger opens with the Strongbox and Glory the file brings (the ledger sums to them).
        StrongboxEntry.objects.create(
            warband=warband,
            ducats=warband.strongbox,
            glory=warband.glory,
            balance=warband.strongbox,
            glory_balance=warband.glory,
            cause=LedgerCause.START,
            reason=f"Imported with {warband.name} from a file",
            by=by if getattr(by, "pk", None) else None,
        )
        injuries: list[Injury] = []
        items: list[Item] = []
        for row in data["fighters"]:
            fighter = Fighter(warband=warband, **{key: row[key] for key in FIGHTER_KEYS})
            # The warband and fighters were made just now: no need to ask the database they exist.
            fighter.full_clean(exclude=["warband"])
            fighter.save()
            injuries += [
                Injury(fighter=fighter, **{key: i[key] for key in INJURY_KEYS}) for i in row["injuries"]
            ]
            items += [
                Item(warband=warband, fighter=fighter, **{k: i[k] for k in ITEM_KEYS})
                for i in row["battlekit"]
            ]
        items += [
            Item(warband=warband, fighter=None, **{k: i[k] for k in ITEM_KEYS}) for i in data["arsenal"]
        ]
        for row in (*injuries, *items):
            row.full_clean(exclude=["fighter", "warband"])
        # In file order, so the ids (and the roster's order) follow the exported warband's.
        Injury.objects.bulk_create(injuries)
        Item.objects.bulk_create(items)
    return warband
