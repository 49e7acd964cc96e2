"""The post-game wizard's writes (issue 5): the Trauma Step, Experience, Apply and Revert.

Each function loads rows, turns them into the engine's objects (`combat.rules`), and writes the result in one
transaction with django-pghistory context (`action`, `reason`, `game`, `warband`, `step`, `roll`, `user`).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pghistory
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from campaigns.history_context import history_context
from campaigns.models import Game, GamePlayer, OutOfAction
from combat import rules
from combat.models import (
    DiceRoll,
    PostGame,
    PostGameFighter,
    PostGameRoll,
)
from combat.models.postgame import MAX_GLORIOUS_DEEDS, MAX_XP_ADJUSTMENT
from combat.selectors import (
    PostGameState,
    StrongboxChange,
    post_game_state,
)
from rosters.models import Fighter, Injury, Item, Warband
from rosters.services import game_post_game_mark

# ==== Post-game Trauma Step (issue 5) =========================================================================
#
# The wizard at `/games/<id>/post-game/<warband_id>/` writes through these functions only:
#
# - `post_game_set_out_of_action`  step 1, correct the fighters taken Out of Action
# - `post_game_roll`               steps 2-4, a roll made by the server's dice or typed in (RULING T-7)
# - `post_game_answer_ransom`      step 3, a Captured fighter's ransom, paid or not (TRAUMA_TABLE.md 12)
# - `post_game_record_experience`  step 4, who took part, Glorious Deeds, the organiser's adjustment
# - `post_game_apply`              step 5, every change to the roster in one transaction
# - `post_game_revert`             undo the Apply from its before-images, until the warband's next game
#
# Every one locks the game, then the warband's entry in it (the order `rosters.services` locks them in), so two
# tabs, a double click or two players at once are served one after the other: a roll already made is given back
# instead of rolled again, and a second Apply is refused. The unique constraints of combat/models/postgame.py
# hold the same line in the database.

# The fighter fields the Apply may change (and the Revert puts back).
APPLY_FIELDS = ("status", "battle_scars", "can_gain_xp", "misses_next_game", "xp")
# Counters that other writes may have moved since the Apply: the Revert takes back the Apply's own change.
COUNTERS = {"fighter": ("xp",), "warband": ("strongbox",)}


class PostGameError(ValueError):
    """A post-game write refused, with a message a player can read; nothing was written."""


@dataclass(frozen=True)
class RollMade:
    """A stored roll, and whether this call made it (False: it was made already and is shown again)."""

    roll: PostGameRoll
    created: bool


def _context(
    *, action: str, player: GamePlayer, by, step: str, reason: str, **extra: Any
) -> pghistory.context:
    return history_context(
        by=by,
        action=action,
        reason=reason,
        game=player.game_id,
        warband=player.warband_id,
        campaign=player.game.campaign_id,
        step=step,
        **extra,
    )


def _lock(player: GamePlayer) -> GamePlayer:
    """The game, then the warband's entry in it, locked for the rest of the transaction."""
    game = Game.objects.select_for_update().filter(pk=player.game_id).first()
    if game is None:
        raise PostGameError("That game no longer exists.")
    return (
        GamePlayer.objects.select_for_update(of=("self",))
        .select_related("game__campaign", "warband__owner")
        .get(pk=player.pk)
    )


def _refuse_while_played(player: GamePlayer) -> None:
    game = player.game
    if game.status == Game.Status.IN_PROGRESS:
        raise PostGameError(
            f"Game {game.number} is still being played: its post-game opens when it is recorded."
        )


def _live(player: GamePlayer) -> PostGame | None:
    return PostGame.objects.filter(player=player).exclude(status=PostGame.Status.REVERTED).first()


def _mark(player: GamePlayer, state: str, *, by, action: str, step: str, reason: str, **extra: Any) -> None:
    """The warband's post-game status on the game page, and the game's own status with it."""
    try:
        game_post_game_mark(
            player=player, state=state, by=by, reason=reason, action=action, step=step, **extra
        )
    except ValidationError as error:
        raise PostGameError(" ".join(error.messages)) from error


