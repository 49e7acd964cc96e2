"""The in-game damage tracker's writes (issue 7): the board's actions, each in one transaction.

Each function loads the board's rows, turns them into the engine's objects (`combat.rules`), and writes the result
with django-pghistory context. Functions are keyword-only and named `<entity>_<action>`; permission checks are the
views' job.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pghistory
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.timesince import timesince

from campaigns.history_context import history_context
from campaigns.models import Game, GamePlayer, OutOfAction
from combat import rules
from combat.models import (
    DiceRoll,
    TrackerAction,
    TrackerFighter,
    TrackerGame,
)
from combat.selectors import (
    AttackTest,
    attack_dice_pool,
    confusion_from_json,
    confusion_to_json,
    is_unit,
    tracker_combatant,
    tracker_health_pool,
)
from rosters.models import Fighter, Warband

#
# A game's board lives in TrackerGame / TrackerFighter (combat/models/tracker.py), never in the roster, until
# `tracker_end_game`. Every action:
#   1. locks the game's TrackerGame row (`select_for_update`), so two phones never interleave;
#   2. checks the board's version the form was filled in on: if another action changed the same fighter (or the
#      game's pending step) since, nothing is applied and the player is told who changed what;
#   3. refuses anything but the pending step while one waits (Confusion Tests, RULING D-10; a tie, RULING A-2);
#   4. stores its dice, applies the engine's answer, and logs itself with the before-image of every row it
#      changed, so `tracker_undo` restores exactly the previous state.
#
# Public: tracker_start, tracker_apply_damage, tracker_roll_attack, tracker_order_ties, tracker_mark_friends,
# tracker_confusion_test, tracker_confusion_choose, tracker_adjust_fatigue, tracker_recover_harm, tracker_undo,
# tracker_end_game; TrackerError (400) and its kinds TrackerConflict, TrackerBlocked (409). Private helpers of
# this section are named `_tracker_*`.

# The id an action lists in `touched` when it changes the game's own state (its pending step, Harsh Lessons).
TRACKER_GAME_STATE = 0
TRACKER_FIGHTER_STATE = ("harm", "injuries", "fatigue", "status", "models_left", "lost_hp")
TRACKER_MAX_DAMAGE = 200


class TrackerError(Exception):
    """An action refused, with the reason the page shows; nothing was changed."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TrackerConflict(TrackerError):
    """The board changed under the form since it was filled in (another phone acted first)."""

    status = 409


class TrackerBlocked(TrackerError):
    """The action must wait: a pending step comes first, or the game is over."""

    status = 409


def _tracker_who(user) -> str:
    if user is None:
        return "someone"
    return user.get_full_name() or user.get_username()


def _tracker_when(moment) -> str:
    seconds = (timezone.now() - moment).total_seconds()
    return "a moment ago" if seconds < 60 else f"{timesince(moment)} ago"


def _tracker_plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {plural or word + 's'}"


def _tracker_context(*, action: str, game: Game, by, reason: str, **extra: Any) -> pghistory.context:
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
    with _tracker_context(action="tracker.start", game=game, by=by, reason=f"{game} is tracked live"):
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


