"""Trench Crusade on the board: an Injury (or Bloodbath) Roll on one model, and the one-tap Blood and Blessing
Markers and Down (TC_IN_GAME.md, RULINGS I-1 to I-8; the engine's `rules.injury`, `rules.injury_board`).

Each follows the board's steps (board.py): the idempotency key first (keys.py), the board locked and a stale tap
refused naming who changed the model, the model's state read under the lock, the engine's answer applied and the
action committed with its before-image, so Undo puts back exactly what was. An Injury Roll's dice are stored by the
roll store, with the inputs in the action's history context, before anything is shown (RULING I-8). A model taken
Out of Action leaves play with the status an Out of Action mark gives (out_of_action.py), so the end of the game
takes it to the Trauma Step (end.py, seed 003).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaigns.models import Game
from combat import rules
from combat.models import TrackerAction, TrackerFighter
from combat.rules import injury_board
from combat.rules.kept_dice import D6
from combat.selectors.tracker_injury import FROM_KIT, InjuryInputRefused, InjuryInputs, injury_inputs
from combat.selectors.tracker_state import is_unit, rules_for, tracker_tc_model
from combat.services import roll_store
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

ROLL_PURPOSE = "injury"


def refuse_fallout_board(game: Game) -> None:
    """Injury Rolls, markers and Down are Trench Crusade's: a board whose fighters have Endurance (Fallout:
    Factions) resolves Damage against it instead (seed 000)."""
    if rules_for(game).single_model_damage:
        raise TrackerError(
            "This campaign's fighters have Endurance: Damage is resolved against it (Fallout: Factions' rule), "
            "not by Trench Crusade's Injury Rolls, Blood Markers or Down."
        )


def _single_model(tracker, target_id: int, *, to: str) -> TrackerFighter:
    target = board_fighter(tracker, target_id, to=to)
    if is_unit(target.fighter):
        raise TrackerError(
            f"{target.fighter.name} is a unit of several models: its Health Pool loses Health Points by Damage "
            "(RULING H-1), not by Injury Rolls."
        )
    return target


def _apply_model(target: TrackerFighter, after: rules.TcModel) -> None:
    target.blood, target.blessings = after.blood, after.blessings
    target.down, target.tough_used = after.down, after.tough_used
    if after.out_of_action:
        # RULING I-7: out of play for the rest of the game; the end of the game sends it to the Trauma Step.
        target.status = TrackerFighter.Status.OUT_OF_ACTION


def _faces_refused(count: int):
    def refused(refusal: rules.FacesRefused) -> TrackerError:
        if refusal.face is None:
            return TrackerError(
                f"This Injury Roll rolls {count}D6: enter {count} faces (you entered {refusal.entered}).",
                field="faces",
            )
        return TrackerError(f"A D6 shows 1 to 6: {refusal.face} is not a face of a D6.", field="faces")

    return refused


def build_roll(target: TrackerFighter, **given) -> InjuryInputs:
    """The model, the roll and its pool, read under the board's lock; a refusal names its field."""
    try:
        return injury_inputs(target, **given)
    except InjuryInputRefused as refusal:
        raise TrackerError(str(refusal), field=refusal.field) from refusal


def _summary(told: str, outcome: rules.InjuryOutcome) -> str:
    """The roll, the dice kept when not all were, and the rule that decided it, for the board's last action."""
    kept = ""
    if len(outcome.kept) < len(outcome.faces):
        kept = f" Dice kept: {', '.join(str(face) for face in outcome.kept)}."
    return f"{told}.{kept} {injury_board.injury_rule(outcome)}"


def _roll_and_store(game: Game, target: TrackerFighter, inputs: InjuryInputs, *, faces, by):
    """The dice rolled (or the typed faces checked by the engine), resolved, and stored with the roll in words
    before anything is shown (RULING I-8; its inputs go with the action's history context, `injury`)."""
    count = inputs.pool.dice
    dice = roll_store.dice_for(faces=faces, sides=D6, count=count, refused=_faces_refused(count))
    outcome = rules.resolve_injury(inputs.model, inputs.roll, dice)
    record = injury_board.injury_record(outcome)
    told = injury_board.injury_words(record, name=target.fighter.name)
    stored = roll_store.store_dice(
        dice=dice,
        campaign_id=game.campaign_id,
        game_id=game.pk,
        warband_id=target.fighter.warband_id,
        fighter_id=target.fighter_id,
        purpose=ROLL_PURPOSE,
        by=by,
        label=told,
    )
    return outcome, stored, record, told


