"""Rolling a pool of D6 and keeping the highest or the lowest few: the dice mechanic of Trench Crusade's Injury and
Bloodbath Rolls (TC_IN_GAME.md, "Dice pools: +DICE and -DICE"; RULING I-1), and its exact odds.

TC_IN_GAME.md: "All the dice are rolled. With + dice left, the highest base-count dice are kept (the 2 highest for
an Injury Roll, the 3 highest for a Bloodbath); with - dice left, the lowest; with none, all of them. The kept dice
are added together."

`kept_sum_counts(dice, keep, highest)` counts, for every sum the kept dice can make, how many of the 6**dice
equally likely rolls give it. It never walks the 6**dice rolls: it goes through the faces from 6 down to 1 and
only follows the dice still to be kept (at most 3, so a handful of states), counting the dice left over below a
face in closed form. A pool of 40 dice costs well under a millisecond, and the answer is cached.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb

__all__ = ["D6", "keep_dice", "kept_sum_counts"]

D6 = 6


def keep_dice(faces: Sequence[int], *, keep: int, highest: bool | None) -> tuple[int, ...]:
    """The dice kept from `faces`, highest first: the `keep` highest (`highest=True`), the `keep` lowest (`False`),
    or all of them (`None`, when no +/- dice are left, so the pool is the base count)."""
    ordered = sorted(faces, reverse=True)
    if highest is None:
        return tuple(ordered)
    return tuple(ordered[:keep]) if highest else tuple(ordered[len(ordered) - keep :])


@lru_cache(maxsize=256)
def _highest_sum_counts(dice: int, keep: int) -> tuple[tuple[int, int], ...]:
    """(sum of the `keep` highest of `dice` D6, number of rolls giving it), for `keep <= dice`."""
    counts: dict[int, int] = {}
    # states: (dice already placed on faces above the current one, their sum); all of them are kept.
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    for face in range(D6, 0, -1):
        following: dict[tuple[int, int], int] = {}
        for (placed, total), ways in states.items():
            left = dice - placed
            for showing in range(left + 1):
                chosen = ways * comb(left, showing)
                if placed + showing < keep:
                    if face > 1:  # on face 1 every die left must show it: only showing == left is a roll
                        key = (placed + showing, total + showing * face)
                        following[key] = following.get(key, 0) + chosen
                    continue
                # The kept dice are complete: the rest of this face's dice and every die left lie below it.
                kept_total = total + (keep - placed) * face
                below = left - showing
                counts[kept_total] = counts.get(kept_total, 0) + chosen * (face - 1) ** below
        states = following
    return tuple(sorted(counts.items()))


def kept_sum_counts(dice: int, keep: int, highest: bool | None) -> dict[int, int]:
    """For each sum the kept dice can show, how many of the `6**dice` rolls give it.

    `highest=None` keeps every die (`keep` must then equal `dice`). Keeping the lowest is keeping the highest of
    the dice read upside down (a face f as 7 - f), so its sums mirror those of the highest.
    """
    if type(dice) is not int or type(keep) is not int or not 1 <= keep <= dice:
        raise ValueError(f"keep must be 1 to dice ({dice!r}), got {keep!r}")
    if highest is None and keep != dice:
        raise ValueError(f"with no +/- dice every die is kept: keep {keep} must equal dice {dice}")
    counts = _highest_sum_counts(dice, keep)
    if highest is False:
        return {(D6 + 1) * keep - total: ways for total, ways in counts}
    return dict(counts)