def _tracker_lock(game: Game, version: int, touching: Iterable[int], *, strict: bool = False) -> TrackerGame:
    """The game's tracker row, locked; refuses a form filled in on a board that has changed under it since.

    `touching`: the fighter ids (or TRACKER_GAME_STATE) the action reads and changes; only changes to those refuse
    it, so two players acting on different fighters at once both succeed. `strict` (undo, end of game): any change.
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
    touching = set(touching)
    if not strict:
        changes = changes.filter(touched__overlap=sorted(touching))
    changes = list(changes.select_related("by", "undone_by").order_by("-version")[:50])
    if changes:
        raise TrackerConflict(_tracker_conflict_message(changes, version, touching, strict))
    return tracker


def _tracker_conflict_message(
    changes: list[TrackerAction], since: int, touching: set[int], strict: bool
) -> str:
    def moment(action: TrackerAction) -> int:
        return max(action.version, action.undone_version or 0)

    latest = max(changes, key=moment)
    undone = (latest.undone_version or 0) > since and latest.undone_version == moment(latest)
    who = _tracker_who(latest.undone_by if undone else latest.by)
    when = _tracker_when(latest.undone_at if undone else latest.created_at)
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


def _tracker_refuse_while_pending(tracker: TrackerGame) -> None:
    pending = tracker.pending
    if not pending:
        return
    if pending["kind"] == "tie":
        raise TrackerBlocked(
            "Equally close models are waiting for the defending player's order (RULING A-2): settle it first."
        )
    name = Fighter.objects.filter(pk=pending["incapacitated"]).values_list("name", flat=True).first()
    raise TrackerBlocked(
        f"The Confusion Tests for {name}'s Incapacitation come first: each is settled before anything else "
        "happens (RULING D-10)."
    )


def _tracker_fighter(tracker: TrackerGame, fighter_id: int, *, to: str | None = None) -> TrackerFighter:
    """One fighter of the board; `to` says what it is about to do, which only a fighter in play may."""
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


def _tracker_image(tracked: TrackerFighter) -> dict:
    return {
        "table": "fighter",
        "id": tracked.pk,
        "values": {name: getattr(tracked, name) for name in TRACKER_FIGHTER_STATE},
    }


def _tracker_game_image(tracker: TrackerGame) -> dict:
    return {
        "table": "game",
        "values": {"pending": tracker.pending, "harsh_lessons": list(tracker.harsh_lessons)},
    }


def _tracker_touched(tracker: TrackerGame, before: list[dict], *fighter_ids: int) -> list[int]:
    """The fighters an action changed, and TRACKER_GAME_STATE when it changed the pending step or Harsh Lessons."""
    image = next((image for image in before if image["table"] == "game"), None)
    changed = image is not None and (
        tracker.pending != image["values"]["pending"]
        or list(tracker.harsh_lessons) != image["values"]["harsh_lessons"]
    )
    return [*fighter_ids, TRACKER_GAME_STATE] if changed else list(fighter_ids)


def _tracker_commit(
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
    **context: Any,
) -> TrackerAction:
    """Save the rows an action changed, move the board's version on and log the action with its before-images,
    all under the history context `action` (the summary is its reason, the roll its dice; `context` adds the
    fighter, the damage...)."""
    if rolls:
        context.setdefault("roll", rolls[0] if len(rolls) == 1 else list(rolls))
    with _tracker_context(action=action, game=tracker.game, by=by, reason=summary, **context):
        for tracked in changed:
            tracked.save(update_fields=list(TRACKER_FIGHTER_STATE))
        tracker.version += 1
        tracker.save(update_fields=["version", "pending", "harsh_lessons"])
        return TrackerAction.objects.create(
            tracker=tracker,
            version=tracker.version,
            kind=kind,
            by=by,
            summary=summary,
            touched=sorted(set(touched)),
            before=before,
            rolls=list(rolls),
        )


def _tracker_store_roll(
    game: Game, *, by, dice, faces: Sequence[int], purpose: str, label: str, fighter=None
) -> DiceRoll:
    # ARCHITECTURE.md, Randomness: every roll is stored before its result is shown (RULING T-7: server or entered).
    source = DiceRoll.Source.ENTERED if isinstance(dice, rules.ScriptedDice) else DiceRoll.Source.SERVER
    return DiceRoll.objects.create(
        campaign_id=game.campaign_id,
        game=game,
        warband_id=fighter.warband_id if fighter is not None else None,
        fighter=fighter,
        rolled_by=by,
        source=source,
        sides=10,
        faces=list(faces),
        purpose=purpose,
        label=label[:200],
    )


def _tracker_dice(faces: Sequence[int] | None, *, count: int, what: str):
    """The server's dice, or the faces typed in from the table (they must be exactly the dice the Test rolls)."""
    if faces is None:
        return rules.RandomDice()
    faces = list(faces)
    if len(faces) != count:
        raise TrackerError(
            f"{what} rolls {_tracker_plural(count, 'D10')}: enter {_tracker_plural(count, 'face')} "
            f"(you entered {len(faces)})."
        )
    for face in faces:
        if type(face) is not int or not 1 <= face <= 10:
            raise TrackerError(f"A D10 shows 1 to 10: {face} is not a face of a D10.")
    return rules.ScriptedDice(faces)


def _tracker_faces(faces: Sequence[int]) -> str:
    return ", ".join(str(face) for face in faces)


