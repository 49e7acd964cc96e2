"""Health Pools and Casualties: whole models removed, lost Health Points carried, excess ignored, removal order.

Implements 004_f1b12ae0536a0785.txt ("Health Pools and Casualties"), read as RULINGS H-1 to H-3 say:

"Each unsaved wound reduces the Health Pool by 1 Health Point. [...] If the models have more than 1 Health Point
each, remove entire models whenever possible. Keep track of any lost Health Points that are not enough to remove
a whole model, as they will be taken into account for future attacks. For example, a unit of 10 Trolls (3 Health
Points each) loses 7 Health Points. Remove two whole models (6 Health Points), leaving 1 lost Health Point, which
is kept track of. Later, this unit loses 2 Health Points, which is enough to remove a single Troll since 1 Health
Point was lost from the previous attack."
"When there are more Health Point losses than there are Health Points in a Health Pool, the excess losses are
ignored." (the owner of the attacking models decides which attacks caused them: `PoolLoss.ignored` reports how
many, the page asks which)
"Remove models from as far back in the unit as possible. [...] When casualties are removed from the first rank,
remove models equally from both sides of the unit, one by one. [...] If a model of a different Health Pool is in
a position that would normally be removed as a casualty, remove the next eligible model of the attacked Health
Pool". Re-forming a viable formation afterwards ("Maintaining Viable Formation") is not done here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .stat_tests import check_count

__all__ = [
    "Formation",
    "HealthPool",
    "PoolLoss",
    "explain_pool_loss",
    "lose_health_points",
    "remove_casualties",
]


@dataclass(frozen=True, slots=True)
class HealthPool:
    """A Health Pool: `models` models of `hp_per_model` Health Points each, and `lost` Health Points lost but not
    yet enough to remove a whole model (RULING H-1)."""

    models: int
    hp_per_model: int
    lost: int = 0

    def __post_init__(self) -> None:
        check_count(self.models, name="models")
        if type(self.hp_per_model) is not int or self.hp_per_model < 1:
            raise ValueError(f"hp_per_model must be 1 or more, got {self.hp_per_model!r}")
        check_count(self.lost, name="lost")
        if self.lost >= self.hp_per_model:
            raise ValueError(
                f"lost {self.lost} would remove a whole model of {self.hp_per_model} Health Points: "
                "remove it and carry the rest"
            )
        if self.models == 0 and self.lost:
            raise ValueError(
                f"a Health Pool with no models cannot carry lost Health Points, got lost={self.lost}"
            )

    @property
    def health_points(self) -> int:
        """Health Points the pool has left."""
        return self.models * self.hp_per_model - self.lost


@dataclass(frozen=True, slots=True)
class PoolLoss:
    """What a loss did: whole models `removed`, Health Points `ignored` (beyond what the pool had, RULING H-2),
    and the pool `after`. Extras for explaining it: the `amount` lost and the pool `before`."""

    removed: int
    ignored: int
    after: HealthPool
    amount: int = 0
    before: HealthPool | None = None


def lose_health_points(pool: HealthPool, amount: int) -> PoolLoss:
    """The pool loses `amount` Health Points (one per unsaved wound): whole models are removed, the rest carried
    (RULING H-1); losses beyond the pool's Health Points are ignored and reported (RULING H-2)."""
    check_count(amount, name="amount")
    taken = min(amount, pool.health_points)
    lost = pool.lost + taken
    removed, carried = divmod(lost, pool.hp_per_model)
    after = HealthPool(pool.models - removed, pool.hp_per_model, carried)
    return PoolLoss(removed, amount - taken, after, amount, pool)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def explain_pool_loss(loss: PoolLoss, *, model: str = "model") -> str:
    """One plain sentence for a Health Pool's loss, e.g. "Lost 7 Health Points: 2 Trolls removed, 1 lost Health
    Point kept for later attacks (RULING H-1)." (`model` names the models, singular)."""
    if not loss.amount:
        return "No Health Points lost."
    parts = [f"{_count(loss.removed, model)} removed"]
    if loss.after.lost:
        parts.append(f"{_count(loss.after.lost, 'lost Health Point')} kept for later attacks (RULING H-1)")
    elif loss.removed and loss.after.hp_per_model > 1:
        parts[-1] += " (RULING H-1)"
    if loss.ignored:
        parts.append(f"the {loss.ignored} beyond what the Health Pool had are ignored (RULING H-2)")
    return f"Lost {_count(loss.amount, 'Health Point')}: {', '.join(parts)}."


@dataclass(frozen=True, slots=True)
class Formation:
    """A unit's ranks, front rank first; each cell holds the id of the Health Pool whose model stands there, or
    `None` for an empty place."""

    ranks: tuple[tuple[str | None, ...], ...]

    def __post_init__(self) -> None:
        for rank in self.ranks:
            if not isinstance(rank, tuple):
                raise ValueError(f"each rank must be a tuple of cells, got {rank!r}")
            for cell in rank:
                if cell is not None and not isinstance(cell, str):
                    raise ValueError(f"a cell holds a Health Pool id or None, got {cell!r}")

    def count(self, pool: str) -> int:
        """How many models of Health Pool `pool` stand in the formation."""
        return sum(rank.count(pool) for rank in self.ranks)


def remove_casualties(
    formation: Formation, *, pool: str, count: int
) -> tuple[tuple[tuple[int, int], ...], Formation]:
    """Remove `count` models of Health Pool `pool`, one batch of simultaneous losses (RULING H-3).

    From the back rank first; within each rank alternately from the two ends, the left end (file 0) first; a
    model of another Health Pool (or an empty place) is skipped for the next model of `pool`. Returns the
    `(rank, file)` positions emptied, in order, and the formation after (not re-formed).
    """
    check_count(count, name="count")
    present = formation.count(pool)
    if count > present:
        raise ValueError(
            f"cannot remove {count} models of Health Pool {pool!r}: only {present} in the formation"
        )
    ranks = [list(rank) for rank in formation.ranks]
    emptied: list[tuple[int, int]] = []
    # 004: "Remove models from as far back in the unit as possible."
    for rank_index in range(len(ranks) - 1, -1, -1):
        if len(emptied) == count:
            break
        rank = ranks[rank_index]
        left, right = 0, len(rank) - 1
        from_left = True  # 004: "remove models equally from both sides of the unit, one by one"
        while len(emptied) < count:
            if from_left:
                while left <= right and rank[left] != pool:
                    left += 1  # 004: a model of a different Health Pool is skipped
                if left > right:
                    break
                file, left = left, left + 1
            else:
                while right >= left and rank[right] != pool:
                    right -= 1
                if right < left:
                    break
                file, right = right, right - 1
            rank[file] = None
            emptied.append((rank_index, file))
            from_left = not from_left
    return tuple(emptied), Formation(tuple(tuple(rank) for rank in ranks))
