"""Reads for a fighter's card on the board: the quick "Damage N" with what each N does,
the crews in the viewer's order (their own warband first) and split into those in play and the fallen.

Every outcome is the engine's (`rules.inflict_damage`, `rules.lose_health_points`); this module only words it.
"""

from __future__ import annotations

from dataclasses import dataclass

from combat import rules
from combat.selectors.tracker_attack import outcome_words
from combat.selectors.tracker_state import tracker_combatant, tracker_health_pool

# A unit's quick Damage offers up to this many Health Points lost (more is typed on the fighter's page).
MAX_UNIT_CHOICES = 12


@dataclass(frozen=True)
class DamageChoice:
    """One amount of the card's "Damage N": the row it reaches (`row`, this Damage's outcome) and the fighter's
    state after it (`after`, the end state), kept apart so they never read as one claim."""

    damage: int
    row: str
    after: str
    incapacitated: bool


def _after_words(after) -> str:
    if after.incapacitated:
        return "Incapacitated"
    limit = "" if after.harm_limit is None else f"/{after.harm_limit}"
    return f"Harm {after.harm}{limit}, Injuries {after.injuries} of {after.health}"


def _single_choices(board_fighter) -> list[DamageChoice]:
    combatant = tracker_combatant(board_fighter.tracked)
    choices = []
    # Up to the least Damage that Incapacitates outright: more does the same (RULING D-1, 000 "Damage Resolution").
    for damage in range(1, rules.incapacitating_damage(combatant) + 1):
        outcome = rules.inflict_damage(combatant, damage)
        choices.append(
            DamageChoice(damage, outcome_words(outcome), _after_words(outcome.after), outcome.incapacitated)
        )
    return choices


def _unit_choices(board_fighter) -> list[DamageChoice]:
    pool = tracker_health_pool(board_fighter.tracked)
    choices = []
    # Each Damage takes 1 Health Point from the pool: whole models removed, the rest carried (RULING H-1).
    for damage in range(1, min(pool.health_points, MAX_UNIT_CHOICES) + 1):
        loss = rules.lose_health_points(pool, damage)
        removed = f"{loss.removed} model{'s' if loss.removed != 1 else ''} removed"
        left = loss.after.models
        after = "wiped out" if left == 0 else f"{left} model{'s' if left != 1 else ''} left"
        choices.append(
            DamageChoice(
                damage, f"{damage} Health Point{'s' if damage != 1 else ''}: {removed}", after, left == 0
            )
        )
    return choices


def damage_choices(board_fighter) -> list[DamageChoice]:
    """What each Damage from 1 up would do to a fighter in play, for its card's "Damage N" (none once out of play)."""
    if not board_fighter.in_play:
        return []
    return _unit_choices(board_fighter) if board_fighter.unit else _single_choices(board_fighter)


def viewer_first(crews: list, viewer) -> list:
    """The crews with the viewer's own warband first (a player, or the organiser who plays); a spectator sees
    the game's order."""
    viewer_id = getattr(viewer, "pk", None)
    return sorted(crews, key=lambda crew: crew.warband.owner_id != viewer_id)
