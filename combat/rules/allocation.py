"""Damage Allocation: closest eligible models first, Target Limit, the Sustained Damage pool, timing.

Implements 001_8912faabee9c9754.txt, headings "How it works", "Which models can be affected", "Target Limit
Interaction", "Sustained Damage Interaction" and "Timing", read as RULINGS A-1 to A-5 say:

"When damage must be assigned to models in a target unit, assign that damage to the closest eligible models
first. Closest is measured from the closest attacking model that contributed to the attack or damaging effect
[...]. If two or more eligible models are equally close, the defending player chooses which of those equidistant
models is assigned damage first."
"Damage from that ranged attack may be assigned to no more models in the target unit than the attack's Target
Limit [...]."
"Sustained Damage is tracked as a unit-level pool, not as model-specific wounds. When damage assigned to a model
does not remove that model, add that damage to the unit's Sustained Damage pool [...]. When the unit's Sustained
Damage pool equals or exceeds a model's HP, remove models according to this allocation rule and reduce the
Sustained Damage pool [...]."
"For non-critical shooting damage, identify the models assigned damage when the damage is determined. Those
assigned models are not removed until the full shooting engagement is resolved [...]. Later movement or
battlefield changes during the same shooting engagement do not change which models were assigned [...]."

Besides `UnitModel`, `allocate_damage` and `Allocation` (docs/engine.md), `ShootingEngagement` keeps the assignments of
one shooting engagement and gives the models to remove when it ends (RULING A-5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .stat_tests import check_count

__all__ = ["Allocation", "ShootingEngagement", "UnitModel", "allocate_damage", "explain_allocation"]

# Distances are compared to a millionth of an inch, so two models measured as equally close are a tie even when
# floating point disagrees in the last digits.
DISTANCE_DIGITS = 6


def _check_coordinate(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


@dataclass(frozen=True, slots=True)
class UnitModel:
    """A model of the target unit: its id, HP, position on the table (inches), and whether the attack may affect
    it (seed 001 "Which models can be affected")."""

    id: str
    hp: int
    x: float
    y: float
    eligible: bool = True

    def __post_init__(self) -> None:
        if type(self.hp) is not int or self.hp < 1:
            raise ValueError(f"hp of {self.id!r} must be 1 or more, got {self.hp!r}")
        _check_coordinate(self.x, f"x of {self.id!r}")
        _check_coordinate(self.y, f"y of {self.id!r}")


@dataclass(frozen=True, slots=True)
class Allocation:
    """Where one attack's damage went (seed 001).

    `assigned`: damage per model id (never more than its HP); `removed`: models removed, in order (assigned their
    HP, or through the Sustained Damage pool); `sustained`: the unit's Sustained Damage pool afterwards; `lost`:
    damage that could not be placed (Target Limit reached, or no eligible model left); `ties`: groups of equally
    close models the damage split and whose order `tie_order` did not give (ask the defending player, then
    allocate again with `tie_order`). Extras: `order`, the eligible models in allocation order, `distances`, each
    eligible model's distance from the closest contributing attacker, and the `target_limit` applied.
    """

    assigned: dict[str, int]
    removed: tuple[str, ...]
    sustained: int
    lost: int
    ties: tuple[tuple[str, ...], ...]
    order: tuple[str, ...] = ()
    distances: dict[str, float] = field(default_factory=dict)
    target_limit: int | None = None

    @property
    def targets(self) -> int:
        """Models that count toward the Target Limit: those assigned damage or removed."""
        return len(self.assigned.keys() | set(self.removed))


def _check_attackers(attackers: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    points = []
    for point in attackers:
        if not isinstance(point, (tuple, list)) or len(point) != 2:
            raise ValueError(f"an attacker must be an (x, y) pair, got {point!r}")
        points.append((_check_coordinate(point[0], "attacker x"), _check_coordinate(point[1], "attacker y")))
    if not points:
        raise ValueError(
            f"attackers must hold the (x, y) of at least one contributing model, got {attackers!r}"
        )
    return tuple(points)


def _check_allocation(
    models: Sequence[UnitModel],
    damage: int,
    target_limit: int | None,
    sustained: int,
    tie_order: Sequence[str],
) -> dict[str, int]:
    """Refuse what no allocation can be made of; the defending player's rank of each model `tie_order` names."""
    check_count(damage, name="damage")
    check_count(sustained, name="sustained")
    if target_limit is not None and (type(target_limit) is not int or target_limit < 1):
        raise ValueError(f"target_limit must be 1 or more (or None), got {target_limit!r}")
    ids = [model.id for model in models]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise ValueError(f"model id {duplicate!r} appears twice")
    tie_rank: dict[str, int] = {}
    for rank, model_id in enumerate(tie_order):
        if model_id not in ids:
            raise ValueError(f"tie_order names {model_id!r}, which is not a model of the unit")
        if model_id in tie_rank:
            raise ValueError(f"tie_order names {model_id!r} twice")
        tie_rank[model_id] = rank
    return tie_rank


