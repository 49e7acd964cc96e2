"""The board's own steps, shared by every tracker action: set it up, lock it, commit an action, undo the last.

A game's board lives in TrackerGame / TrackerFighter (combat/models/tracker.py), never in the roster, until
`tracker_end_game` (end.py). Every action:
  1. locks the game's TrackerGame row (`lock`, `select_for_update`), so two phones never interleave;
  2. checks the board's version the form was filled in on: if another action changed the same fighter (or the
     game's pending step) since, nothing is applied and the player is told who changed what;
  3. refuses anything but the pending step while one waits (Confusion Tests, RULING D-10; a tie, RULING A-2);
  4. stores its dice, applies the engine's answer, and logs itself with the before-image of every row it
     changed (`commit`), so `tracker_undo` restores exactly the previous state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.timesince import timesince

from campaigns.history_context import history_context
from campaigns.models import Game
from campaigns.people import display_name
from combat import rules
from combat.models import DiceRoll, TrackerAction, TrackerFighter, TrackerGame
from combat.models.tracker import FIGHTER_STATE_FIELDS
from combat.rules.words import possessive
from combat.selectors.tracker_poll import remember_board_version
from combat.services import roll_store
from combat.services.tracker import keys
from combat.services.tracker.errors import TrackerBlocked, TrackerConflict, TrackerError
from rosters.models import Fighter

# The id an action lists in `touched` when it changes the game's own state (its pending step, Harsh Lessons, the
# open shooting engagement).
TRACKER_GAME_STATE = 0
# A fighter's state an action may change (combat/models/tracker.py). An image from before the Trench Crusade markers
# were kept has none of them: Undo then leaves them as they are (that action never changed them).
TRACKER_FIGHTER_STATE = FIGHTER_STATE_FIELDS
# The game's own state an action may change, saved with it and put back by an undo.
TRACKER_GAME_FIELDS = ("pending", "harsh_lessons", "shooting")


def user_name(user) -> str:
    return display_name(user)


def time_ago(moment) -> str:
    seconds = (timezone.now() - moment).total_seconds()
    return "a moment ago" if seconds < 60 else f"{timesince(moment)} ago"


def plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def action_context(*, action: str, game: Game, by, reason: str, **extra: Any) -> AbstractContextManager:
    return history_context(
        by=by, action=action, reason=reason[:500], game=game.pk, campaign=game.campaign_id, **extra
    )


@transaction.atomic
def tracker_start(*, game: Game, by) -> TrackerGame:
    """The game's board, set up on first use with every fighter of the crews in the game (idempotent).

    A fighter who misses this game (`misses_next_game`) or is no longer active on the roster is left out.
    """
    existing = TrackerGame.objects.filter(game=game).first()
    if existing is not None:
        return existing
    if game.status != Game.Status.IN_PROGRESS:
        raise TrackerBlocked(
            f"{game} is {game.get_status_display().lower()}: the tracker follows games in progress only."
        )
    with action_context(action="tracker.start", game=game, by=by, reason=f"{game} is tracked live"):
        try:
            with transaction.atomic():
                tracker = TrackerGame.objects.create(game=game)
        except IntegrityError:  # another phone opened the board at the same moment
            return TrackerGame.objects.get(game=game)
        players = {player.warband_id: player for player in game.players.all()}
        fighters = Fighter.objects.filter(
            warband_id__in=players, status=Fighter.Status.ACTIVE, misses_next_game=False
        ).order_by("warband_id", "id")
        TrackerFighter.objects.bulk_create(
            TrackerFighter(
                tracker=tracker,
                player=players[fighter.warband_id],
                fighter=fighter,
                models_left=fighter.unit_size,
            )
            for fighter in fighters
        )
    return tracker


def lock(
    game: Game,
    version: int,
    touching: Iterable[int],
    *,
    strict: bool = False,
    by=None,
    sent: keys.Sent | None = None,
) -> TrackerGame:
    """The game's tracker row, locked; refuses a form filled in on a board that has changed under it since.

    `touching`: the fighter ids (or TRACKER_GAME_STATE) the action reads and changes; only changes to those refuse
    it, so two players acting on different fighters at once both succeed. `strict` (undo, end of game): any change.
    `sent` (a tap queued offline, by `by`): the taps sent before it from the same queue do not refuse it (keys.py).
    """
    tracker = (
        TrackerGame.objects.select_for_update(of=("self",))
        .select_related("game")
        .filter(game_id=game.pk)
        .first()
    )
    if tracker is None:
        raise TrackerError("This game has no board yet: open the tracker first.")
    if tracker.ended_at is not None or tracker.game.status != Game.Status.IN_PROGRESS:
        # Ended here, or recorded by hand from the game's page while the board was open.
        raise TrackerBlocked(
            "The game is over and its tracker is closed; the post-game starts from the game's page."
        )
    if type(version) is not int or not 0 <= version <= tracker.version:
        raise TrackerError("This form does not come from this game's board: reload the board and try again.")
    if version == tracker.version:
        return tracker
    changes = TrackerAction.objects.filter(tracker=tracker).filter(
        Q(version__gt=version) | Q(undone_version__gt=version)
    )
    changes = keys.own_queue(changes, game=game, by=by, sent=sent)
    touching = set(touching)
    if not strict:
        changes = changes.filter(touched__overlap=sorted(touching))
    changes = list(changes.select_related("by", "undone_by").order_by("-version")[:50])
    if changes:
        raise TrackerConflict(_conflict_message(changes, version, touching, strict))
    return tracker


def _conflict_message(changes: list[TrackerAction], since: int, touching: set[int], strict: bool) -> str:
    def moment(action: TrackerAction) -> int:
        return max(action.version, action.undone_version or 0)

    latest = max(changes, key=moment)
    undone = (latest.undone_version or 0) > since and latest.undone_version == moment(latest)
    who = user_name(latest.undone_by if undone else latest.by)
    when = time_ago(latest.undone_at if undone else latest.created_at)
    ids = set(latest.touched) if strict else set(latest.touched) & touching
    names = list(
        Fighter.objects.filter(pk__in=ids - {TRACKER_GAME_STATE})
        .order_by("name")
        .values_list("name", flat=True)
    )
    if names:
        what = " and ".join(names)
        verb = "were" if len(names) > 1 else "was"
    elif TRACKER_GAME_STATE in ids and not strict:
        what, verb = "The step waiting on the board", "was"
    else:
        what, verb = "The board", "was"
    return f"{what} {verb} changed by {who} {when}; here is the board as it is now."


def refuse_while_pending(tracker: TrackerGame) -> None:
    pending = tracker.pending
    if not pending:
        return
    if pending["kind"] == "tie":
        raise TrackerBlocked(
            "Equally close models are waiting for the defending player's order (RULING A-2): settle it first."
        )
    name = Fighter.objects.filter(pk=pending["incapacitated"]).values_list("name", flat=True).first()
    raise TrackerBlocked(
        f"The Confusion Tests for {possessive(name)} Incapacitation come first: each is settled before anything else "
        "happens (RULING D-10)."
    )


def board_fighter(
    tracker: TrackerGame, fighter_id: int, *, to: str | None = None, read: TrackerFighter | None = None
) -> TrackerFighter:
    """One fighter of the board; `to` says what it is about to do, which only a fighter in play may.

    `read`: the fighter's row read after the form was drawn (the view reads it to parse the form). Once `lock`
    has passed, no action changed this fighter since the form's version, and every action moves the version on
    (the taps of one offline queue come one after another, each answered before the next), so that row is the
    row as it is now and is not read again."""
    if read is not None and read.tracker_id == tracker.pk and read.fighter_id == fighter_id:
        tracked = read
        tracked.tracker = tracker
    else:
        tracked = (
            TrackerFighter.objects.filter(tracker=tracker, fighter_id=fighter_id)
            .select_related("fighter", "player__warband")
            .first()
        )
    if tracked is None:
        raise TrackerError("That fighter is not on this game's board.")
    if to and tracked.status != TrackerFighter.Status.ACTIVE:
        raise TrackerError(
            f"{tracked.fighter.name} is {tracked.get_status_display()} and out of play: it cannot {to}."
        )
    return tracked


def fighter_image(tracked: TrackerFighter) -> dict:
    return {
        "table": "fighter",
        "id": tracked.pk,
        "values": {name: getattr(tracked, name) for name in TRACKER_FIGHTER_STATE},
    }


def game_image(tracker: TrackerGame) -> dict:
    return {
        "table": "game",
        "values": {
            "pending": tracker.pending,
            "harsh_lessons": list(tracker.harsh_lessons),
            "shooting": tracker.shooting,
        },
    }


def touched_by(tracker: TrackerGame, before: list[dict], *fighter_ids: int) -> list[int]:
    """The fighters an action changed, and TRACKER_GAME_STATE when it changed the game's own state."""
    image = next((image for image in before if image["table"] == "game"), None)
    changed = image is not None and (
        tracker.pending != image["values"]["pending"]
        or list(tracker.harsh_lessons) != image["values"]["harsh_lessons"]
        or tracker.shooting != image["values"].get("shooting")
    )
    return [*fighter_ids, TRACKER_GAME_STATE] if changed else list(fighter_ids)


