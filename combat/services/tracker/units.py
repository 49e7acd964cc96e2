"""Damage to a unit of several models: its Health Pool (seed 004), Damage Allocation by distance (seed 001), the
defending player's order for equally close models (RULING A-2), and the shooting engagement (RULING A-5).

Shooting: damage is assigned to the models when it is determined, but the assigned models stay on the table
until the players end the engagement ("End the shooting"). The open engagement is the engine's
`ShootingEngagement`, kept on the board (`TrackerGame.shooting`) between requests, so a second shot of the same
engagement cannot pick a model already due for removal, and an undo puts the engagement back as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaigns.models import Game
from combat import rules
from combat.models import TrackerAction, TrackerFighter, TrackerGame
from combat.rules.words import possessive
from combat.selectors.tracker_state import (
    engagement_from_json,
    engagement_to_json,
    tracker_health_pool,
)
from combat.services.tracker.board import (
    TRACKER_GAME_STATE,
    board_fighter,
    commit,
    fighter_image,
    game_image,
    lock,
    plural,
    refuse_while_pending,
    touched_by,
)
from combat.services.tracker.errors import TrackerBlocked, TrackerError


def damage_unit(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    *,
    distances: Sequence[float | None] | None,
    target_limit: int | None,
    tie_order: Sequence[str],
    shooting: bool = False,
) -> str:
    """Apply `amount` Damage to the unit `target` in memory (rows are saved by `commit`): the sentence."""
    name = target.fighter.name
    try:
        pool = tracker_health_pool(target)
    except ValueError as error:
        raise TrackerError(f"{possessive(name)} Health Pool cannot be read: {error}.") from error
    refuse_while_under_fire(tracker, target, shooting=shooting)
    if shooting:
        return _tracker_shoot(tracker, target, amount, distances, target_limit, tie_order)
    if distances:
        sentence = _tracker_allocate(tracker, target, amount, distances, target_limit, tie_order)
        if tracker.pending:
            return sentence
    else:
        # Seed 004, RULINGS H-1 and H-2: whole models removed, the rest carried, the excess ignored.
        loss = rules.lose_health_points(pool, amount)
        target.models_left = loss.after.models
        target.lost_hp = loss.after.lost
        sentence = f"{amount} Damage to {possessive(name)} Health Pool: {rules.explain_pool_loss(loss)}"
    return sentence + _models_left(target)


def _models_left(target: TrackerFighter) -> str:
    """The unit's models left in words; a unit with none is wiped out (and Incapacitated)."""
    name = target.fighter.name
    if target.models_left == 0:
        target.status = TrackerFighter.Status.INCAPACITATED
        target.lost_hp = 0  # a Health Pool with no model carries nothing (seed 004)
        return f" {name} has no model left: wiped out, and taken Out of Action at the end of the game."
    return f" {plural(target.models_left, 'model')} left."


def refuse_while_under_fire(tracker: TrackerGame, target: TrackerFighter, *, shooting: bool) -> None:
    """One shooting engagement at a time, and no other Damage to the unit under fire until it ends (RULING A-5:
    its assigned models are removed only when the engagement is resolved)."""
    open_at = (tracker.shooting or {}).get("target")
    if open_at is None:
        return
    if shooting and open_at != target.fighter_id:
        raise TrackerBlocked(
            "Another unit's shooting engagement is open: end that shooting first, then shoot at "
            f"{target.fighter.name} (RULING A-5)."
        )
    if not shooting and open_at == target.fighter_id:
        raise TrackerBlocked(
            f"{target.fighter.name} is in an open shooting engagement: add this Damage as one more shot, or end "
            "the shooting first (RULING A-5)."
        )


def _tracker_model_id(number: int | str, distance: float | None) -> str:
    # The model's id is how the engine's sentence names it: 'model 2 (3")'.
    return f'model {number} ({distance:g}")' if distance is not None else f"model {number}"


