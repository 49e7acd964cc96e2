"""The board's "+1 Harm" and "+1 Injury": Harm or an Injury marked on a single model by a rule other than Damage
(the engine's `rules.marks`, seed 000 "Harm" and "Injury"). An Injury that Incapacitates sets off Harsh Lessons and
the Confusion Tests like the Damage table's (RULING D-8)."""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Game
from combat.models import TrackerAction
from combat.rules import marks
from combat.selectors.tracker_state import is_unit, tracker_combatant
from combat.services.tracker import keys
from combat.services.tracker.board import (
    board_fighter,
    commit,
    fighter_image,
    game_image,
    lock,
    refuse_while_pending,
    touched_by,
)
from combat.services.tracker.damage import incapacitation_follows
from combat.services.tracker.errors import TrackerError
from combat.services.tracker.out_of_action import refuse_single_model_damage

KINDS = {"harm": TrackerAction.Kind.HARM, "injury": TrackerAction.Kind.INJURY}
RULES = {"harm": marks.suffer_harm, "injury": marks.suffer_injury}


@transaction.atomic
def tracker_mark(
    *, game: Game, target_id: int, mark: str, by, version: int, sent: keys.Sent | None = None
) -> TrackerAction:
    """1 Harm (`mark="harm"`) or 1 Injury (`mark="injury"`) marked on one single model of the board.

    `sent`: the tap's idempotency key; a repeat answers the action it made (keys.py)."""
    if mark not in RULES:
        raise TrackerError("The board marks 1 Harm or 1 Injury.")
    if (replay := keys.replayed(game=game, by=by, sent=sent)) is not None:
        return replay
    tracker = lock(game, version, [target_id], by=by, sent=sent)
    refuse_while_pending(tracker)
    words = "1 Harm" if mark == "harm" else "an Injury"
    target = board_fighter(tracker, target_id, to=f"suffer {words}")
    name = target.fighter.name
    refuse_single_model_damage(game, name)
    if is_unit(target.fighter):
        raise TrackerError(
            f"{name} is a unit of several models: its Health Pool loses Health Points by Damage, not Harm or "
            "Injuries (RULING H-1)."
        )
    outcome = RULES[mark](tracker_combatant(target))
    if not outcome.suffered:
        raise TrackerError(marks.explain_mark(outcome))  # Excess Harm with no effect: nothing to record
    before = [fighter_image(target), game_image(tracker)]
    target.harm = outcome.after.harm
    target.injuries = outcome.after.injuries
    sentence = marks.explain_mark(outcome)
    if outcome.incapacitated:
        sentence += incapacitation_follows(tracker, target, outcome.after)
    action = commit(
        tracker,
        action=f"tracker.{mark}",
        kind=KINDS[mark],
        by=by,
        summary=sentence,
        before=before,
        changed=[target],
        touched=touched_by(tracker, before, target.fighter_id),
        fighter=target.fighter_id,
    )
    return keys.remember(action, by=by, sent=sent)
