"""Harm and Injuries marked on a model by a rule other than Damage (the board's "+1 Harm" and "+1 Injury").

Implements 000_57a9b0f426546aa5.txt (Fallout: Factions), headings "Harm" and "Injury":

- "Harm": "Most models have a Harm Limit of 3. This means that the model cannot suffer any more than 3 Harm. Any
  Harm beyond this is considered Excess Harm, which has no effect unless a rule specifically states otherwise."
  Only Excess Harm caused by Damage causes an Injury (RULING D-2, `damage.inflict_damage`): 1 Harm marked by
  another rule at the Harm Limit has no effect. A model with no Harm Limit never suffers Excess Harm (RULING D-4).
- "Injury": "Whenever a model suffers an Injury, mark one of the Injury Boxes [...]. If the number of marked Injury
  Boxes equals the model's Health value, the model is Incapacitated", the same event as the Damage table's
  Incapacitation (RULING D-8).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .damage import Combatant

__all__ = ["MarkOutcome", "explain_mark", "suffer_harm", "suffer_injury"]


@dataclass(frozen=True, slots=True)
class MarkOutcome:
    """What marking 1 Harm (`kind="harm"`) or 1 Injury (`kind="injury"`) did: `suffered` is 1, or 0 for Harm
    beyond the Harm Limit (Excess Harm with no effect); `after` the model afterwards."""

    kind: str
    suffered: int
    incapacitated: bool
    before: Combatant
    after: Combatant


def _check(target: Combatant, what: str) -> None:
    if target.incapacitated:
        raise ValueError(f"{target.name or 'the model'} is already Incapacitated and cannot suffer {what}")


def suffer_harm(target: Combatant) -> MarkOutcome:
    """1 Harm from a rule other than Damage (000 "Harm"); at the Harm Limit it is Excess Harm with no effect."""
    _check(target, "Harm")
    limit = target.harm_limit
    if limit is not None and target.harm >= limit:
        # 000 "Harm": Excess Harm "has no effect unless a rule specifically states otherwise" (RULING D-2: only
        # Damage's Excess Harm causes an Injury).
        return MarkOutcome("harm", 0, False, target, target)
    return MarkOutcome("harm", 1, False, target, replace(target, harm=target.harm + 1))


def suffer_injury(target: Combatant) -> MarkOutcome:
    """1 Injury marked (000 "Injury"): Injury Boxes reaching Health Incapacitate the model (RULING D-8)."""
    _check(target, "an Injury")
    injuries = target.injuries + 1
    incapacitated = injuries >= target.health
    after = replace(target, injuries=injuries, incapacitated=incapacitated)
    return MarkOutcome("injury", 1, incapacitated, target, after)


def explain_mark(outcome: MarkOutcome) -> str:
    """The mark in one plain sentence that cites the rule."""
    name = outcome.before.name or "The model"
    after = outcome.after
    if outcome.kind == "harm":
        if not outcome.suffered:
            return (
                f"{name} is at its Harm Limit ({after.harm_limit}): 1 more Harm is Excess Harm, which has no "
                'effect outside Damage (000 "Harm", RULING D-2).'
            )
        limit = "" if after.harm_limit is None else f" of {after.harm_limit}"
        return f"{name} suffers 1 Harm ({after.harm}{limit} now)."
    sentence = f"{name} suffers an Injury ({after.injuries} of {after.health} Injury Boxes marked)."
    if outcome.incapacitated:
        sentence += f" {name} is Incapacitated: its Injuries equal its Health (RULING D-8)."
    return sentence
