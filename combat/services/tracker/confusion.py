"""Confusion on the board (000 "Confusion" and "Errata", RULINGS D-6, D-7, D-9, D-10): after an Incapacitation,
the friends within 3" are ticked, each makes a Confusion Test (2I) one at a time, and a Confused model Flees or
Takes Fatigue. Nothing else happens on the board until the Tests are done (`board.refuse_while_pending`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaigns.models import Game
from combat import rules
from combat.models import TrackerAction, TrackerFighter, TrackerGame
from combat.selectors.tracker_state import confusion_from_json, confusion_to_json
from combat.services.tracker.board import (
    TRACKER_GAME_STATE,
    board_fighter,
    commit,
    dice_from,
    faces_text,
    fighter_image,
    game_image,
    lock,
    store_roll,
    touched_by,
)
from combat.services.tracker.errors import TrackerBlocked, TrackerError
from combat.services.tracker.out_of_action import refuse_confusion
from rosters.models import Fighter


def _tracker_confusion(tracker: TrackerGame, stage: str) -> dict:
    pending = tracker.pending
    if not pending or pending["kind"] != "confusion":
        raise TrackerError("No Confusion Test is waiting on this board.")
    if pending["stage"] != stage:
        if pending["stage"] == "friends":
            raise TrackerError('Tick the friends that were within 3" first.')
        raise TrackerError('The friends within 3" are already chosen.')
    return pending


def _friends_within_3(
    tracker: TrackerGame, incapacitated: TrackerFighter, friend_ids: list[int]
) -> dict[int, TrackerFighter]:
    """The ticked friends' rows; each must be a Friendly model of the Incapacitated one, still in play."""
    name = incapacitated.fighter.name
    friends = {
        row.fighter_id: row
        for row in TrackerFighter.objects.filter(tracker=tracker, fighter_id__in=friend_ids).select_related(
            "fighter"
        )
    }
    for friend_id in friend_ids:
        friend = friends.get(friend_id)
        if friend is None:
            raise TrackerError("That fighter is not on this game's board.")
        if friend.player_id != incapacitated.player_id or friend.pk == incapacitated.pk:
            raise TrackerError(f"{friend.fighter.name} is not a Friendly model of {name}: no Confusion Test.")
        if friend.status != TrackerFighter.Status.ACTIVE:
            raise TrackerError(f"{friend.fighter.name} is out of play: no Confusion Test.")
    return friends


@transaction.atomic
def tracker_mark_friends(*, game: Game, friend_ids: Sequence[int], by, version: int) -> TrackerAction:
    """The Friendly models that were within 3" of the Incapacitated model: each makes a Confusion Test (2I), in
    the order given unless the player picks another (000 "Confusion"). None ticked: no Test, it is removed."""
    refuse_confusion(game)
    tracker = lock(game, version, [TRACKER_GAME_STATE])
    pending = _tracker_confusion(tracker, "friends")
    incapacitated = board_fighter(tracker, pending["incapacitated"])
    name = incapacitated.fighter.name
    friend_ids = list(dict.fromkeys(friend_ids))
    friends = _friends_within_3(tracker, incapacitated, friend_ids)
    models = [
        rules.FriendlyModel(
            str(friend_id),
            friends[friend_id].fighter.intelligence,
            friends[friend_id].fatigue,
            friends[friend_id].fighter.name,
        )
        for friend_id in friend_ids
    ]
    sequence = rules.confusion_tests_due(incapacitated=str(incapacitated.fighter_id), friends_within_3=models)
    before = [game_image(tracker)]
    if sequence.done:
        tracker.pending = None
        sentence = f'No friend was within 3" of {name}: no Confusion Test, and {name} is removed from play.'
    else:
        tracker.pending = {**pending, "stage": "tests", "sequence": confusion_to_json(sequence)}
        names = ", ".join(friends[friend_id].fighter.name for friend_id in friend_ids)
        sentence = (
            f'Within 3" of {name}: {names}. Each makes a Confusion Test (2I), one at a time, each settled before '
            "the next (RULING D-10)."
        )
    return commit(
        tracker,
        action="tracker.confusion",
        kind=TrackerAction.Kind.CONFUSION_FRIENDS,
        by=by,
        summary=sentence,
        before=before,
        changed=[],
        touched=[TRACKER_GAME_STATE],
    )


