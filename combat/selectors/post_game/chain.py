"""After a correction or a void: which of a fighter's stored rolls the engine reads now.

A stored roll is never rolled again nor deleted. When new faces change what the engine asks for next (a T-5
reroll chain now shorter or longer; the D3 of Bitter Lessons no longer due, or due now), the stored rolls are
offered to the engine in the order it asks for them: those it reads count, the others are set aside (undone), and
a roll it asks for that was never made reopens the fighter's step.
"""

from __future__ import annotations

from dataclasses import dataclass

from combat import rules
from combat.models import PostGameRoll
from combat.selectors.post_game.rolls import logged_rolls
from combat.selectors.post_game.trauma import CasualtyState, resolve


@dataclass(frozen=True)
class Chain:
    """The stored rolls the engine reads, those it no longer needs, and where the fighter stands without them."""

    counted: list[PostGameRoll]
    unneeded: list[PostGameRoll]
    result: CasualtyState  # worked out from `counted`, without the ransom answer

    @property
    def captured(self) -> bool:
        return self.result.waiting_for_ransom

    @property
    def reopened(self) -> bool:
        """The engine asks for a roll that was never made: the fighter's step is open again."""
        return self.result.needed is not None


def reading_chain(casualty: CasualtyState, stored: list[PostGameRoll], table: rules.TraumaTable) -> Chain:
    """Offer the fighter's stored rolls (counted or set aside) to the engine one by one, in the order it asks for
    them (RULING T-5 rerolls by sequence; the Bitter Lessons D3 once the D66 is settled)."""
    by_key = {(roll.purpose, roll.sequence): roll for roll in stored}
    counted: list[PostGameRoll] = []
    while True:
        trial = CasualtyState(
            casualty.fighter, casualty.elite, casualty.casualty, logged_rolls(counted), None
        )
        resolve(trial, table)
        needed = trial.needed
        roll = by_key.get((needed.purpose, needed.sequence)) if needed is not None else None
        if trial.problem or roll is None or roll in counted:
            break
        counted.append(roll)
    unneeded = [roll for roll in stored if roll not in counted]
    return Chain(counted, unneeded, trial)
