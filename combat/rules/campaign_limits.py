"""Threshold Value, Field Strength, trade, Reinforcements, stages and standings (CAMPAIGN_PHASE.md; RULINGS C-1 to
C-4, W-1, W-2).

"The Threshold Value is the most a warband may field, in ducats; the Field Strength the most models it may field.
Both depend on the number of the battle about to be played ... The table's increases are added to the warband's
own starting value" (`campaign_limits`, RULING C-1).
"Surplus Battlekit, Glory Items included, sells for half its base cost, rounded up." (`sale_value`, C-3)
"If the warband's value is under its Threshold Value after a battle, its player may call Reinforcements ... buy
fighters and Battlekit up to the Threshold Value" (`may_call_reinforcements`, `reinforcement_budget`, C-4).
"The Threshold Value is the most a warband may field, in ducats; the Field Strength the most models it may field"
(`fielding_breaches`); the battle about to be played, RULING C-1 (`next_battle`). "A Papal States warband gains 4
Glory each time it does this." (`reinforcement_glory`)
"Glory Points are spent on Glory Items, mercenaries and other benefits" (`glory_left`).
"A purchase is paid from the Strongbox in full; a warband cannot buy what it cannot pay for" (`purchase_order`).
"Stages: Early (battles 1-3), Mid (4-8), Endgame (9-11), then the Final Battle (12)." (`campaign_stage`, W-1)
"the warband with the most Victory Points at the end wins, and the others rank by their totals" (`rank_standings`,
W-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .stat_tests import check_count

__all__ = [
    "BATTLES",
    "FIELD_STRENGTH",
    "OVER_FIELD_STRENGTH",
    "OVER_THRESHOLD",
    "PAPAL_REINFORCEMENT_GLORY",
    "Purchase",
    "PurchaseOrder",
    "STAGES",
    "STANDARD_STARTING_VALUE",
    "THRESHOLD_VALUE",
    "CampaignLimits",
    "RosterFighter",
    "Standing",
    "campaign_limits",
    "campaign_stage",
    "fielding_breaches",
    "glory_left",
    "is_papal_states",
    "late_joiner_threshold",
    "purchase_order",
    "may_call_reinforcements",
    "next_battle",
    "rank_standings",
    "reinforcement_budget",
    "reinforcement_glory",
    "sale_value",
    "warband_value",
]

# CAMPAIGN_PHASE.md, "Threshold Value and Maximum Field Strength", battles 1 to 12.
THRESHOLD_VALUE = (700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500, 1600, 1700, 1800)
FIELD_STRENGTH = (10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22)
BATTLES = range(1, len(THRESHOLD_VALUE) + 1)
# "The table's increases are added to the warband's own starting value (700 for most ...)".
STANDARD_STARTING_VALUE = 700
# RULING W-1: the last battle of each stage.
STAGES = (("early", 3), ("mid", 8), ("endgame", 11), ("final", 12))


def _check_battle(battle: object) -> int:
    # RULING C-1: "There is no battle 13: asking for it is an error, not a capped answer."
    if type(battle) is not int or battle not in BATTLES:
        raise ValueError(f"battle must be 1 to {BATTLES[-1]}, got {battle!r}")
    return battle


def next_battle(*, battles_played: int) -> int | None:
    """The number of the battle a warband is about to play: RULING C-1, "the warband's battles played so far plus
    one"; None after battle 12, the last ("There is no battle 13"). A negative count raises `ValueError`."""
    following = check_count(battles_played, name="battles_played") + 1
    return following if following in BATTLES else None


@dataclass(frozen=True, slots=True)
class CampaignLimits:
    """The most a warband may field for one battle: `threshold` in ducats and `field_strength` in models."""

    threshold: int
    field_strength: int


def campaign_limits(*, battle: int, starting_value: int = STANDARD_STARTING_VALUE) -> CampaignLimits:
    """The Threshold Value and Field Strength for the battle about to be played.

    RULING C-1: "'The battle about to be played' is the warband's battles played so far plus one. The Threshold
    Value for battle n is the table's value for n shifted by (starting value - 700); the Field Strength is the
    table's value for n, whatever the starting value. There is no battle 13". `battle` outside 1..12 or a negative
    `starting_value` raises `ValueError`.
    """
    index = _check_battle(battle) - 1
    check_count(starting_value, name="starting_value")
    shift = starting_value - STANDARD_STARTING_VALUE
    return CampaignLimits(THRESHOLD_VALUE[index] + shift, FIELD_STRENGTH[index])


