"""Damage on the board: typed in from the table, or the Hits of an Attack Test rolled here, applied to one fighter.

A single model goes through the Damage table (seed 000) and, when Incapacitated, sets off Harsh Lessons (RULING
D-11) and the Confusion Tests (000 "Confusion"); a unit goes to units.py (its Health Pool, Damage Allocation, a
shot of a shooting engagement).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaigns.models import Game
from combat import rules
from combat.models import DiceRoll, TrackerAction, TrackerFighter, TrackerGame
from combat.rules.words import possessive
from combat.selectors.tracker_attack import AttackTest, attack_dice_pool
from combat.selectors.tracker_state import is_unit, tracker_combatant
from combat.services.tracker import keys
from combat.services.tracker.board import (
    attacker_on_board,
    board_fighter,
    by_words,
    commit,
    dice_from,
    faces_text,
    fighter_image,
    game_image,
    lock,
    plural,
    refuse_while_pending,
    store_roll,
    touched_by,
)
from combat.services.tracker.errors import TrackerError
from combat.services.tracker.out_of_action import refuse_attack_test, refuse_single_model_damage
from combat.services.tracker.units import damage_unit

# No attack inflicts more: a typed-in Damage above it is a slip of the finger.
TRACKER_MAX_DAMAGE = 200


def _tracker_damage(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    *,
    distances: Sequence[float | None] | None,
    target_limit: int | None,
    lead: str = "",
    shooting: bool = False,
) -> tuple[str, list[TrackerFighter]]:
    """Apply `amount` Damage to `target` in memory (rows are saved by `commit`): the sentence, the rows."""
    if is_unit(target.fighter):
        sentence = damage_unit(
            tracker,
            target,
            amount,
            distances=distances,
            target_limit=target_limit,
            tie_order=(),
            shooting=shooting,
        )
        return lead + sentence, [target]
    if distances:
        raise TrackerError(f"{target.fighter.name} is one model: distances are for units of several models.")
    if shooting:
        raise TrackerError(
            f"{target.fighter.name} is one model: a shooting engagement holds back the removal of a unit's models "
            "(RULING A-5), and a single model takes its Damage at once."
        )
    try:
        outcome = rules.inflict_damage(tracker_combatant(target), amount)
    except ValueError as error:
        raise TrackerError(f"The rules refuse this: {error}.") from error
    target.harm = outcome.after.harm
    target.injuries = outcome.after.injuries
    sentence = lead + rules.explain_damage(outcome)
    if outcome.incapacitated:
        sentence += incapacitation_follows(tracker, target, outcome.after)
    return sentence, [target]


def incapacitation_follows(tracker: TrackerGame, target: TrackerFighter, after: rules.Combatant) -> str:
    """Harsh Lessons and the Confusion Tests an Incapacitation sets off (000 "Incapacitation", RULING D-8)."""
    target.status = TrackerFighter.Status.INCAPACITATED
    name = target.fighter.name
    warband = target.player.warband
    words = ""
    # RULING D-11: the engine's HarshLessons, rebuilt from the crews that already earned it this game.
    lessons = rules.HarshLessons(earned=[str(crew) for crew in tracker.harsh_lessons])
    if lessons.award(str(warband.pk), after):
        tracker.harsh_lessons = [*tracker.harsh_lessons, warband.pk]
        words += f" Harsh Lessons: {warband.name} earns 1 XP, its first Champion Incapacitated this game (RULING D-11)."
    elif after.champion:
        words += f" {warband.name} already earned its Harsh Lessons XP this game (RULING D-11)."
    friends = (
        TrackerFighter.objects.filter(
            tracker=tracker, player_id=target.player_id, status=TrackerFighter.Status.ACTIVE
        )
        .exclude(pk=target.pk)
        .exists()
    )
    if friends:
        # 000 "Confusion": a Confusion Test for each Friendly model within 3" before the model is removed.
        tracker.pending = {"kind": "confusion", "stage": "friends", "incapacitated": target.fighter_id}
        words += (
            f' Before {name} is removed from play: tick the friends that were within 3" for Confusion Tests.'
        )
    else:
        words += f" {name} is removed from play; no friend is left in play to test for Confusion."
    return words


def _tracker_check_damage(damage: int) -> None:
    if type(damage) is not int or damage < 0:
        raise TrackerError(f"Damage is a whole number of 0 or more, not {damage!r}.")
    if damage > TRACKER_MAX_DAMAGE:
        raise TrackerError(
            f"Damage of {damage} is more than any attack inflicts (at most {TRACKER_MAX_DAMAGE})."
        )


@transaction.atomic
def tracker_apply_damage(
    *,
    game: Game,
    target_id: int,
    damage: int,
    by,
    version: int,
    distances: Sequence[float | None] | None = None,
    target_limit: int | None = None,
    shooting: bool = False,
    sent: keys.Sent | None = None,
    attacker_id: int | None = None,
    target: TrackerFighter | None = None,
) -> TrackerAction:
    """Damage counted at the table (the Hits of an Attack Test, or any other danger) applied to one fighter.

    A single model goes through the Damage table (seed 000); a unit through its Health Pool (seed 004) or, when the
    players give each model's distance, through Damage Allocation (seed 001); `shooting`: the Damage is one shot
    of the shooting engagement on that unit, its models removed when the engagement ends (RULING A-5).
    `sent`: the idempotency key of a Quick Damage queued offline; a repeat answers the action it made (keys.py).
    `attacker_id`: the fighter of the other side who dealt it, when the players say.
    `target`: the fighter's row as the view read it after the form was drawn (`board.board_fighter`), else read here.
    """
    _tracker_check_damage(damage)
    if (replay := keys.replayed(game=game, by=by, sent=sent)) is not None:
        return replay
    tracker = lock(game, version, [target_id], by=by, sent=sent)
    refuse_while_pending(tracker)
    target = board_fighter(tracker, target_id, to="take Damage", read=target)
    if not is_unit(target.fighter):
        refuse_single_model_damage(game, target.fighter.name)
    attacker = attacker_on_board(tracker, target, attacker_id)
    before = [fighter_image(target), game_image(tracker)]
    sentence, changed = _tracker_damage(
        tracker, target, damage, distances=distances, target_limit=target_limit, shooting=shooting
    )
    sentence += by_words(attacker)
    # `damage`: the amount, for the history's battle report (rosters.history.tracker).
    action = commit(
        tracker,
        action="tracker.damage",
        kind=TrackerAction.Kind.DAMAGE,
        by=by,
        summary=sentence,
        before=before,
        changed=changed,
        touched=touched_by(tracker, before, target.fighter_id),
        fighter=target.fighter_id,
        damage=damage,
        attacker=attacker,
    )
    return keys.remember(action, by=by, sent=sent)


def _roll_attack_test(game: Game, target: TrackerFighter, attacker, pool, faces, *, by):
    """The Attack Test rolled (or its faces checked), stored in the dice log before its result is used, and the
    sentence that leads the action's summary."""
    dice = dice_from(faces, count=pool.pool, what="This Attack Test")
    test = rules.roll_test(dice, dice_count=pool.pool, stat=pool.stat)
    who = f"{possessive(attacker.fighter.name)} attack" if attacker is not None else "The attack"
    hits = plural(test.hits, "Hit")
    shown = faces_text(test.faces)
    roll = store_roll(
        game,
        by=by,
        dice=dice,
        faces=test.faces,
        purpose="attack",
        label=f"Attack Test on {target.fighter.name}: {pool.pool}D10 against {pool.stat} — {shown}, {hits}",
        fighter=attacker.fighter if attacker is not None else None,
    )
    source = "rolled by the server" if roll.source == DiceRoll.Source.SERVER else "rolled at the table"
    lead = (
        f"{who} on {target.fighter.name}: {pool.words}; {source}: {shown} — {hits}, so Damage {test.hits}. "
    )
    return test, roll, lead