def _tracker_confusion_done(tracker: TrackerGame, sequence: rules.ConfusionSequence, pending: dict) -> str:
    if sequence.done:
        tracker.pending = None
        name = Fighter.objects.filter(pk=pending["incapacitated"]).values_list("name", flat=True).first()
        return f" The Confusion Tests are done and {name} is removed from play."
    tracker.pending = {**pending, "sequence": confusion_to_json(sequence)}
    return ""


def _next_to_test(sequence: rules.ConfusionSequence, friend_id: int | None) -> int:
    """Who tests now: the player's pick among those still to test, else the next in order (RULING D-10)."""
    if sequence.awaiting is not None:
        raise TrackerBlocked(
            "A Confused model is waiting: choose Flee or Take Fatigue before the next Test (RULING D-10)."
        )
    if friend_id is None:
        return int(sequence.remaining[0].id)
    if friend_id not in {int(friend.id) for friend in sequence.remaining}:
        raise TrackerError("That fighter has no Confusion Test left to make for this Incapacitation.")
    return friend_id


@transaction.atomic
def tracker_confusion_test(
    *, game: Game, by, version: int, friend_id: int | None = None, faces: Sequence[int] | None = None
) -> TrackerAction:
    """One Confusion Test (2I), rolled by the server or typed in; the player may pick who tests next (RULING D-10).

    Passed with one Hit (RULING D-6). Failed: the model is Confused and must choose Flee or Take Fatigue — or
    Flees at once when it cannot Take Fatigue (RULING D-7).
    """
    refuse_confusion(game)
    tracker = lock(game, version, [TRACKER_GAME_STATE])
    pending = _tracker_confusion(tracker, "tests")
    sequence = confusion_from_json(pending["sequence"])
    friend_id = _next_to_test(sequence, friend_id)
    friend = board_fighter(tracker, friend_id)
    dice = dice_from(faces, count=rules.CONFUSION_TEST_DICE, what="A Confusion Test (2I)")
    after = sequence.test(dice, friend=str(friend_id))
    result = after.awaiting if after.awaiting is not None else after.results[-1]
    roll = store_roll(
        game,
        by=by,
        dice=dice,
        faces=result.test.faces,
        purpose="confusion",
        label=f"Confusion Test (2I) of {friend.fighter.name} against Intelligence {friend.fighter.intelligence}: "
        f"{faces_text(result.test.faces)}",
        fighter=friend.fighter,
    )
    before = [fighter_image(friend), game_image(tracker)]
    if result.fled:
        # Forced: it could not Take Fatigue (RULING D-7); removed from play, not Incapacitated (RULING D-9).
        friend.status = TrackerFighter.Status.FLED
    sentence = rules.explain_confusion(result, name=friend.fighter.name)
    sentence += _tracker_confusion_done(tracker, after, pending)
    return commit(
        tracker,
        action="tracker.confusion",
        kind=TrackerAction.Kind.CONFUSION_TEST,
        by=by,
        summary=sentence,
        before=before,
        changed=[friend],
        touched=touched_by(tracker, before, friend_id),
        rolls=[roll.pk],
        fighter=friend_id,
    )


@transaction.atomic
def tracker_confusion_choose(*, game: Game, choice: str, by, version: int) -> TrackerAction:
    """The Confused model Flees (removed from play, not Incapacitated: RULING D-9) or Takes Fatigue."""
    refuse_confusion(game)
    tracker = lock(game, version, [TRACKER_GAME_STATE])
    pending = _tracker_confusion(tracker, "tests")
    sequence = confusion_from_json(pending["sequence"])
    if sequence.awaiting is None:
        raise TrackerError("No Confused model is waiting for Flee or Take Fatigue.")
    try:
        after = sequence.choose(choice)
    except ValueError as error:
        raise TrackerError(f"{error}.") from error
    result = after.results[-1]
    friend = board_fighter(tracker, int(result.friend.id))
    before = [fighter_image(friend), game_image(tracker)]
    if result.fled:
        friend.status = TrackerFighter.Status.FLED
    elif result.took_fatigue:
        friend.fatigue = result.fatigue_after
    sentence = rules.explain_confusion(result, name=friend.fighter.name)
    sentence += _tracker_confusion_done(tracker, after, pending)
    return commit(
        tracker,
        action="tracker.confusion",
        kind=TrackerAction.Kind.CONFUSION_CHOICE,
        by=by,
        summary=sentence,
        before=before,
        changed=[friend],
        touched=touched_by(tracker, before, friend.fighter_id),
        fighter=friend.fighter_id,
    )
