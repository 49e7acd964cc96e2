"""The recruit page: the campaign's newest price lists to pick from, and the totals of an order as it is picked,
read in one query whatever the list's length; the engine prices the order (`rules.purchase_order`) and the
warband's value after it (`rules.warband_value`, RULING C-2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import combat.rules as rules
from rosters.models import Warband
from rosters.price_lists import BATTLEKIT, FIGHTERS
from rosters.selectors.limits import WarbandLimits
from rosters.selectors.price_lists import newest_price_lists


@dataclass(frozen=True)
class RecruitPage:
    """What the recruit form lists: each kind's rows and the version they come from (None: no list yet)."""

    fighters: tuple[dict, ...]
    battlekit: tuple[dict, ...]
    versions: Mapping[str, int | None]

    @property
    def empty(self) -> bool:
        return not self.fighters and not self.battlekit


@dataclass(frozen=True)
class RecruitTotals:
    """An order as picked so far: the engine's order against the Strongbox, the fighters it adds, and, with the
    warband's limits, its value and models after it beside the next battle's Threshold Value and Field Strength
    (RULING C-1: what it may field, which the fielding checks; a roster may hold more)."""

    order: rules.PurchaseOrder
    fighters: int
    value_added: int
    limits: WarbandLimits | None = None

    @property
    def value_after(self) -> int | None:
        # C-2's value is a sum over the fighters on the roster: the new ones add their cost.
        return self.limits.value + self.value_added if self.limits else None

    @property
    def models_after(self) -> int | None:
        return self.limits.models + self.fighters if self.limits else None

    @property
    def over_threshold(self) -> bool:
        threshold = self.limits.threshold if self.limits else None
        return threshold is not None and self.value_after > threshold

    @property
    def over_field_strength(self) -> bool:
        strength = self.limits.field_strength if self.limits else None
        return strength is not None and self.models_after > strength

    @property
    def short(self) -> int:
        """How much the Strongbox lacks to pay the whole order (0 when it pays)."""
        return max(0, -self.order.left)


def recruit_page(*, warband: Warband) -> RecruitPage:
    lists = newest_price_lists(campaign=warband.campaign)
    rows = {kind: tuple(lists[kind].rows) if lists[kind] else () for kind in (FIGHTERS, BATTLEKIT)}
    versions = {kind: (lists[kind].version if lists[kind] else None) for kind in (FIGHTERS, BATTLEKIT)}
    return RecruitPage(rows[FIGHTERS], rows[BATTLEKIT], versions)


def recruit_totals(
    *,
    page: RecruitPage,
    strongbox: int,
    fighters: Mapping[str, int],
    battlekit: Mapping[str, int],
    limits: WarbandLimits | None = None,
) -> RecruitTotals:
    """The totals of an order (names from `page`, with quantities), no query: what it costs, the Strongbox after,
    and what the new fighters add to the warband's value (their cost: the Battlekit goes to the Arsenal, which the
    value does not count, RULING C-2)."""
    costs = {row["name"]: row["cost"] for row in (*page.fighters, *page.battlekit)}
    picked = [*fighters.items(), *battlekit.items()]
    order = rules.purchase_order(
        strongbox=strongbox,
        purchases=[rules.Purchase(name, costs[name], quantity) for name, quantity in picked if name in costs],
    )
    recruits = [
        rules.RosterFighter(cost=costs[name])
        for name, quantity in fighters.items()
        if name in costs
        for _ in range(quantity)
    ]
    return RecruitTotals(order, len(recruits), rules.warband_value(recruits), limits)
