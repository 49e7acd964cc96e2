"""Recruiting in one go: several fighters and pieces of Battlekit from the campaign's price list, with quantities,
on one form, paid from the Strongbox as one order.

The engine decides whether the Strongbox pays the order (`rules.purchase_order`: CAMPAIGN_PHASE.md, "A purchase is
paid from the Strongbox in full; a warband cannot buy what it cannot pay for", read as all of the order or none of
it). Each fighter and each piece of Battlekit is then written by the roster's own services (`fighter_create`,
`item_create`, each paying its cost through `strongbox_post`), all in one transaction under the warband's lock, so a
refusal anywhere writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count

import combat.rules as rules
from combat.rules.words import possessive
from rosters.models import ELITE, NAME_LENGTH, RECRUIT_QUANTITY_MAX, Fighter, Item, Warband
from rosters.price_lists import BATTLEKIT, FIGHTERS
from rosters.selectors.price_lists import newest_price_lists
from rosters.services.battlekit import item_create
from rosters.services.errors import RosterRefused
from rosters.services.fighters import fighter_create


@dataclass(frozen=True)
class Recruitment:
    """What an order wrote: the new fighters, the new Battlekit (in the Arsenal), and the engine's order."""

    fighters: tuple[Fighter, ...]
    items: tuple[Item, ...]
    order: rules.PurchaseOrder


def _lines(kind: str, rows: list[dict], quantities: Mapping[str, int], words: str) -> list[tuple[dict, int]]:
    by_name = {row["name"]: row for row in rows}
    lines = []
    for name, quantity in quantities.items():
        if not quantity:
            continue
        if name not in by_name:
            raise RosterRefused(f"{name} is not on the campaign's price list of {words}.", code="not_listed")
        if not 0 < quantity <= RECRUIT_QUANTITY_MAX:
            raise RosterRefused(f"{name}: from 0 to {RECRUIT_QUANTITY_MAX} at a time.", code="quantity")
        lines.append((by_name[name], quantity))
    return lines


def _listed_fighter(row: dict, preset: str) -> dict:
    """A price list's fighter type as the new fighter's fields, with the ELITE keyword as the recruit form reads it
    (RULING T-1; in Fallout: Factions the Champion flag, ELITE staying a keyword)."""
    listed_elite = ELITE in row["keywords"]
    fields = {
        "fighter_type": row["name"],
        "cost": row["cost"],
        "movement": row["movement"],
        "health": row["health"],
        "harm_limit": row["harm_limit"],
    }
    if preset == "fallout_factions":
        return {**fields, "keywords": list(row["keywords"]), "champion": listed_elite, "elite": None}
    keywords = [word for word in row["keywords"] if word != ELITE]
    return {**fields, "keywords": keywords, "elite": listed_elite}


def _names(warband: Warband, lines: list[tuple[dict, int]]) -> dict[str, list[str]]:
    """Each type's new fighters named after it and numbered on from those of the type already on the record
    ("Mire Pilgrim 3", "Mire Pilgrim 4"), to be renamed on the roster at leisure (one query)."""
    types = [row["name"] for row, _ in lines]
    held = dict(
        Fighter.objects.filter(warband=warband, fighter_type__in=types)
        .values("fighter_type")
        .annotate(held=Count("id"))
        .values_list("fighter_type", "held")
    )
    names: dict[str, list[str]] = {}
    for row, quantity in lines:
        first = held.get(row["name"], 0) + 1
        suffixes = [f" {number}" for number in range(first, first + quantity)]
        names[row["name"]] = [row["name"][: NAME_LENGTH - len(suffix)] + suffix for suffix in suffixes]
    return names


@transaction.atomic
def warband_recruit(
    *,
    warband: Warband,
    by,
    fighters: Mapping[str, int],
    battlekit: Mapping[str, int],
    versions: Mapping[str, int | None] | None = None,
) -> Recruitment:
    """Recruit `fighters` and buy `battlekit` (each maps a name on the campaign's newest price list to a quantity)
    for `warband`, paid from its Strongbox as one order; the Battlekit goes to the Arsenal. Refused whole with
    `RosterRefused` (nothing written) for an empty order, a name not on the list, a quantity past the limit, a list
    that changed since the form was drawn (`versions`: the list versions it showed, by kind), or a Strongbox that
    cannot pay the whole order."""
    locked = Warband.objects.select_for_update().select_related("campaign").get(pk=warband.pk)
    terms = locked.campaign.terms
    lists = newest_price_lists(campaign=locked.campaign)
    shown = {kind: (lists[kind].version if lists[kind] else None) for kind in (FIGHTERS, BATTLEKIT)}
    if versions is not None and dict(versions) != shown:
        raise RosterRefused(
            "The price list changed since this form was drawn: check the quantities again.", code="stale"
        )
    rows = {kind: list(lists[kind].rows) if lists[kind] else [] for kind in shown}
    recruits = _lines(FIGHTERS, rows[FIGHTERS], fighters, "fighter types")
    purchases = _lines(BATTLEKIT, rows[BATTLEKIT], battlekit, terms.battlekit)
    order = rules.purchase_order(
        strongbox=locked.strongbox,
        purchases=[rules.Purchase(row["name"], row["cost"], n) for row, n in recruits + purchases],
    )
    if not order.count:
        raise RosterRefused("Pick at least one fighter or one piece to buy.", code="empty")
    if not order.can_pay:
        raise RosterRefused(
            f"The order costs {order.total} {terms.currency} and {possessive(locked.name)} {terms.strongbox} holds "
            f"{locked.strongbox}: it is {-order.left} short, so nothing is bought.",
            code="strongbox_short",
        )
    names = _names(locked, recruits)
    created = [
        fighter_create(warband=locked, by=by, name=name, pay=True, **_listed_fighter(row, terms.preset))
        for row, _ in recruits
        for name in names[row["name"]]
    ]
    bought = [
        item_create(
            warband=locked,
            by=by,
            name=row["name"],
            keywords=row["keywords"],
            removable=row["removable"],
            cost=row["cost"],
            pay=True,
        )
        for row, quantity in purchases
        for _ in range(quantity)
    ]
    warband.strongbox = locked.strongbox
    return Recruitment(tuple(created), tuple(bought), order)