def _unit_models(
    target: TrackerFighter, distances: Sequence[float | None], ids: dict[str, str]
) -> list[rules.UnitModel]:
    """The unit's models for the engine, numbered 1.. in the order the distances were entered; a model with no
    distance cannot be affected by the attack (seed 001 "Which models can be affected"). The distances are from
    the closest contributing attacker (RULING A-1), so the attackers stand at one point, each model at its
    distance from it."""
    name = target.fighter.name
    if len(distances) != target.models_left:
        raise TrackerError(
            f"{name} has {plural(target.models_left, 'model')} in play: give one distance per model "
            "(leave a model blank if the attack cannot reach it)."
        )
    hp = target.fighter.health
    return [
        rules.UnitModel(ids[str(number)], hp, float(distance or 0), 0.0, distance is not None)
        for number, distance in enumerate(distances, 1)
    ]


def _ask_tie_order(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    allocation: rules.Allocation,
    ids: dict[str, str],
    **waiting,
) -> str:
    """RULING A-2: equally close models are ordered by the defending player; ask before anything is applied."""
    number_of = {model_id: number for number, model_id in ids.items()}
    tracker.pending = {
        "kind": "tie",
        "target": target.fighter_id,
        "damage": amount,
        **waiting,
        "ties": [
            [{"model": number_of[model], "distance": allocation.distances[model]} for model in group]
            for group in allocation.ties
        ],
    }
    groups = "; ".join(" and ".join(group) for group in allocation.ties)
    return (
        f"{amount} Damage to the closest models of {target.fighter.name}: {groups} are equally close, so the "
        "defending player chooses which takes damage first (RULING A-2)."
    )


def _tracker_allocate(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    distances: Sequence[float | None],
    target_limit: int | None,
    tie_order: Sequence[str],
) -> str:
    """Damage Allocation by the distances the players measured (seed 001, RULINGS A-1 to A-4)."""
    ids = {str(number): _tracker_model_id(number, distance) for number, distance in enumerate(distances, 1)}
    try:
        allocation = rules.allocate_damage(
            models=_unit_models(target, distances, ids),
            attackers=[(0.0, 0.0)],
            damage=amount,
            target_limit=target_limit,
            sustained=target.lost_hp,
            tie_order=[ids[number] for number in tie_order],
        )
    except (ValueError, KeyError) as error:
        raise TrackerError(f"The Damage Allocation cannot be made: {error}.") from error
    if allocation.ties:
        return _ask_tie_order(
            tracker, target, amount, allocation, ids, distances=list(distances), target_limit=target_limit
        )
    target.models_left -= len(allocation.removed)
    target.lost_hp = allocation.sustained
    return f"{amount} Damage to {target.fighter.name}. {rules.explain_allocation(allocation)}"


def _open_engagement(tracker: TrackerGame, target: TrackerFighter) -> rules.ShootingEngagement:
    """The engagement open on `target`, or a new one carrying the unit's Sustained Damage pool (RULING A-4)."""
    if tracker.shooting:
        return engagement_from_json(tracker.shooting["engagement"])
    return rules.ShootingEngagement(sustained=target.lost_hp)


def _tracker_shoot(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    distances: Sequence[float | None] | None,
    target_limit: int | None,
    tie_order: Sequence[str],
) -> str:
    """One shot of the shooting engagement: its damage assigned now, the models removed when it ends (A-5).

    The models keep their numbers for the whole engagement ('model 2'), whatever their distance at each shot:
    later movement does not change which models were assigned.
    """
    name = target.fighter.name
    if not distances:
        raise TrackerError(
            f"A shot at {name} assigns its damage by distance (RULING A-5): give each model's distance."
        )
    ids = {str(number): f"model {number}" for number in range(1, len(distances) + 1)}
    try:
        engagement = _open_engagement(tracker, target).allocate(
            models=_unit_models(target, distances, ids),
            attackers=[(0.0, 0.0)],
            damage=amount,
            target_limit=target_limit,
            tie_order=[ids[number] for number in tie_order],
        )
    except (ValueError, KeyError) as error:
        raise TrackerError(f"The Damage Allocation cannot be made: {error}.") from error
    shot = engagement.last
    if shot.ties:
        return _ask_tie_order(
            tracker,
            target,
            amount,
            shot,
            ids,
            distances=list(distances),
            target_limit=target_limit,
            shooting=True,
        )
    tracker.shooting = {"target": target.fighter_id, "engagement": engagement_to_json(engagement)}
    due = engagement.to_remove
    return (
        f"{amount} Damage to {name}, shot {len(engagement.allocations)} of this shooting engagement. "
        f"{rules.explain_allocation(shot, shooting=True)} "
        f"Due for removal when the shooting ends: {', '.join(due) if due else 'no model yet'}."
    )