@transaction.atomic
def tracker_roll_attack(
    *,
    game: Game,
    target_id: int,
    attack: AttackTest,
    by,
    version: int,
    faces: Sequence[int] | None = None,
    distances: Sequence[float | None] | None = None,
    target_limit: int | None = None,
    shooting: bool = False,
    target: TrackerFighter | None = None,
) -> TrackerAction:
    """An Attack Test rolled by the server (`faces=None`) or typed in from the table, then Damage equal to the
    Hits (002 "3. Inflict Damage") applied as `tracker_apply_damage` does. The roll is stored first.
    `target`: the fighter's row as the view read it after the form was drawn (`board.board_fighter`)."""
    refuse_attack_test(game)
    tracker = lock(game, version, [target_id])
    refuse_while_pending(tracker)
    target = board_fighter(tracker, target_id, to="be attacked", read=target)
    attacker = attack.attacker
    if attacker is not None and attacker.tracker_id != tracker.pk:
        raise TrackerError("The attacker is not on this game's board.")
    if attack.makeshift and attacker is None:
        raise TrackerError("A Makeshift Weapon is a Test 2S: choose the attacker, whose Strength it uses.")
    try:
        pool = attack_dice_pool(target, attack)
    except ValueError as error:
        raise TrackerError(f"This Attack Test cannot be rolled: {error}.") from error
    test, roll, lead = _roll_attack_test(game, target, attacker, pool, faces, by=by)
    before = [fighter_image(target), game_image(tracker)]
    sentence, changed = _tracker_damage(
        tracker,
        target,
        test.hits,
        distances=distances,
        target_limit=target_limit,
        lead=lead,
        shooting=shooting,
    )
    return commit(
        tracker,
        action="tracker.attack",
        kind=TrackerAction.Kind.ATTACK,
        by=by,
        summary=sentence,
        before=before,
        changed=changed,
        touched=touched_by(tracker, before, target.fighter_id),
        rolls=[roll.pk],
        fighter=target.fighter_id,
        damage=test.hits,
        attacker=attacker,
    )