# --- Damage ---------------------------------------------------------------------------------------------------


def _tracker_damage(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    *,
    distances: Sequence[float | None] | None,
    target_limit: int | None,
    tie_order: Sequence[str] = (),
    lead: str = "",
) -> tuple[str, list[TrackerFighter]]:
    """Apply `amount` Damage to `target` in memory (rows are saved by `_tracker_commit`): the sentence, the rows."""
    if is_unit(target.fighter):
        sentence = _tracker_damage_unit(
            tracker, target, amount, distances=distances, target_limit=target_limit, tie_order=tie_order
        )
        return lead + sentence, [target]
    if distances:
        raise TrackerError(f"{target.fighter.name} is one model: distances are for units of several models.")
    try:
        outcome = rules.inflict_damage(tracker_combatant(target), amount)
    except ValueError as error:
        raise TrackerError(f"The rules refuse this: {error}.") from error
    target.harm = outcome.after.harm
    target.injuries = outcome.after.injuries
    sentence = lead + rules.explain_damage(outcome)
    if outcome.incapacitated:
        sentence += _tracker_incapacitated(tracker, target, outcome.after)
    return sentence, [target]


def _tracker_incapacitated(tracker: TrackerGame, target: TrackerFighter, after: rules.Combatant) -> str:
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


def _tracker_damage_unit(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    *,
    distances: Sequence[float | None] | None,
    target_limit: int | None,
    tie_order: Sequence[str],
) -> str:
    name = target.fighter.name
    try:
        pool = tracker_health_pool(target)
    except ValueError as error:
        raise TrackerError(f"{name}'s Health Pool cannot be read: {error}.") from error
    if distances:
        sentence = _tracker_allocate(tracker, target, amount, distances, target_limit, tie_order)
        if tracker.pending:
            return sentence
    else:
        # Seed 004, RULINGS H-1 and H-2: whole models removed, the rest carried, the excess ignored.
        loss = rules.lose_health_points(pool, amount)
        target.models_left = loss.after.models
        target.lost_hp = loss.after.lost
        sentence = f"{amount} Damage to {name}'s Health Pool: {rules.explain_pool_loss(loss)}"
    if target.models_left == 0:
        target.status = TrackerFighter.Status.INCAPACITATED
        target.lost_hp = 0  # a Health Pool with no model carries nothing (seed 004)
        sentence += f" {name} has no model left: wiped out, and taken Out of Action at the end of the game."
    else:
        sentence += f" {_tracker_plural(target.models_left, 'model')} left."
    return sentence


def _tracker_model_id(number: int | str, distance: float | None) -> str:
    # The model's id is how the engine's sentence names it: 'model 2 (3")'.
    return f'model {number} ({distance:g}")' if distance is not None else f"model {number}"