@dataclass(slots=True)
class _Placing:
    """Damage being placed on the models in allocation order: what each takes, who is removed, the pool."""

    remaining: int
    pool: int
    target_limit: int | None
    assigned: dict[str, int] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    used: int = 0  # models counting toward the Target Limit

    @property
    def limit_reached(self) -> bool:
        return self.target_limit is not None and self.used >= self.target_limit

    def place(self, model: UnitModel) -> bool:
        """Place damage on `model`, next in allocation order; False when nothing more can be placed."""
        if self.remaining:
            if self.limit_reached:
                return False  # RULING A-3: damage beyond the Target Limit is lost.
            take = min(self.remaining, model.hp)  # a model never takes more than its HP from one attack
            self.assigned[model.id] = take
            self.used += 1
            self.remaining -= take
            if take == model.hp:
                self.removed.append(model.id)
                return True
            # RULING A-4: damage that does not remove the model goes into the Sustained Damage pool.
            self.pool += take
        elif self.limit_reached:
            return False  # a model the pool removed counts toward the Target Limit too (docs/engine.md)
        # RULING A-4: whenever the pool equals or exceeds the HP of the next model in allocation order, that
        # model is removed and the pool reduced by its HP.
        if self.pool < model.hp:
            return False
        if model.id not in self.assigned:
            self.used += 1
        self.removed.append(model.id)
        self.pool -= model.hp
        return True


def allocate_damage(
    *,
    models: Sequence[UnitModel],
    attackers: Sequence[tuple[float, float]],
    damage: int,
    target_limit: int | None = None,
    sustained: int = 0,
    tie_order: Sequence[str] = (),
) -> Allocation:
    """Assign `damage` to the closest eligible `models` first (seed 001, RULINGS A-1 to A-4).

    `attackers` are the `(x, y)` of the models that contributed; `target_limit` is the ranged attack's Target
    Limit (None: no limit); `sustained` the unit's Sustained Damage pool before the attack; `tie_order` the
    defending player's order for equally close models (ids; unlisted models follow in the order of `models`).
    """
    tie_rank = _check_allocation(models, damage, target_limit, sustained, tie_order)
    points = _check_attackers(attackers)
    ids = [model.id for model in models]

    # RULING A-1: a model's distance is the minimum over the contributing attackers.
    distances = {
        model.id: round(min(math.dist(point, (model.x, model.y)) for point in points), DISTANCE_DIGITS)
        for model in models
        if model.eligible  # seed 001 "Which models can be affected": only eligible models take damage.
    }
    position = {model_id: index for index, model_id in enumerate(ids)}
    eligible = [model for model in models if model.eligible]
    # RULING A-2: closest first; equally close models in the defending player's order, else as passed.
    eligible.sort(key=lambda m: (distances[m.id], tie_rank.get(m.id, len(tie_rank)), position[m.id]))
    order = tuple(model.id for model in eligible)

    placing = _Placing(remaining=damage, pool=sustained, target_limit=target_limit)
    if damage:  # like RULING D-5: no damage, nothing happens.
        for model in eligible:
            if not placing.place(model):
                break

    # A model's fate: the damage assigned to it (None when none) and whether it is removed.
    fates = {model.id: (placing.assigned.get(model.id), model.id in placing.removed) for model in eligible}
    ties = _undecided_ties(eligible, distances, tie_rank, fates, ids)
    return Allocation(
        placing.assigned,
        tuple(placing.removed),
        placing.pool,
        placing.remaining,
        ties,
        order,
        distances,
        target_limit,
    )