def _open_attempt(player: GamePlayer, *, by, action: str, step: str, reason: str, live=...) -> PostGame:
    """The attempt being filled in, started on the first write (the game page then shows "In progress").
    `live` is the live attempt when the caller has read it already."""
    _refuse_while_played(player)
    live = _live(player) if live is ... else live
    if live is not None and live.is_applied:
        raise PostGameError(
            f"{player.warband.name}'s post-game of Game {player.game.number} is already applied: "
            "revert it first to change it."
        )
    if live is not None:
        return live
    attempt = (PostGame.objects.filter(player=player).aggregate(top=Max("attempt"))["top"] or 0) + 1
    live = PostGame.objects.create(player=player, attempt=attempt, started_by=by)
    _mark(player, GamePlayer.PostGame.IN_PROGRESS, by=by, action=action, step=step, reason=reason)
    return live


def _fighter_name(player: GamePlayer, fighter_id: int) -> str:
    name = (
        Fighter.objects.filter(pk=fighter_id, warband_id=player.warband_id)
        .values_list("name", flat=True)
        .first()
    )
    return name or "That fighter"


@transaction.atomic
def post_game_set_out_of_action(*, player: GamePlayer, fighter_ids: Iterable[int], by) -> PostGame:
    """Step 1: the fighters taken Out of Action become exactly `fighter_ids` (the game record corrected).

    A fighter can come off the list only before any roll is made for it in this attempt.
    """
    player = _lock(player)
    reason = f"{player.warband.name}'s Out of Action list for Game {player.game.number} confirmed"
    with _context(
        action="post_game.out_of_action", player=player, by=by, step="out-of-action", reason=reason
    ):
        live = _open_attempt(
            player, by=by, action="post_game.out_of_action", step="out-of-action", reason=reason
        )
        wanted = {int(fighter_id) for fighter_id in fighter_ids}
        marks = {mark.fighter_id: mark for mark in OutOfAction.objects.filter(player=player)}
        fighters = {
            fighter.pk: fighter
            for fighter in Fighter.objects.filter(pk__in=wanted | set(marks), warband_id=player.warband_id)
        }
        for fighter_id in wanted - set(marks):
            fighter = fighters.get(fighter_id)
            if fighter is None:
                raise PostGameError(f"Fighter {fighter_id} is not in {player.warband.name}.")
            if not fighter.is_active:
                raise PostGameError(
                    f"{fighter.name} is not on the active roster ({fighter.get_status_display()})."
                )
        rolled = set(
            PostGameRoll.objects.filter(post_game=live, fighter_id__in=set(marks) - wanted).values_list(
                "fighter_id", flat=True
            )
        )
        if rolled:
            names = ", ".join(sorted(fighters[fighter_id].name for fighter_id in rolled))
            raise PostGameError(
                f"Dice are already rolled for {names}: it stays Out of Action in this post-game."
            )
        OutOfAction.objects.filter(player=player, fighter_id__in=set(marks) - wanted).delete()
        OutOfAction.objects.bulk_create(
            [OutOfAction(player=player, fighter_id=fighter_id) for fighter_id in sorted(wanted - set(marks))]
        )
    return live


def _faces(needed, faces: Sequence[int] | None) -> tuple[list[int], str]:
    """The faces of the roll: the server's dice, or the physical dice typed in, checked against the die."""
    if faces is None:
        dice = rules.RandomDice()
        return [dice.roll(needed.sides) for _ in range(needed.dice)], DiceRoll.Source.SERVER
    faces = list(faces)
    if len(faces) != needed.dice:
        what = "a D66 is two D6: enter the tens die and the units die" if needed.is_d66 else "enter one die"
        raise PostGameError(f"{len(faces)} dice entered: {what}.")
    try:
        dice = rules.ScriptedDice(faces)
        return [dice.roll(needed.sides) for _ in faces], DiceRoll.Source.ENTERED
    except ValueError as error:
        raise PostGameError(f"That roll cannot be right: {error}.") from error