def commit(
    tracker: TrackerGame,
    *,
    action: str,
    kind: str,
    by,
    summary: str,
    before: list[dict],
    changed: Sequence[TrackerFighter],
    touched: Iterable[int],
    rolls: Sequence[int] = (),
    attacker: TrackerFighter | None = None,
    **context: Any,
) -> TrackerAction:
    """Save the rows an action changed, move the board's version on and log the action with its before-images,
    all under the history context `action` (the summary is its reason, the roll its dice; `context` adds the
    fighter, the damage...). `attacker`: the fighter of the other side who did it, when the players say."""
    if rolls:
        context.setdefault("roll", rolls[0] if len(rolls) == 1 else list(rolls))
    if attacker is not None:
        context["attacker"] = attacker.fighter_id
    with action_context(action=action, game=tracker.game, by=by, reason=summary, **context):
        for tracked in changed:
            tracked.save(update_fields=list(TRACKER_FIGHTER_STATE))
        tracker.version += 1
        tracker.save(update_fields=["version", *TRACKER_GAME_FIELDS])
        remember_board_version(game_id=tracker.game_id, version=tracker.version)
        return TrackerAction.objects.create(
            tracker=tracker,
            version=tracker.version,
            kind=kind,
            by=by,
            attacker_id=attacker.fighter_id if attacker is not None else None,
            summary=summary,
            touched=sorted(set(touched)),
            before=before,
            rolls=list(rolls),
        )


