"""Step 2 of the post-game, the Troops: the odds of a Troop's Survival Roll, in plain words (RULING T-2)."""

from __future__ import annotations

from combat import rules


def survival_headline(casualty: rules.Casualty, *, table: rules.TraumaTable) -> str:
    """RULING T-2: on 1-2 of the Survival D6 the model is removed; the odds from `combat.rules.odds`."""
    odds = rules.trauma_odds(casualty, table=table)
    return f"{rules.format_odds(odds['removed'])} this fighter is lost"