# CAMPAIGN_PHASE.md, late joiners: "A late joiner builds its warband at the campaign's current Threshold Value".
def late_joiner_threshold(
    *, battles_played: Iterable[int], starting_value: int = STANDARD_STARTING_VALUE
) -> int:
    """What a warband founded now builds at: the Threshold Value of the battle the warband that has played most is
    about to play (RULING C-1: its battles played plus one), from this warband's own `starting_value`; with no
    battle played yet, the starting value itself. Each count is a warband's battles played; a negative one, or a
    campaign whose warband that played most has played its battle 12 ("There is no battle 13"), raises
    `ValueError`."""
    counts = [check_count(count, name="battles played") for count in battles_played]
    most = max(counts, default=0)
    if most >= BATTLES[-1]:
        raise ValueError(
            f"a warband has played all {BATTLES[-1]} battles: there is no battle {most + 1} to join"
        )
    return campaign_limits(battle=most + 1, starting_value=starting_value).threshold


@dataclass(frozen=True, slots=True)
class RosterFighter:
    """A fighter as the warband's value counts it: its recorded `cost`, the recorded costs of the Battlekit it
    carries, and whether it has been `removed` from the roster."""

    cost: int
    battlekit: tuple[int, ...] = ()
    removed: bool = False

    def __post_init__(self) -> None:
        check_count(self.cost, name="cost")
        if isinstance(self.battlekit, (str, bytes)) or not isinstance(self.battlekit, tuple):
            raise ValueError(f"battlekit must be a tuple of costs, got {self.battlekit!r}")
        for cost in self.battlekit:
            check_count(cost, name="a Battlekit cost")
        if type(self.removed) is not bool:
            raise ValueError(f"removed must be True or False, got {self.removed!r}")


def warband_value(fighters: Iterable[RosterFighter]) -> int:
    """The warband's value: RULING C-2, "A warband's value counts every fighter still on its roster and the
    Battlekit they carry, at their recorded cost; Battlekit in the Arsenal is not counted, and neither are removed
    fighters." (The Arsenal is not an input: nothing in it counts.)"""
    total = 0
    for fighter in fighters:
        if not isinstance(fighter, RosterFighter):
            raise ValueError(f"a fighter must be a RosterFighter, got {fighter!r}")
        if not fighter.removed:
            total += fighter.cost + sum(fighter.battlekit)
    return total


def sale_value(cost: int) -> int:
    """What surplus Battlekit sells for: RULING C-3, "half the base cost rounded up (a 5-ducat item sells for 3;
    0 sells for 0)". A negative cost raises `ValueError`."""
    check_count(cost, name="cost")
    return (cost + 1) // 2


# The breaches of one battle's limits `fielding_breaches` names, in the order a page tells them.
OVER_THRESHOLD = "over_threshold"
OVER_FIELD_STRENGTH = "over_field_strength"


def fielding_breaches(*, limits: CampaignLimits, value: int, models: int) -> tuple[str, ...]:
    """Which of the battle's limits fielding `models` models worth `value` breaks, Threshold Value first:
    `OVER_THRESHOLD` when the value is over the Threshold Value, `OVER_FIELD_STRENGTH` when the models are more
    than the Field Strength ("the most a warband may field, in ducats; ... the most models it may field": either
    limit itself may be reached). Empty when the list may be fielded. Negative counts raise `ValueError`."""
    if not isinstance(limits, CampaignLimits):
        raise ValueError(f"limits must be the battle's CampaignLimits, got {limits!r}")
    check_count(value, name="value")
    check_count(models, name="models")
    breaches = []
    if value > limits.threshold:
        breaches.append(OVER_THRESHOLD)
    if models > limits.field_strength:
        breaches.append(OVER_FIELD_STRENGTH)
    return tuple(breaches)


def may_call_reinforcements(*, threshold: int, warband_value: int) -> bool:
    """RULING C-4: "Reinforcements may be called only when the warband's value is below its Threshold Value" (at
    it, they may not). Negative inputs raise `ValueError`."""
    check_count(threshold, name="threshold")
    check_count(warband_value, name="warband_value")
    return warband_value < threshold


def reinforcement_budget(*, threshold: int, warband_value: int) -> int:
    """The ducats Reinforcements may spend: RULING C-4, "Reinforcements may be called only when the warband's value
    is below its Threshold Value; the budget is the Threshold Value minus the value" (0 when it is not below).
    The value is RULING C-2's: fighters on the roster and their Battlekit, not the Arsenal. Negative inputs raise
    `ValueError`."""
    if not may_call_reinforcements(threshold=threshold, warband_value=warband_value):
        return 0
    return threshold - warband_value


@dataclass(frozen=True, slots=True)
class Purchase:
    """One line of an order: `quantity` of one thing from the price list (`name`) at `cost` each."""

    name: str
    cost: int
    quantity: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a purchase names what it buys, got {self.name!r}")
        check_count(self.cost, name="cost")
        check_count(self.quantity, name="quantity")

    @property
    def total(self) -> int:
        return self.cost * self.quantity