@transaction.atomic
def injury_roll(
    *,
    game: Game,
    target_id: int,
    by,
    version: int,
    injury_dice: int = 0,
    modifiers: Sequence[int] = (),
    blood_spent: int = 0,
    blessings_spent: int = 0,
    critical: bool = False,
    melee: bool = False,
    armour: str = FROM_KIT,
    shield: bool | None = None,
    bloodbath: bool = False,
    faces: Sequence[int] | None = None,
    sent: keys.Sent | None = None,
    attacker_id: int | None = None,
) -> TrackerAction:
    """One Injury Roll (a Bloodbath Roll with `bloodbath=True`) on a single model: rolled by the server
    (`faces=None`) or typed in, stored, applied. `armour` "kit" and `shield` None take the roster's;
    `attacker_id`: the fighter of the other side who caused it, when the players say (checked before the roll)."""
    refuse_fallout_board(game)
    if (replay := keys.replayed(game=game, by=by, sent=sent)) is not None:
        return replay
    tracker = lock(game, version, [target_id], by=by, sent=sent)
    refuse_while_pending(tracker)
    target = _single_model(tracker, target_id, to="take an Injury Roll")
    attacker = attacker_on_board(tracker, target, attacker_id)
    inputs = build_roll(
        target,
        armour=armour,
        shield=shield,
        injury_dice=injury_dice,
        modifiers=tuple(modifiers),
        blood_spent=blood_spent,
        blessings_spent=blessings_spent,
        critical=critical,
        melee=melee,
        bloodbath=bloodbath,
    )
    outcome, stored, record, told = _roll_and_store(game, target, inputs, faces=faces, by=by)
    before = [fighter_image(target)]
    _apply_model(target, outcome.after)
    action = commit(
        tracker,
        action="tracker.injury_roll",
        kind=TrackerAction.Kind.INJURY_ROLL,
        by=by,
        summary=_summary(told, outcome) + by_words(attacker),
        before=before,
        changed=[target],
        touched=[target_id],
        rolls=[stored.pk],
        attacker=attacker,
        fighter=target_id,
        injury=record,
        told=told,
    )
    return keys.remember(action, by=by, sent=sent)


MARKER_KINDS = {
    "blood": TrackerAction.Kind.BLOOD,
    "blessings": TrackerAction.Kind.BLESSING,
    "down": TrackerAction.Kind.DOWN,
}


@transaction.atomic
def tracker_marker(
    *, game: Game, target_id: int, what: str, change: int, by, version: int, sent: keys.Sent | None = None
) -> TrackerAction:
    """One tap on a Trench Crusade model: +1 / -1 Blood Marker (`what="blood"`), Blessing Marker
    (`"blessings"`), or Down (`"down"`, +1 marks it Down, -1 stands it up). Bounded 0 to 6 (TC_IN_GAME.md)."""
    if what not in MARKER_KINDS or change not in (1, -1):
        raise TrackerError(
            "A tap adds or takes off one Blood or Blessing Marker, or marks Down or stands up."
        )
    refuse_fallout_board(game)
    if (replay := keys.replayed(game=game, by=by, sent=sent)) is not None:
        return replay
    tracker = lock(game, version, [target_id], by=by, sent=sent)
    refuse_while_pending(tracker)
    target = _single_model(tracker, target_id, to="take markers")
    name = target.fighter.name
    model = tracker_tc_model(target)
    try:
        if what == "down":
            outcome = injury_board.set_down(model, down=change > 0)
        else:
            outcome = injury_board.adjust_marker(model, marker=what, change=change)
    except ValueError as error:
        raise TrackerError(f"Not changed on {name}: {error}.") from error
    before = [fighter_image(target)]
    _apply_model(target, outcome.after)
    told = injury_board.explain_marker(outcome, name=name)
    action = commit(
        tracker,
        action=f"tracker.{what}",
        kind=MARKER_KINDS[what],
        by=by,
        summary=told,
        before=before,
        changed=[target],
        touched=[target_id],
        fighter=target_id,
        told=told,
    )
    return keys.remember(action, by=by, sent=sent)