def _roll_label(name: str, needed, faces: list[int]) -> str:
    if needed.purpose == PostGameRoll.Purpose.SURVIVAL:
        return f"{name}: Survival Roll D6 {faces[0]}"
    if needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS:
        return f"{name}: Bitter Lessons D3 {faces[0]}"
    again = "" if needed.sequence == 1 else f" (roll {needed.sequence}, RULING T-5)"
    return f"{name}: Trauma D66 {faces[0]}{faces[1]}{again}"


@transaction.atomic
def post_game_roll(
    *,
    player: GamePlayer,
    fighter_id: int,
    purpose: str,
    sequence: int,
    by,
    faces: Sequence[int] | None = None,
) -> RollMade:
    """Make (or type in) the roll `purpose` number `sequence` for a fighter taken Out of Action, and store it in the
    dice log before anything is shown (ARCHITECTURE.md, Randomness).

    `faces` None rolls the server's dice; otherwise they are the physical dice typed in (a D66 is two faces, tens
    first). A roll already made is returned as it is (`created=False`), never rolled again; a roll that is not the
    one the fighter needs now is refused.
    """
    if purpose not in PostGameRoll.Purpose.values:
        raise PostGameError(f"{purpose!r} is not a post-game roll.")
    player = _lock(player)
    live = _live(player)
    if live is not None and not live.is_applied:
        existing = (
            PostGameRoll.objects.filter(
                post_game=live, fighter_id=fighter_id, purpose=purpose, sequence=sequence
            )
            .select_related("dice_roll")
            .first()
        )
        if existing is not None:
            return RollMade(existing, created=False)
    state = post_game_state(player=player)
    casualty = next((casualty for casualty in state.casualties if casualty.id == fighter_id), None)
    name = casualty.name if casualty is not None else _fighter_name(player, fighter_id)
    reason = f"Post-game of Game {player.game.number}: a roll for {name}"
    with _context(
        action="post_game.roll", player=player, by=by, step=purpose, reason=reason, fighter=fighter_id
    ):
        live = _open_attempt(player, by=by, action="post_game.roll", step=purpose, reason=reason, live=live)
        if state.problem:
            raise PostGameError(state.problem)
        if casualty is None:
            raise PostGameError(f"{name} was not taken Out of Action in this game.")
        if casualty.problem:
            raise PostGameError(casualty.problem)
        needed = casualty.needed
        if needed is None:
            raise PostGameError(f"No roll is needed for {name} now: its result is settled.")
        if (needed.purpose, needed.sequence) != (purpose, sequence):
            raise PostGameError(
                f"{name} needs its {needed.words.split(':')[0]} now: the page was out of date."
            )
        if casualty.blocked_by_troops:
            raise PostGameError(
                "Every Troop rolls before any ELITE fighter (RULING T-1): roll for the Troops first."
            )
        faces, source = _faces(needed, faces)
        dice_roll = DiceRoll.objects.create(
            campaign_id=player.game.campaign_id,
            game_id=player.game_id,
            warband_id=player.warband_id,
            fighter_id=fighter_id,
            rolled_by=by,
            source=source,
            sides=needed.sides,
            faces=faces,
            purpose=purpose,
            label=_roll_label(name, needed, faces),
        )
        roll = PostGameRoll.objects.create(
            post_game=live, fighter_id=fighter_id, purpose=purpose, sequence=sequence, dice_roll=dice_roll
        )
    return RollMade(roll, created=True)