@dataclass(frozen=True, slots=True)
class PurchaseOrder:
    """Several purchases paid at once: their `total`, the Strongbox before (`strongbox`) and after (`left`), and
    whether the Strongbox pays the whole order (`can_pay`); `count` is how many things it buys."""

    purchases: tuple[Purchase, ...]
    total: int
    strongbox: int
    left: int

    @property
    def can_pay(self) -> bool:
        return self.left >= 0

    @property
    def count(self) -> int:
        return sum(purchase.quantity for purchase in self.purchases)


def purchase_order(*, strongbox: int, purchases: Iterable[Purchase]) -> PurchaseOrder:
    """An order of several purchases against the Strongbox: CAMPAIGN_PHASE.md, "A purchase is paid from the
    Strongbox in full; a warband cannot buy what it cannot pay for". The project reads an order made on one form as
    one purchase: the Strongbox pays all of it or none of it, never the part it could afford. Lines of quantity 0
    are left out. A negative Strongbox, cost or quantity raises `ValueError`."""
    check_count(strongbox, name="strongbox")
    lines = []
    for purchase in purchases:
        if not isinstance(purchase, Purchase):
            raise ValueError(f"a purchase must be a Purchase, got {purchase!r}")
        if purchase.quantity:
            lines.append(purchase)
    total = sum(purchase.total for purchase in lines)
    return PurchaseOrder(tuple(lines), total, strongbox, strongbox - total)


# CAMPAIGN_PHASE.md, Reinforcements: "A Papal States warband gains 4 Glory each time it does this."
PAPAL_STATES = "papal states"
PAPAL_REINFORCEMENT_GLORY = 4


def is_papal_states(faction: str) -> bool:
    """Whether a warband's faction (the roster's free text) names the Papal States: case, spacing and a leading
    "the" do not matter ("The Papal States", "papal  states"); another name ("Papal Guard") is not it."""
    words = (faction or "").casefold().split()
    if words[:1] == ["the"]:
        words = words[1:]
    return " ".join(words) == PAPAL_STATES


def reinforcement_glory(*, faction: str) -> int:
    """The Glory a warband gains when it calls Reinforcements: 4 for the Papal States, 0 for any other."""
    return PAPAL_REINFORCEMENT_GLORY if is_papal_states(faction) else 0


def glory_left(*, glory: int, costs: Iterable[int]) -> int:
    """The Glory left after the spends `costs` ("Glory Points are spent on Glory Items, mercenaries and other
    benefits"): below 0 means the Glory cannot pay for them, which the caller refuses. Negative inputs raise
    `ValueError`."""
    check_count(glory, name="glory")
    total = 0
    for cost in costs:
        check_count(cost, name="cost")
        total += cost
    return glory - total


def campaign_stage(battle: int) -> str:
    """The stage of the campaign a battle belongs to: RULING W-1, "Early 1-3, Mid 4-8, Endgame 9-11, Final 12 (the
    published text lists 9 under both Mid and Endgame; the project reads it as Endgame)"."""
    _check_battle(battle)
    return next(stage for stage, last in STAGES if battle <= last)


@dataclass(frozen=True, slots=True)
class Standing:
    """A warband's row on the leaderboard: its name, Victory Points and games won; a disbanded warband keeps its
    row, marked (RULING W-2)."""

    warband: str
    victory_points: int
    wins: int
    disbanded: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.warband, str) or not self.warband.strip():
            raise ValueError(f"a standing needs the warband's name, got {self.warband!r}")
        check_count(self.victory_points, name="victory_points")
        check_count(self.wins, name="wins")
        if type(self.disbanded) is not bool:
            raise ValueError(f"disbanded must be True or False, got {self.disbanded!r}")


def _standing(row: Any) -> Standing:
    if isinstance(row, Standing):
        return row
    if isinstance(row, Mapping):
        return Standing(**row)
    raise ValueError(f"a standing is a Standing or a mapping of its fields, got {row!r}")


def _rank_key(standing: Standing) -> tuple[int, int, str, str, bool]:
    # RULING W-2: Victory Points, then games won, then the name; the name's exact spelling and the disbanded mark
    # only break what is otherwise a tie, so the order is total.
    name = standing.warband
    return (-standing.victory_points, -standing.wins, name.casefold(), name, standing.disbanded)


def rank_standings(rows: Iterable[Standing | Mapping[str, Any]]) -> tuple[Standing, ...]:
    """The leaderboard, first place first.

    RULING W-2: "Standings rank by Victory Points, then by games won, then by name; a disbanded warband keeps its
    row, marked disbanded." Names compare without regard to case. Rows may be `Standing`s or mappings of its
    fields; a bad row raises `ValueError`.
    """
    return tuple(sorted((_standing(row) for row in rows), key=_rank_key))