def _tracker_allocate(
    tracker: TrackerGame,
    target: TrackerFighter,
    amount: int,
    distances: Sequence[float | None],
    target_limit: int | None,
    tie_order: Sequence[str],
) -> str:
    """Damage Allocation by the distances the players measured (seed 001, RULINGS A-1 to A-4).

    Each model left is numbered 1.. in the order the distances were entered; a model with no distance cannot be
    affected by the attack. The distances are from the closest contributing attacker (RULING A-1), so the
    attackers stand at one point and each model at its distance from it.
    """
    fighter = target.fighter
    name = fighter.name
    if len(distances) != target.models_left:
        raise TrackerError(
            f"{name} has {_tracker_plural(target.models_left, 'model')} in play: give one distance per model "
            "(leave a model blank if the attack cannot reach it)."
        )
    ids = {str(number): _tracker_model_id(number, distance) for number, distance in enumerate(distances, 1)}
    try:
        models = [
            rules.UnitModel(ids[str(number)], fighter.health, float(distance or 0), 0.0, distance is not None)
            for number, distance in enumerate(distances, 1)
        ]
        allocation = rules.allocate_damage(
            models=models,
            attackers=[(0.0, 0.0)],
            damage=amount,
            target_limit=target_limit,
            sustained=target.lost_hp,
            tie_order=[ids[number] for number in tie_order],
        )
    except (ValueError, KeyError) as error:
        raise TrackerError(f"The Damage Allocation cannot be made: {error}.") from error
    number_of = {model_id: number for number, model_id in ids.items()}
    if allocation.ties:
        # RULING A-2: equally close models are ordered by the defending player; ask before anything is applied.
        tracker.pending = {
            "kind": "tie",
            "target": target.fighter_id,
            "damage": amount,
            "distances": list(distances),
            "target_limit": target_limit,
            "ties": [
                [{"model": number_of[model], "distance": allocation.distances[model]} for model in group]
                for group in allocation.ties
            ],
        }
        groups = "; ".join(" and ".join(group) for group in allocation.ties)
        return (
            f"{amount} Damage to the closest models of {name}: {groups} are equally close, so the defending player "
            "chooses which takes damage first (RULING A-2)."
        )
    target.models_left -= len(allocation.removed)
    target.lost_hp = allocation.sustained
    return f"{amount} Damage to {name}. {rules.explain_allocation(allocation)}"


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
) -> TrackerAction:
    """Damage counted at the table (the Hits of an Attack Test, or any other danger) applied to one fighter.

    A single model goes through the Damage table (seed 000); a unit through its Health Pool (seed 004) or, when the
    players give each model's distance, through Damage Allocation (seed 001).
    """
    _tracker_check_damage(damage)
    tracker = _tracker_lock(game, version, [target_id])
    _tracker_refuse_while_pending(tracker)
    target = _tracker_fighter(tracker, target_id, to="take Damage")
    before = [_tracker_image(target), _tracker_game_image(tracker)]
    sentence, changed = _tracker_damage(
        tracker, target, damage, distances=distances, target_limit=target_limit
    )
    # `damage`: the amount, for the history's battle report (rosters.history.tracker).
    return _tracker_commit(
        tracker,
        action="tracker.damage",
        kind=TrackerAction.Kind.DAMAGE,
        by=by,
        summary=sentence,
        before=before,
        changed=changed,
        touched=_tracker_touched(tracker, before, target.fighter_id),
        fighter=target.fighter_id,
        damage=damage,
    )


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
) -> TrackerAction:
    """An Attack Test rolled by the server (`faces=None`) or typed in from the table, then Damage equal to the
    Hits (002 "3. Inflict Damage") applied as `tracker_apply_damage` does. The roll is stored first."""
    tracker = _tracker_lock(game, version, [target_id])
    _tracker_refuse_while_pending(tracker)
    target = _tracker_fighter(tracker, target_id, to="be attacked")
    attacker = attack.attacker
    if attacker is not None and attacker.tracker_id != tracker.pk:
        raise TrackerError("The attacker is not on this game's board.")
    if attack.makeshift and attacker is None:
        raise TrackerError("A Makeshift Weapon is a Test 2S: choose the attacker, whose Strength it uses.")
    try:
        pool = attack_dice_pool(target, attack)
    except ValueError as error:
        raise TrackerError(f"This Attack Test cannot be rolled: {error}.") from error
    dice = _tracker_dice(faces, count=pool.pool, what="This Attack Test")
    test = rules.roll_test(dice, dice_count=pool.pool, stat=pool.stat)
    who = f"{attacker.fighter.name}'s attack" if attacker is not None else "The attack"
    hits = _tracker_plural(test.hits, "Hit")
    faces_words = _tracker_faces(test.faces)
    roll = _tracker_store_roll(
        game,
        by=by,
        dice=dice,
        faces=test.faces,
        purpose="attack",
        label=f"Attack Test on {target.fighter.name}: {pool.pool}D10 against {pool.stat} — {faces_words}, {hits}",
        fighter=attacker.fighter if attacker is not None else None,
    )
    source = "rolled by the server" if roll.source == DiceRoll.Source.SERVER else "rolled at the table"
    lead = f"{who} on {target.fighter.name}: {pool.words}; {source}: {faces_words} — {hits}, so Damage {test.hits}. "
    before = [_tracker_image(target), _tracker_game_image(tracker)]
    sentence, changed = _tracker_damage(
        tracker, target, test.hits, distances=distances, target_limit=target_limit, lead=lead
    )
    return _tracker_commit(
        tracker,
        action="tracker.attack",
        kind=TrackerAction.Kind.ATTACK,
        by=by,
        summary=sentence,
        before=before,
        changed=changed,
        touched=_tracker_touched(tracker, before, target.fighter_id),
        rolls=[roll.pk],
        fighter=target.fighter_id,
        damage=test.hits,
        attacker=attacker.fighter_id if attacker is not None else None,
    )