@transaction.atomic
def post_game_answer_ransom(
    *,
    player: GamePlayer,
    fighter_id: int,
    paid: bool,
    by,
    ransom: int = 0,
    captor_id: int | None = None,
) -> PostGameFighter:
    """Step 3, Captured (TRAUMA_TABLE.md 12): the players agree a ransom or not. Paid, the ducats will move from
    this warband's Strongbox to the captor's and the result counts as Full Recovery (RULING T-8); unpaid, the
    fighter is executed (RULING T-6). Written to the roster only by the Apply; the answer can change until then."""
    player = _lock(player)
    name = _fighter_name(player, fighter_id)
    reason = f"Post-game of Game {player.game.number}: {name}'s ransom {'paid' if paid else 'refused'}"
    with _context(
        action="post_game.ransom", player=player, by=by, step="elites", reason=reason, fighter=fighter_id
    ):
        live = _open_attempt(player, by=by, action="post_game.ransom", step="elites", reason=reason)
        state = post_game_state(player=player)
        casualty = next((casualty for casualty in state.casualties if casualty.id == fighter_id), None)
        if casualty is None or casualty.outcome is None or casualty.outcome.entry is None:
            raise PostGameError(f"{name} has no Trauma result yet.")
        if casualty.outcome.entry.code != "captured":
            raise PostGameError(f"{name} was not Captured: there is no ransom to agree.")
        terms = state.terms
        opponents = {warband.pk: warband for warband in state.opponents}
        if type(paid) is not bool:
            raise PostGameError("Say whether the ransom is paid: yes or no.")
        if paid:
            if type(ransom) is not int or ransom < 0:
                raise PostGameError(f"The ransom must be a whole number of {terms.currency}, 0 or more.")
            others = sum(
                answer.ransom
                for answer in PostGameFighter.objects.filter(post_game=live, ransom_paid=True).exclude(
                    fighter_id=fighter_id
                )
            )
            if ransom + others > state.warband.strongbox:
                left = state.warband.strongbox - others
                raise PostGameError(
                    f"{state.warband.name}'s {terms.strongbox} holds only {left} {terms.currency}"
                    + (f" after the other ransoms ({others})" if others else "")
                    + f": a ransom of {ransom} cannot be paid."
                )
            if captor_id is None and len(opponents) == 1:
                captor_id = next(iter(opponents))
            if captor_id is None and opponents:
                raise PostGameError(f"Choose the {terms.warband} that holds {name} captive.")
        else:
            ransom = 0
        if captor_id is not None and captor_id not in opponents:
            raise PostGameError(f"That {terms.warband} did not take part in Game {player.game.number}.")
        answer, _ = PostGameFighter.objects.update_or_create(
            post_game=live,
            fighter_id=fighter_id,
            defaults={"ransom_paid": paid, "ransom": ransom, "captor_id": captor_id},
        )
    return answer


@dataclass(frozen=True)
class ExperienceAnswer:
    took_part: bool = True
    glorious_deeds: int = 0
    xp_adjustment: int = 0


@transaction.atomic
def post_game_record_experience(
    *, player: GamePlayer, by, answers: Mapping[int, ExperienceAnswer], adjust: bool = False
) -> PostGame:
    """Step 4: who took part, each fighter's Glorious Deeds, and (`adjust`, the organiser) an XP adjustment.

    Only fighters of this post-game are accepted; the XP itself is worked out again at the Apply.
    """
    player = _lock(player)
    reason = f"Post-game of Game {player.game.number}: Experience recorded for {player.warband.name}"
    with _context(action="post_game.experience", player=player, by=by, step="experience", reason=reason):
        live = _open_attempt(player, by=by, action="post_game.experience", step="experience", reason=reason)
        state = post_game_state(player=player)
        listed = {line.id: line for line in state.xp}
        rows = []
        for fighter_id, answer in answers.items():
            line = listed.get(fighter_id)
            if line is None:
                raise PostGameError(f"{_fighter_name(player, fighter_id)} is not part of this post-game.")
            if type(answer.glorious_deeds) is not int or not 0 <= answer.glorious_deeds <= MAX_GLORIOUS_DEEDS:
                raise PostGameError(
                    f"{line.fighter.name}: Glorious Deeds must be a whole number from 0 to {MAX_GLORIOUS_DEEDS}."
                )
            if adjust and (
                type(answer.xp_adjustment) is not int or abs(answer.xp_adjustment) > MAX_XP_ADJUSTMENT
            ):
                raise PostGameError(
                    f"{line.fighter.name}: the adjustment must be a whole number from -{MAX_XP_ADJUSTMENT} "
                    f"to {MAX_XP_ADJUSTMENT}."
                )
            rows.append(
                PostGameFighter(
                    post_game=live,
                    fighter_id=fighter_id,
                    took_part=True if line.out_of_action else bool(answer.took_part),
                    glorious_deeds=answer.glorious_deeds,
                    xp_adjustment=answer.xp_adjustment if adjust else 0,
                )
            )
        update = ["took_part", "glorious_deeds", *(["xp_adjustment"] if adjust else [])]
        PostGameFighter.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["post_game", "fighter"], update_fields=update
        )
    return live