@transaction.atomic
def tracker_order_ties(*, game: Game, tie_order: Sequence[str], by, version: int) -> TrackerAction:
    """The defending player's order for equally close models (RULING A-2); the waiting Damage is then allocated.

    `tie_order`: model numbers (as the distances were entered), first to take damage first.
    """
    tracker = lock(game, version, [TRACKER_GAME_STATE])
    pending = tracker.pending
    if not pending or pending["kind"] != "tie":
        raise TrackerError("No equally close models are waiting to be ordered.")
    target = board_fighter(tracker, pending["target"], to="take Damage")
    tie_order = [str(model).strip() for model in tie_order if str(model).strip()]
    tied = [str(entry["model"]) for group in pending["ties"] for entry in group]
    unknown = [model for model in tie_order if model not in tied]
    if unknown:
        raise TrackerError(f"Model {unknown[0]} is not one of the equally close models ({', '.join(tied)}).")
    if len(set(tie_order)) != len(tie_order):
        raise TrackerError("Name each equally close model once.")
    before = [fighter_image(target), game_image(tracker)]
    tracker.pending = None
    sentence = damage_unit(
        tracker,
        target,
        pending["damage"],
        distances=pending["distances"],
        target_limit=pending["target_limit"],
        tie_order=tie_order,
        shooting=pending.get("shooting", False),
    )
    if tracker.pending:
        raise TrackerError("Give the order of every equally close model: some are still tied.")
    sentence = f"The defending player puts model {', then model '.join(tie_order)} first. {sentence}"
    return commit(
        tracker,
        action="tracker.tie",
        kind=TrackerAction.Kind.TIE,
        by=by,
        summary=sentence,
        before=before,
        changed=[target],
        touched=touched_by(tracker, before, target.fighter_id),
        fighter=target.fighter_id,
        damage=pending["damage"],
    )


@transaction.atomic
def tracker_end_shooting(*, game: Game, by, version: int) -> TrackerAction:
    """The shooting engagement is resolved: the models assigned their Health Points are removed now, and the
    unit keeps the Sustained Damage pool the engagement carried (seed 001 "Timing", RULING A-5)."""
    tracker = lock(game, version, [TRACKER_GAME_STATE])
    refuse_while_pending(tracker)
    if not tracker.shooting:
        raise TrackerError("No shooting engagement is open on this board.")
    target = board_fighter(tracker, tracker.shooting["target"])
    engagement = engagement_from_json(tracker.shooting["engagement"])
    before = [fighter_image(target), game_image(tracker)]
    removed = engagement.end()
    tracker.shooting = None
    target.models_left -= len(removed)
    target.lost_hp = engagement.sustained
    shots = plural(len(engagement.allocations), "shot")
    gone = f"{', '.join(removed)} removed" if removed else "no model removed"
    sentence = (
        f"The shooting at {target.fighter.name} ends after {shots} (RULING A-5): {gone}; "
        f"Sustained Damage pool {engagement.sustained}."
    ) + _models_left(target)
    return commit(
        tracker,
        action="tracker.shooting_end",
        kind=TrackerAction.Kind.SHOOTING_END,
        by=by,
        summary=sentence,
        before=before,
        changed=[target],
        touched=touched_by(tracker, before, target.fighter_id),
        fighter=target.fighter_id,
    )
