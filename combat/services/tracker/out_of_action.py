"""The board of a campaign whose fighters have no Endurance (Trench Crusade): a single model is marked Out of
Action by a tap, or the mark taken back, and the single-model Damage of Fallout: Factions is refused there
(combat/rules/board_rules.py). The end of the game takes the marked fighters Out of Action (end.py), for the
Trauma Step (seed 003)."""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Game
from combat.models import TrackerAction, TrackerFighter
from combat.rules import board_rules
from combat.selectors.tracker_state import is_unit, rules_for
from combat.services.tracker import keys
from combat.services.tracker.board import (
    attacker_on_board,
    board_fighter,
    by_words,
    commit,
    fighter_image,
    lock,
    refuse_while_pending,
)
from combat.services.tracker.errors import TrackerError

rules_of = rules_for  # what the game's board offers, by its campaign's fighter profile


def refuse_single_model_damage(game: Game, name: str) -> None:
    """Refuse Damage, an Attack Test, Harm, an Injury, Fatigue or Confusion on a single model of a board whose
    fighters have no Endurance: nothing there to compare the Damage with (seed 000)."""
    if not rules_of(game).single_model_damage:
        raise TrackerError(board_rules.single_model_damage_refused(name))


def refuse_confusion(game: Game) -> None:
    if not rules_of(game).single_model_damage:
        raise TrackerError(board_rules.confusion_refused())


def refuse_attack_test(game: Game) -> None:
    if not rules_of(game).attack_test:
        raise TrackerError(board_rules.attack_test_refused())


@transaction.atomic
def tracker_out_of_action(
    *,
    game: Game,
    target_id: int,
    taken: bool,
    by,
    version: int,
    sent: keys.Sent | None = None,
    attacker_id: int | None = None,
) -> TrackerAction:
    """One single model marked Out of Action (`taken=True`: removed from play, taken Out of Action at the end of
    the game) or its mark taken back (`taken=False`: back in play). Undo puts back the board as it was.

    `sent`: the tap's idempotency key; a repeat answers the action it made (keys.py). `attacker_id`: the fighter of
    the other side who took it Out of Action, when the players say (a mark taken back names no one)."""
    if type(taken) is not bool:
        raise TrackerError("A fighter is marked Out of Action, or its mark taken back.")
    if rules_of(game).single_model_damage:
        raise TrackerError(
            "This campaign's fighters have Endurance: a model leaves play by Damage, Incapacitated, "
            "not by an Out of Action mark."
        )
    if (replay := keys.replayed(game=game, by=by, sent=sent)) is not None:
        return replay
    tracker = lock(game, version, [target_id], by=by, sent=sent)
    refuse_while_pending(tracker)
    target = board_fighter(tracker, target_id, to="be taken Out of Action" if taken else None)
    name = target.fighter.name
    if is_unit(target.fighter):
        raise TrackerError(
            f"{name} is a unit of several models: its Health Pool loses Health Points by Damage, and it leaves "
            "play when no model is left (RULING H-1)."
        )
    if not taken and target.status != TrackerFighter.Status.OUT_OF_ACTION:
        raise TrackerError(f"{name} is not marked Out of Action: there is no mark to take back.")
    attacker = attacker_on_board(tracker, target, attacker_id) if taken else None
    before = [fighter_image(target)]
    if taken:
        target.status = TrackerFighter.Status.OUT_OF_ACTION
        sentence = board_rules.explain_out_of_action(name, elite=target.fighter.counts_as_elite) + by_words(
            attacker
        )
    else:
        target.status = TrackerFighter.Status.ACTIVE
        sentence = board_rules.explain_back_in_play(name)
    action = commit(
        tracker,
        action="tracker.out_of_action" if taken else "tracker.back_in_play",
        kind=TrackerAction.Kind.OUT_OF_ACTION if taken else TrackerAction.Kind.BACK_IN_PLAY,
        by=by,
        summary=sentence,
        before=before,
        changed=[target],
        touched=[target_id],
        fighter=target_id,
        attacker=attacker,
    )
    return keys.remember(action, by=by, sent=sent)