def store_roll(
    game: Game, *, by, dice, faces: Sequence[int], purpose: str, label: str, fighter=None
) -> DiceRoll:
    # docs/architecture.md, Randomness: every roll is stored before its result is shown (RULING T-7: server or
    # entered), by the roll store.
    return roll_store.store_faces(
        faces=faces,
        sides=10,
        source=DiceRoll.Source.ENTERED if isinstance(dice, rules.ScriptedDice) else DiceRoll.Source.SERVER,
        campaign_id=game.campaign_id,
        game_id=game.pk,
        warband_id=fighter.warband_id if fighter is not None else None,
        fighter_id=fighter.pk if fighter is not None else None,
        purpose=purpose,
        by=by,
        label=label,
    )


def _refused(what: str):
    """The engine's refusal of typed faces in the board's words (they must be exactly the dice the Test rolls)."""

    def refused(refusal: rules.FacesRefused) -> TrackerError:
        if refusal.face is None:
            return TrackerError(
                f"{what} rolls {plural(refusal.count, 'D10')}: enter {plural(refusal.count, 'face')} "
                f"(you entered {refusal.entered})."
            )
        return TrackerError(f"A D10 shows 1 to 10: {refusal.face} is not a face of a D10.")

    return refused


def dice_from(faces: Sequence[int] | None, *, count: int, what: str):
    """The server's dice, or the faces typed in from the table (they must be exactly the dice the Test rolls)."""
    return roll_store.dice_for(faces=faces, sides=10, count=count, refused=_refused(what))


def faces_text(faces: Sequence[int]) -> str:
    return ", ".join(str(face) for face in faces)


@transaction.atomic
def tracker_undo(*, game: Game, by, version: int) -> TrackerAction:
    """Undo the last action not yet undone (per game, in order): every row it changed goes back exactly as it was.

    `version` must be the board's current one: nobody undoes an action they have not seen.
    """
    tracker = lock(game, version, [], strict=True)
    last = tracker.actions.filter(undone_at__isnull=True).order_by("-version").first()
    if last is None:
        raise TrackerError("Nothing to undo: every action on this board is already undone.")
    with action_context(action="tracker.undo", game=game, by=by, reason=f"Undo: {last.summary}"):
        for image in last.before:
            if image["table"] == "fighter":
                TrackerFighter.objects.filter(tracker=tracker, pk=image["id"]).update(**image["values"])
            else:
                # An image from before shooting engagements were kept has none: there was none open.
                tracker.pending = image["values"]["pending"]
                tracker.harsh_lessons = image["values"]["harsh_lessons"]
                tracker.shooting = image["values"].get("shooting")
        tracker.version += 1
        tracker.save(update_fields=["version", *TRACKER_GAME_FIELDS])
        remember_board_version(game_id=tracker.game_id, version=tracker.version)
        last.undone_at = timezone.now()
        last.undone_by = by
        last.undone_version = tracker.version
        last.save(update_fields=["undone_at", "undone_by", "undone_version"])
        mark_rolls_undone(last)
    return last


def mark_rolls_undone(action: TrackerAction) -> None:
    """The dice log tells what counts: the rolls of an undone action stay, marked undone, with
    who took the action back, when and which action it was. A roll already struck for another reason keeps it."""
    DiceRoll.objects.filter(pk__in=action.rolls, status=DiceRoll.Status.COUNTED).update(
        status=DiceRoll.Status.UNDONE,
        status_by=action.undone_by,
        status_at=action.undone_at,
        status_reason=f"Undo of: {action.summary}"[:200],
    )


def attacker_on_board(
    tracker: TrackerGame, target: TrackerFighter, attacker_id: int | None
) -> TrackerFighter | None:
    """The fighter the players name as the one who did it (the "By" of Damage, an Out of Action mark, an Injury
    Roll): a fighter on this game's board on the other side from `target`, else refused beside the field. None
    when no one is named: who did it is optional."""
    if attacker_id is None:
        return None
    attacker = (
        TrackerFighter.objects.filter(tracker=tracker, fighter_id=attacker_id)
        .select_related("fighter", "player__warband")
        .first()
    )
    if attacker is None:
        raise TrackerError("The one named as “By” is not a fighter in this game.", field="attacker")
    if attacker.player_id == target.player_id:
        raise TrackerError(
            f"{attacker.fighter.name} is on {possessive(target.fighter.name)} own side: “By” names a fighter of "
            "the other side.",
            field="attacker",
        )
    return attacker


def by_words(attacker: TrackerFighter | None) -> str:
    """The end of an action's sentence that names who did it."""
    return f" By {attacker.fighter.name} ({attacker.player.warband.name})." if attacker is not None else ""