@transaction.atomic
def tracker_order_ties(*, game: Game, tie_order: Sequence[str], by, version: int) -> TrackerAction:
    """The defending player's order for equally close models (RULING A-2); the waiting Damage is then allocated.

    `tie_order`: model numbers (as the distances were entered), first to take damage first.
    """
    tracker = _tracker_lock(game, version, [TRACKER_GAME_STATE])
    pending = tracker.pending
    if not pending or pending["kind"] != "tie":
        raise TrackerError("No equally close models are waiting to be ordered.")
    target = _tracker_fighter(tracker, pending["target"], to="take Damage")
    tie_order = [str(model).strip() for model in tie_order if str(model).strip()]
    tied = [str(entry["model"]) for group in pending["ties"] for entry in group]
    unknown = [model for model in tie_order if model not in tied]
    if unknown:
        raise TrackerError(f"Model {unknown[0]} is not one of the equally close models ({', '.join(tied)}).")
    if len(set(tie_order)) != len(tie_order):
        raise TrackerError("Name each equally close model once.")
    before = [_tracker_image(target), _tracker_game_image(tracker)]
    tracker.pending = None
    sentence, changed = _tracker_damage(
        tracker,
        target,
        pending["damage"],
        distances=pending["distances"],
        target_limit=pending["target_limit"],
        tie_order=tie_order,
    )
    if tracker.pending:
        raise TrackerError("Give the order of every equally close model: some are still tied.")
    sentence = f"The defending player puts model {', then model '.join(tie_order)} first. {sentence}"
    return _tracker_commit(
        tracker,
        action="tracker.tie",
        kind=TrackerAction.Kind.TIE,
        by=by,
        summary=sentence,
        before=before,
        changed=changed,
        touched=_tracker_touched(tracker, before, target.fighter_id),
        fighter=target.fighter_id,
        damage=pending["damage"],
    )


# --- Confusion (000 "Confusion" and "Errata", RULINGS D-6, D-7, D-9, D-10) -------------------------------------


def _tracker_confusion(tracker: TrackerGame, stage: str) -> dict:
    pending = tracker.pending
    if not pending or pending["kind"] != "confusion":
        raise TrackerError("No Confusion Test is waiting on this board.")
    if pending["stage"] != stage:
        if pending["stage"] == "friends":
            raise TrackerError('Tick the friends that were within 3" first.')
        raise TrackerError('The friends within 3" are already chosen.')
    return pending