def _undecided_ties(
    eligible: list[UnitModel],
    distances: dict[str, float],
    tie_rank: dict[str, int],
    fates: dict[str, tuple[int, bool]],
    ids: list[str],
) -> tuple[tuple[str, ...], ...]:
    """Groups of equally close models whose fates differ among the members `tie_order` did not place."""
    groups: dict[float, list[str]] = {}
    for model in eligible:
        groups.setdefault(distances[model.id], []).append(model.id)
    ties = []
    for members in groups.values():
        unplaced = [model_id for model_id in members if model_id not in tie_rank]
        # One unplaced model is placed by elimination; equal fates mean the order changes nothing.
        if len(unplaced) >= 2 and len({fates[model_id] for model_id in unplaced}) > 1:
            ties.append(tuple(sorted(members, key=ids.index)))
    return tuple(ties)


def _names(ids: Sequence[str]) -> str:
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]}"


def explain_allocation(allocation: Allocation, *, shooting: bool = False) -> str:
    """One plain sentence for where an attack's damage went, naming the rulings, e.g. "Closest first (RULING
    A-1): a removed; b takes 1, into the Sustained Damage pool (now 1, RULING A-4).".

    `shooting`: one attack of a shooting engagement, whose models are not removed yet but due for removal when the
    engagement ends (RULING A-5)."""
    if not allocation.assigned and not allocation.removed and not allocation.lost:
        return "No damage to assign."
    parts = []
    if allocation.removed and shooting:
        parts.append(
            f"{_names(allocation.removed)} assigned, removed when the shooting engagement ends (RULING A-5)"
        )
    elif allocation.removed:
        parts.append(f"{_names(allocation.removed)} removed")
    for model_id, amount in allocation.assigned.items():
        if model_id not in allocation.removed:
            parts.append(
                f"{model_id} takes {amount}, into the Sustained Damage pool (now {allocation.sustained}, RULING A-4)"
            )
    if allocation.lost:
        limit = allocation.target_limit
        if limit is not None and allocation.targets >= limit:
            parts.append(f"{allocation.lost} damage lost beyond the Target Limit of {limit} (RULING A-3)")
        else:
            parts.append(f"{allocation.lost} damage lost with no eligible model left")
    for tie in allocation.ties:
        parts.append(
            f"{_names(tie)} are equally close: the defending player chooses who comes first (RULING A-2)"
        )
    return f"Closest first (RULING A-1): {'; '.join(parts)}."


@dataclass(frozen=True, slots=True)
class ShootingEngagement:
    """The assignments of one shooting engagement, removed only when it ends (RULING A-5).

    Immutable: `allocate` returns the engagement with one more attack. Assignments are fixed when made: later
    attacks may give new positions, but never change who was assigned. A model already due for removal is not
    eligible for a later attack of the same engagement (its HP are spent); a model whose damage went into the
    Sustained Damage pool stays eligible.
    """

    sustained: int = 0
    allocations: tuple[Allocation, ...] = ()

    @property
    def last(self) -> Allocation | None:
        return self.allocations[-1] if self.allocations else None

    @property
    def assigned(self) -> tuple[str, ...]:
        """Every model assigned damage so far, in order, once each."""
        return tuple(dict.fromkeys(i for a in self.allocations for i in (*a.assigned, *a.removed)))

    @property
    def to_remove(self) -> tuple[str, ...]:
        """The models to remove when the engagement ends, in the order they were determined."""
        return tuple(model_id for allocation in self.allocations for model_id in allocation.removed)

    def allocate(
        self,
        *,
        models: Sequence[UnitModel],
        attackers: Sequence[tuple[float, float]],
        damage: int,
        target_limit: int | None = None,
        tie_order: Sequence[str] = (),
    ) -> ShootingEngagement:
        """One more attack of the engagement, with the unit's Sustained Damage pool carried over."""
        due = set(self.to_remove)
        models = [replace(model, eligible=False) if model.id in due else model for model in models]
        allocation = allocate_damage(
            models=models,
            attackers=attackers,
            damage=damage,
            target_limit=target_limit,
            sustained=self.sustained,
            tie_order=tie_order,
        )
        return ShootingEngagement(allocation.sustained, (*self.allocations, allocation))

    def end(self) -> tuple[str, ...]:
        """The engagement is resolved: the models to remove now (seed 001 "Timing", RULING A-5)."""
        return self.to_remove