# -- Apply and Revert -------------------------------------------------------------------------------------------


class _ExactEncoder(DjangoJSONEncoder):
    """DjangoJSONEncoder, but times keep their microseconds (it rounds them to milliseconds), so a row the
    Revert recreates is equal to the one the Apply deleted, `created_at` included."""

    def default(self, o):
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def _image(obj) -> dict[str, Any]:
    """A row as plain JSON values, every concrete field: what the Revert writes back."""
    values = {field.attname: field.value_from_object(obj) for field in obj._meta.concrete_fields}
    return json.loads(json.dumps(values, cls=_ExactEncoder))


def _from_image(model, image: Mapping[str, Any]) -> dict[str, Any]:
    return {
        field.attname: field.to_python(image[field.attname])
        for field in model._meta.concrete_fields
        if field.attname in image
    }


def _summary(state: PostGameState, strongboxes: list[dict]) -> dict:
    return {
        "fighters": [
            {
                "id": change.fighter.pk,
                "name": change.fighter.name,
                "explanation": change.explanation,
                "rulings": [list(pair) for pair in change.rulings],
                "sentences": change.sentences,
            }
            for change in state.changes
        ],
        "strongboxes": strongboxes,
    }


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _ransom_reason(state: PostGameState, change: StrongboxChange) -> str:
    """A paid ransom in a few words (TRAUMA_TABLE.md 12, Captured): "ransom for Brother Marcus" on the Strongbox
    that pays it, "ransom for Brother Marcus (from Iron Sepulchre)" on the captor's that receives it."""
    words = f"ransom for {_names(change.ransomed)}" if change.ransomed else "ransom"
    return words if change.warband.pk == state.warband.pk else f"{words} (from {state.warband.name})"


