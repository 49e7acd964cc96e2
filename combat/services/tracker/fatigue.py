"""Fatigue and Harm between attacks: +1 or -1 Fatigue (RULING D-7), and a model Recovering 1 Harm (000 "Harm")."""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Game
from combat import rules
from combat.models import TrackerAction
from combat.selectors.tracker_state import is_unit, tracker_combatant
from combat.services.tracker import keys
from combat.services.tracker.board import (
    board_fighter,
    commit,
    fighter_image,
    lock,
    refuse_while_pending,
)
from combat.services.tracker.errors import TrackerError
from combat.services.tracker.out_of_action import refuse_single_model_damage


@transaction.atomic
def tracker_adjust_fatigue(
    *, game: Game, target_id: int, change: int, by, version: int, sent: keys.Sent | None = None
) -> TrackerAction:
    """+1 Fatigue (a model takes 1 Fatigue for each Action; none at 2, RULING D-7) or -1 (Fatigue removed).

    `sent`: the tap's idempotency key; a repeat answers the action it made (keys.py)."""
    if change not in (1, -1):
        raise TrackerError("Fatigue changes by one at a time: +1 or -1.")
    if (replay := keys.replayed(game=game, by=by, sent=sent)) is not None:
        return replay
    tracker = lock(game, version, [target_id], by=by, sent=sent)
    refuse_while_pending(tracker)
    target = board_fighter(tracker, target_id, to="change Fatigue")
    name = target.fighter.name
    refuse_single_model_damage(game, name)  # Fatigue: Fallout: Factions' (the RULINGS' facts, D-7)
    before = [fighter_image(target)]
    if change == 1:
        if not rules.can_take_fatigue(tracker_combatant(target)):
            raise TrackerError(f"{name} has 2 Fatigue (Exhausted) and cannot Take Fatigue (RULING D-7).")
        target.fatigue += 1
        exhausted = ", Exhausted" if not rules.can_take_fatigue(tracker_combatant(target)) else ""
        sentence = f"{name} takes 1 Fatigue ({target.fatigue} now{exhausted})."
    else:
        if target.fatigue == 0:
            raise TrackerError(f"{name} has no Fatigue to remove.")
        target.fatigue -= 1
        sentence = f"{name} loses 1 Fatigue ({target.fatigue} now)."
    action = commit(
        tracker,
        action="tracker.fatigue",
        kind=TrackerAction.Kind.FATIGUE,
        by=by,
        summary=sentence,
        before=before,
        changed=[target],
        touched=[target_id],
        fighter=target_id,
    )
    return keys.remember(action, by=by, sent=sent)


@transaction.atomic
def tracker_recover_harm(
    *, game: Game, target_id: int, by, version: int, sent: keys.Sent | None = None
) -> TrackerAction:
    """The model Recovers 1 Harm (000 "Harm": "Some rules allow models to Recover Harm"); `sent` as above."""
    if (replay := keys.replayed(game=game, by=by, sent=sent)) is not None:
        return replay
    tracker = lock(game, version, [target_id], by=by, sent=sent)
    refuse_while_pending(tracker)
    target = board_fighter(tracker, target_id, to="Recover Harm")
    name = target.fighter.name
    refuse_single_model_damage(game, name)
    if is_unit(target.fighter) or target.harm == 0:
        raise TrackerError(f"{name} has no Harm to Recover.")
    before = [fighter_image(target)]
    target.harm = rules.recover_harm(tracker_combatant(target), 1).harm
    sentence = f"{name} Recovers 1 Harm ({target.harm} now)."
    action = commit(
        tracker,
        action="tracker.recover_harm",
        kind=TrackerAction.Kind.RECOVER_HARM,
        by=by,
        summary=sentence,
        before=before,
        changed=[target],
        touched=[target_id],
        fighter=target_id,
    )
    return keys.remember(action, by=by, sent=sent)