@transaction.atomic
def tracker_mark_friends(*, game: Game, friend_ids: Sequence[int], by, version: int) -> TrackerAction:
    """The Friendly models that were within 3" of the Incapacitated model: each makes a Confusion Test (2I), in
    the order given unless the player picks another (000 "Confusion"). None ticked: no Test, it is removed."""
    tracker = _tracker_lock(game, version, [TRACKER_GAME_STATE])
    pending = _tracker_confusion(tracker, "friends")
    incapacitated = _tracker_fighter(tracker, pending["incapacitated"])
    name = incapacitated.fighter.name
    friend_ids = list(dict.fromkeys(friend_ids))
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
    before = [_tracker_game_image(tracker)]
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
    return _tracker_commit(
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


@transaction.atomic
def tracker_confusion_test(
    *, game: Game, by, version: int, friend_id: int | None = None, faces: Sequence[int] | None = None
) -> TrackerAction:
    """One Confusion Test (2I), rolled by the server or typed in; the player may pick who tests next (RULING D-10).

    Passed with one Hit (RULING D-6). Failed: the model is Confused and must choose Flee or Take Fatigue — or
    Flees at once when it cannot Take Fatigue (RULING D-7).
    """
    tracker = _tracker_lock(game, version, [TRACKER_GAME_STATE])
    pending = _tracker_confusion(tracker, "tests")
    sequence = confusion_from_json(pending["sequence"])
    if sequence.awaiting is not None:
        raise TrackerBlocked(
            "A Confused model is waiting: choose Flee or Take Fatigue before the next Test (RULING D-10)."
        )
    remaining = {int(friend.id) for friend in sequence.remaining}
    if friend_id is None:
        friend_id = int(sequence.remaining[0].id)
    if friend_id not in remaining:
        raise TrackerError("That fighter has no Confusion Test left to make for this Incapacitation.")
    friend = _tracker_fighter(tracker, friend_id)
    dice = _tracker_dice(faces, count=2, what="A Confusion Test (2I)")
    after = sequence.test(dice, friend=str(friend_id))
    result = after.awaiting if after.awaiting is not None else after.results[-1]
    roll = _tracker_store_roll(
        game,
        by=by,
        dice=dice,
        faces=result.test.faces,
        purpose="confusion",
        label=f"Confusion Test (2I) of {friend.fighter.name} against Intelligence {friend.fighter.intelligence}: "
        f"{_tracker_faces(result.test.faces)}",
        fighter=friend.fighter,
    )
    before = [_tracker_image(friend), _tracker_game_image(tracker)]
    if (
        result.fled
    ):  # forced: it could not Take Fatigue (RULING D-7); removed from play, not Incapacitated (D-9)
        friend.status = TrackerFighter.Status.FLED
    sentence = rules.explain_confusion(result, name=friend.fighter.name)
    sentence += _tracker_confusion_done(tracker, after, pending)
    return _tracker_commit(
        tracker,
        action="tracker.confusion",
        kind=TrackerAction.Kind.CONFUSION_TEST,
        by=by,
        summary=sentence,
        before=before,
        changed=[friend],
        touched=_tracker_touched(tracker, before, friend_id),
        rolls=[roll.pk],
        fighter=friend_id,
    )


@transaction.atomic
def tracker_confusion_choose(*, game: Game, choice: str, by, version: int) -> TrackerAction:
    """The Confused model Flees (removed from play, not Incapacitated: RULING D-9) or Takes Fatigue."""
    tracker = _tracker_lock(game, version, [TRACKER_GAME_STATE])
    pending = _tracker_confusion(tracker, "tests")
    sequence = confusion_from_json(pending["sequence"])
    if sequence.awaiting is None:
        raise TrackerError("No Confused model is waiting for Flee or Take Fatigue.")
    try:
        after = sequence.choose(choice)
    except ValueError as error:
        raise TrackerError(f"{error}.") from error
    result = after.results[-1]
    friend = _tracker_fighter(tracker, int(result.friend.id))
    before = [_tracker_image(friend), _tracker_game_image(tracker)]
    if result.fled:
        friend.status = TrackerFighter.Status.FLED
    elif result.took_fatigue:
        friend.fatigue = result.fatigue_after
    sentence = rules.explain_confusion(result, name=friend.fighter.name)
    sentence += _tracker_confusion_done(tracker, after, pending)
    return _tracker_commit(
        tracker,
        action="tracker.confusion",
        kind=TrackerAction.Kind.CONFUSION_CHOICE,
        by=by,
        summary=sentence,
        before=before,
        changed=[friend],
        touched=_tracker_touched(tracker, before, friend.fighter_id),
        fighter=friend.fighter_id,
    )


# --- Fatigue and Harm between attacks -------------------------------------------------------------------------


@transaction.atomic
def tracker_adjust_fatigue(*, game: Game, target_id: int, change: int, by, version: int) -> TrackerAction:
    """+1 Fatigue (a model takes 1 Fatigue for each Action; none at 2, RULING D-7) or -1 (Fatigue removed)."""
    if change not in (1, -1):
        raise TrackerError("Fatigue changes by one at a time: +1 or -1.")
    tracker = _tracker_lock(game, version, [target_id])
    _tracker_refuse_while_pending(tracker)
    target = _tracker_fighter(tracker, target_id, to="change Fatigue")
    name = target.fighter.name
    before = [_tracker_image(target)]
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
    return _tracker_commit(
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


@transaction.atomic
def tracker_recover_harm(*, game: Game, target_id: int, by, version: int) -> TrackerAction:
    """The model Recovers 1 Harm (000 "Harm": "Some rules allow models to Recover Harm")."""
    tracker = _tracker_lock(game, version, [target_id])
    _tracker_refuse_while_pending(tracker)
    target = _tracker_fighter(tracker, target_id, to="Recover Harm")
    name = target.fighter.name
    if is_unit(target.fighter) or target.harm == 0:
        raise TrackerError(f"{name} has no Harm to Recover.")
    before = [_tracker_image(target)]
    target.harm = rules.recover_harm(tracker_combatant(target), 1).harm
    sentence = f"{name} Recovers 1 Harm ({target.harm} now)."
    return _tracker_commit(
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


# --- Undo and the end of the game -----------------------------------------------------------------------------


@transaction.atomic
def tracker_undo(*, game: Game, by, version: int) -> TrackerAction:
    """Undo the last action not yet undone (per game, in order): every row it changed goes back exactly as it was.

    `version` must be the board's current one: nobody undoes an action they have not seen.
    """
    tracker = _tracker_lock(game, version, [], strict=True)
    last = tracker.actions.filter(undone_at__isnull=True).order_by("-version").first()
    if last is None:
        raise TrackerError("Nothing to undo: every action on this board is already undone.")
    with _tracker_context(action="tracker.undo", game=game, by=by, reason=f"Undo: {last.summary}"):
        for image in last.before:
            if image["table"] == "fighter":
                TrackerFighter.objects.filter(tracker=tracker, pk=image["id"]).update(**image["values"])
            else:
                tracker.pending = image["values"]["pending"]
                tracker.harsh_lessons = image["values"]["harsh_lessons"]
        tracker.version += 1
        tracker.save(update_fields=["version", "pending", "harsh_lessons"])
        last.undone_at = timezone.now()
        last.undone_by = by
        last.undone_version = tracker.version
        last.save(update_fields=["undone_at", "undone_by", "undone_version"])
    return last


@transaction.atomic
def tracker_end_game(
    *, game: Game, results: Mapping[int, str], by, version: int, reason: str = ""
) -> TrackerGame:
    """End of game: the Incapacitated fighters are taken Out of Action (the Fled are not, RULING D-9), each crew's
    Harsh Lessons XP goes to its crew XP (RULING D-11), the results are recorded, and the game waits for each
    warband's post-game. One transaction; refused while a step is pending or when the board changed unseen.

    `results`: GamePlayer id -> "win", "loss" or "draw", one for every warband in the game.
    """
    tracker = _tracker_lock(game, version, [], strict=True)
    _tracker_refuse_while_pending(tracker)
    players = list(GamePlayer.objects.filter(game=game).select_related("warband").order_by("id"))
    valid = set(GamePlayer.Result.values)
    for player in players:
        if results.get(player.pk) not in valid:
            raise TrackerError(f"Enter {player.warband.name}'s result: win, loss or draw.")
    if set(results) - {player.pk for player in players}:
        raise TrackerError("A result was given for a warband that is not in this game.")
    taken = list(
        TrackerFighter.objects.filter(
            tracker=tracker, status=TrackerFighter.Status.INCAPACITATED
        ).select_related("fighter")
    )
    names = ", ".join(row.fighter.name for row in taken) or "nobody"
    reason = reason.strip() or f"{game} ended in the tracker; Out of Action: {names}"
    with _tracker_context(action="tracker.end_game", game=game, by=by, reason=reason):
        if not Game.objects.filter(pk=game.pk, status=Game.Status.IN_PROGRESS).update(
            status=Game.Status.RECORDED
        ):
            raise TrackerBlocked(f"{game} is no longer in progress: it was recorded already.")
        # RULING D-9: only the Incapacitated are Out of Action; a model that Fled is not.
        OutOfAction.objects.bulk_create(
            [OutOfAction(player_id=row.player_id, fighter_id=row.fighter_id) for row in taken],
            ignore_conflicts=True,
        )
        if tracker.harsh_lessons:
            # RULING D-11: 1 XP per crew that earned Harsh Lessons, once per game.
            Warband.objects.filter(pk__in=tracker.harsh_lessons).update(crew_xp=F("crew_xp") + 1)
        for player in players:
            GamePlayer.objects.filter(pk=player.pk).update(
                result=results[player.pk], post_game=GamePlayer.PostGame.PENDING
            )
        tracker.version += 1
        tracker.ended_at = timezone.now()
        tracker.save(update_fields=["version", "ended_at"])
    game.status = Game.Status.RECORDED
    return tracker