@transaction.atomic
def post_game_apply(*, player: GamePlayer, by) -> PostGame:
    """Step 5: write every change of the post-game to the roster in one transaction, with the before-image of
    every row it changes kept for `post_game_revert`. A second Apply is refused (the game is locked first, so of
    two at once one waits, then finds it applied)."""
    player = _lock(player)
    _refuse_while_played(player)
    live = _live(player)
    if live is not None and live.is_applied:
        raise PostGameError(
            f"{player.warband.name}'s post-game of Game {player.game.number} is already applied "
            f"(by {live.applied_by or 'someone'} at {timezone.localtime(live.applied_at):%H:%M})."
        )
    state = post_game_state(player=player, for_update=True)
    if state.problem:
        raise PostGameError(state.problem)
    if state.blockers:
        raise PostGameError("Not ready to apply: " + " ".join(state.blockers))
    reason = f"Post-game of Game {player.game.number} applied to {player.warband.name}"
    roll_ids = state.roll_ids
    # Why each Strongbox moves, for the history feed (rosters.history): warband id -> "ransom for Brother Marcus".
    ransoms = {
        str(change.warband.pk): _ransom_reason(state, change) for change in state.strongboxes if change.delta
    }
    with _context(
        action="post_game.apply",
        player=player,
        by=by,
        step="apply",
        reason=reason,
        roll=roll_ids,
        **({"ransoms": ransoms} if ransoms else {}),
    ):
        if live is None:
            live = _open_attempt(player, by=by, action="post_game.apply", step="apply", reason=reason)
        snapshot: dict[str, Any] = {"fighters": [], "items_moved": [], "items_lost": [], "warbands": []}

        # Fighters: status, Battle Scars, XP, whether they can gain XP, whether they miss the next game.
        changed = [change for change in state.changes if change.changes_row]
        # Only the columns some fighter's value changes in: each one is a CASE over the rows in the statement.
        fields = [
            name
            for name in APPLY_FIELDS
            if any(getattr(c, name) != getattr(c.fighter, name) for c in changed)
        ]
        for change in changed:
            before = _image(change.fighter)
            for name in fields:
                setattr(change.fighter, name, getattr(change, name))
            # Fields checked here; the constraints (XP not negative, Scars in range...) by PostgreSQL in the same
            # bulk statement, which rolls the whole Apply back if one fails (one query, not one per constraint).
            change.fighter.full_clean(exclude=["warband"], validate_unique=False, validate_constraints=False)
            snapshot["fighters"].append({"before": before, "after": _image(change.fighter)})
        if fields:
            Fighter.objects.bulk_update([change.fighter for change in changed], fields)

        # Injuries the Trauma Table gave (003 "Recording Injuries & Battle Scars").
        injuries = [
            Injury(fighter=change.fighter, game=player.game, **injury)
            for change in state.changes
            for injury in change.new_injuries
        ]
        for injury in injuries:
            injury.full_clean(exclude=["fighter", "game"], validate_unique=False, validate_constraints=False)
        snapshot["injuries_created"] = [injury.pk for injury in Injury.objects.bulk_create(injuries)]

        # Battlekit: to the Arsenal (RULING T-4) or lost (RULING T-6, Robbed, Muscle Damage).
        moved = [item for change in state.changes for item in change.to_arsenal]
        for item in moved:
            snapshot["items_moved"].append({"before": _image(item)})
        Item.objects.filter(pk__in=[item.pk for item in moved]).update(fighter=None)
        lost = [item for change in state.changes for item in change.lost]
        snapshot["items_lost"] = [_image(item) for item in lost]
        Item.objects.filter(pk__in=[item.pk for item in lost]).delete()

        # Strongboxes: a paid ransom moves from this warband's to the captor's (TRAUMA_TABLE.md 12).
        strongboxes = []
        if state.strongboxes:
            deltas = {change.warband.pk: change for change in state.strongboxes}
            warbands = list(Warband.objects.select_for_update().filter(pk__in=deltas).order_by("pk"))
            for warband in warbands:
                before = _image(warband)
                warband.strongbox += deltas[warband.pk].delta
                if warband.strongbox < 0:
                    raise PostGameError(
                        f"{warband.name}'s {state.terms.strongbox} holds only {before['strongbox']} "
                        f"{state.terms.currency}: the ransom cannot be paid."
                    )
                snapshot["warbands"].append({"before": before, "after": _image(warband)})
                strongboxes.append(
                    {
                        "warband": warband.name,
                        "before": before["strongbox"],
                        "after": warband.strongbox,
                        "reason": deltas[warband.pk].reason,
                    }
                )
            Warband.objects.bulk_update(warbands, ["strongbox"])

        live.status = PostGame.Status.APPLIED
        live.applied_by = by
        live.applied_at = timezone.now()
        live.snapshot = snapshot
        live.summary = _summary(state, strongboxes)
        live.save(update_fields=["status", "applied_by", "applied_at", "snapshot", "summary"])
        _mark(player, GamePlayer.PostGame.DONE, by=by, action="post_game.apply", step="apply", reason=reason)
    return live


def post_game_revert_refusal(player: GamePlayer, post_game: PostGame) -> str | None:
    """Why this applied post-game can no longer be reverted (None when it can): the warband's next game is
    recorded, and the roster has moved on from it."""
    game = player.game
    later = (
        GamePlayer.objects.filter(warband_id=player.warband_id)
        .exclude(game_id=game.pk)
        .filter(Q(game__number__gt=game.number) | Q(game__created_at__gt=post_game.applied_at))
        .select_related("game")
        .order_by("game__number")
        .first()
    )
    if later is not None:
        return (
            f"{player.warband.name} has played Game {later.game.number} since: the post-game of Game "
            f"{game.number} can no longer be reverted."
        )
    return None


def _restore(model, kind: str, current, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Put back on `current` every field the Apply changed; a counter changed since then by another write (XP,
    the Strongbox) loses only what the Apply added, so the later change is kept."""
    values_before = _from_image(model, before)
    values_after = _from_image(model, after)
    fields = []
    for name, value in values_before.items():
        if value == values_after[name]:
            continue
        now = getattr(current, name)
        if name in COUNTERS[kind] and now != values_after[name]:
            value = now - (values_after[name] - value)
        setattr(current, name, value)
        fields.append(name)
    return fields


@transaction.atomic
def post_game_revert(*, player: GamePlayer, by) -> PostGame:
    """Undo an applied post-game: every row it changed back as it was (fighters, Injuries, Battle Scars, XP,
    Battlekit, Strongboxes), until the warband's next game is recorded. The attempt is kept, marked reverted,
    with its rolls in the dice log; the wizard can then be done again."""
    player = _lock(player)
    live = _live(player)
    if live is None or not live.is_applied:
        raise PostGameError(f"{player.warband.name}'s post-game of Game {player.game.number} is not applied.")
    refusal = post_game_revert_refusal(player, live)
    if refusal:
        raise PostGameError(refusal)
    snapshot = live.snapshot
    reason = f"Post-game of Game {player.game.number} reverted for {player.warband.name}"
    roll_ids = list(
        PostGameRoll.objects.filter(post_game=live).order_by("id").values_list("dice_roll_id", flat=True)
    )
    with _context(
        action="post_game.revert", player=player, by=by, step="revert", reason=reason, roll=roll_ids
    ):
        # Fighters back as they were.
        images = {entry["before"]["id"]: entry for entry in snapshot["fighters"]}
        fighters = list(Fighter.objects.select_for_update().filter(pk__in=images).order_by("pk"))
        fields: set[str] = set()
        for fighter in fighters:
            entry = images[fighter.pk]
            fields.update(_restore(Fighter, "fighter", fighter, entry["before"], entry["after"]))
            if fighter.xp < 0:
                raise PostGameError(f"{fighter.name} has spent XP since: reverting would leave it below 0.")
        if fields:
            Fighter.objects.bulk_update(fighters, sorted(fields))

        # Injuries the Apply created are struck off.
        Injury.objects.filter(pk__in=snapshot["injuries_created"]).delete()

        # Battlekit back in the hands it was in; lost Battlekit recreated exactly (same id, same fields).
        moved = {entry["before"]["id"]: entry["before"] for entry in snapshot["items_moved"]}
        items = list(Item.objects.select_for_update().filter(pk__in=moved).order_by("pk"))
        for item in items:
            item.fighter_id = moved[item.pk]["fighter_id"]
        Item.objects.bulk_update(items, ["fighter"])
        existing = set(
            Item.objects.filter(pk__in=[image["id"] for image in snapshot["items_lost"]]).values_list(
                "pk", flat=True
            )
        )
        lost = [image for image in snapshot["items_lost"] if image["id"] not in existing]
        recreated = [Item(**_from_image(Item, image)) for image in lost]
        Item.objects.bulk_create(recreated)
        # `created_at` is auto_now_add, which an insert always sets to now: write the original back.
        for item, image in zip(recreated, lost, strict=True):
            item.created_at = _from_image(Item, image)["created_at"]
        Item.objects.bulk_update(recreated, ["created_at"])

        # Strongboxes: the ransom goes back.
        images = {entry["before"]["id"]: entry for entry in snapshot["warbands"]}
        warbands = list(Warband.objects.select_for_update().filter(pk__in=images).order_by("pk"))
        for warband in warbands:
            entry = images[warband.pk]
            _restore(Warband, "warband", warband, entry["before"], entry["after"])
            if warband.strongbox < 0:
                raise PostGameError(
                    f"{warband.name} has spent the ransom since: reverting would leave its Strongbox below 0."
                )
        if warbands:
            Warband.objects.bulk_update(warbands, ["strongbox"])

        live.status = PostGame.Status.REVERTED
        live.reverted_by = by
        live.reverted_at = timezone.now()
        live.save(update_fields=["status", "reverted_by", "reverted_at"])
        _mark(
            player,
            GamePlayer.PostGame.PENDING,
            by=by,
            action="post_game.revert",
            step="revert",
            reason=reason,
        )
    return live
