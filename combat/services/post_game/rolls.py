"""Steps 2-4 of the post-game: a roll made by the server's dice or typed in from the table (RULING T-7).

Every roll is stored in the dice log before anything is shown (docs/architecture.md, Randomness), and a roll already
made is given back, never rolled again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from campaigns.models import GamePlayer
from combat import rules
from combat.models import DiceRoll, PostGame, PostGameRoll
from combat.selectors.post_game.rolls import RollNeeded
from combat.selectors.post_game.state import PostGameState, post_game_state
from combat.selectors.post_game.trauma import CasualtyState
from combat.services import roll_store
from combat.services.post_game.attempt import (
    PostGameError,
    fighter_name,
    live_attempt,
    lock,
    open_attempt,
    step_context,
)


@dataclass(frozen=True)
class RollMade:
    """A stored roll, and whether this call made it (False: it was made already and is shown again)."""

    roll: PostGameRoll
    created: bool


def refused(needed: RollNeeded, count_words: str | None = None) -> roll_store.Refused:
    """The engine's refusal of the faces typed for `needed`, in the post-game's words (`count_words` says what the
    roll is when too many or too few faces are typed, where the roll's own words do not)."""

    def error(refusal: rules.FacesRefused) -> PostGameError:
        if refusal.face is not None:
            return PostGameError(f"That roll cannot be right: {refusal}.")
        if count_words is not None:
            what = count_words
        elif needed.is_d66:
            what = "a D66 is two D6: enter the tens die and the units die"
        elif needed.purpose == PostGameRoll.Purpose.ADVANCEMENT:
            what = "a Skill Advancement Roll is 2D6: enter both dice"
        else:
            what = "enter one die" if needed.dice == 1 else f"enter all {needed.dice} dice"
        return PostGameError(f"{refusal.entered} dice entered: {what}.")

    return error


def store_needed(
    *,
    player: GamePlayer,
    fighter_id: int | None,
    name: str,
    needed: RollNeeded,
    faces,
    by,
    label=None,
    count_words: str | None = None,
) -> DiceRoll:
    """The dice `needed` asks for, rolled by the server (`faces` None) or typed in, stored by the roll store with
    the post-game's words (`label(faces)`, else `roll_label`; `count_words` as `refused` reads them)."""
    return roll_store.roll_dice(
        faces=faces,
        sides=needed.sides,
        count=needed.dice,
        refused=refused(needed, count_words),
        campaign_id=player.game.campaign_id,
        game_id=player.game_id,
        warband_id=player.warband_id,
        fighter_id=fighter_id,
        purpose=needed.purpose,
        by=by,
        label=label or (lambda rolled: roll_label(name, needed, rolled)),
    )


def roll_label(name: str, needed: RollNeeded, faces: list[int]) -> str:
    if needed.purpose == PostGameRoll.Purpose.SURVIVAL:
        return f"{name}: Survival Roll D6 {faces[0]}"
    if needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS:
        return f"{name}: Bitter Lessons D3 {faces[0]}"
    if needed.purpose == PostGameRoll.Purpose.PROMOTION:
        return f"{name}: Promotion Die {needed.sequence} D6 {faces[0]}"
    if needed.purpose == PostGameRoll.Purpose.EXPLORATION:
        return f"{name}: Exploration Dice {len(faces)}D6 {'-'.join(str(face) for face in faces)}"
    if needed.purpose == PostGameRoll.Purpose.EXPLORATION_REROLL:
        return f"{name}: Exploration reroll D6 {faces[0]} (RULING E-2)"
    if needed.purpose == PostGameRoll.Purpose.ADVANCEMENT:
        return f"{name}: Skill Advancement 2D6 {sum(faces)} ({'+'.join(str(face) for face in faces)})"
    again = "" if needed.sequence == 1 else f" (roll {needed.sequence}, RULING T-5)"
    return f"{name}: Trauma D66 {rules.d66_from_faces(*faces)}{again}"


def _made_already(live: PostGame | None, fighter_id: int, purpose: str, sequence: int) -> RollMade | None:
    """The roll asked for when it is stored already in the attempt being filled in (a double click, a tab)."""
    if live is None or live.is_applied:
        return None
    existing = (
        PostGameRoll.objects.filter(post_game=live, fighter_id=fighter_id, purpose=purpose, sequence=sequence)
        .select_related("dice_roll")
        .first()
    )
    return RollMade(existing, created=False) if existing is not None else None


def count_again(roll: PostGameRoll) -> PostGameRoll:
    """A stored roll set aside as no longer needed counts again when the chain needs it once more (never
    a new roll for a roll that is stored)."""
    dice = roll.dice_roll
    if not dice.counts and dice.status == DiceRoll.Status.UNDONE:
        dice.status = DiceRoll.Status.COUNTED
        dice.status_by, dice.status_at, dice.status_reason = None, None, ""
        dice.save(update_fields=["status", "status_by", "status_at", "status_reason"])
    return roll


def _roll_needed(
    state: PostGameState, casualty: CasualtyState | None, name: str, purpose: str, sequence: int
) -> RollNeeded:
    """The roll the fighter needs now, which must be the one asked for; every other case is refused."""
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
        raise PostGameError(f"{name} needs its {needed.words.split(':')[0]} now: the page was out of date.")
    if casualty.blocked_by_troops:
        raise PostGameError(
            "Every Troop rolls before any ELITE fighter (RULING T-1): roll for the Troops first."
        )
    return needed


def _store(
    *, player: GamePlayer, live: PostGame, fighter_id: int, name: str, needed: RollNeeded, faces, by
) -> PostGameRoll:
    """The dice log's row, then the post-game's, before anything is shown."""
    dice_roll = store_needed(
        player=player, fighter_id=fighter_id, name=name, needed=needed, faces=faces, by=by
    )
    return PostGameRoll.objects.create(
        post_game=live,
        fighter_id=fighter_id,
        purpose=needed.purpose,
        sequence=needed.sequence,
        dice_roll=dice_roll,
    )


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
    dice log before anything is shown (docs/architecture.md, Randomness).

    `faces` None rolls the server's dice; otherwise they are the physical dice typed in (a D66 is two faces, tens
    first). A roll already made is returned as it is (`created=False`), never rolled again; a roll that is not the
    one the fighter needs now is refused.
    """
    if purpose not in PostGameRoll.Purpose.values:
        raise PostGameError(f"{purpose!r} is not a post-game roll.")
    player = lock(player)
    live = live_attempt(player)
    made = _made_already(live, fighter_id, purpose, sequence)
    if made is not None and made.roll.dice_roll.counts:
        return made
    state = post_game_state(player=player)
    casualty = next((casualty for casualty in state.casualties if casualty.id == fighter_id), None)
    name = casualty.name if casualty is not None else fighter_name(player, fighter_id)
    reason = f"Post-game of Game {player.game.number}: a roll for {name}"
    with step_context(
        action="post_game.roll", player=player, by=by, step=purpose, reason=reason, fighter=fighter_id
    ):
        live = open_attempt(player, by=by, action="post_game.roll", step=purpose, reason=reason, live=live)
        needed = _roll_needed(state, casualty, name, purpose, sequence)
        if made is not None:  # stored, set aside, and needed again: it counts again, it is not rolled again
            return RollMade(count_again(made.roll), created=False)
        roll = _store(
            player=player, live=live, fighter_id=fighter_id, name=name, needed=needed, faces=faces, by=by
        )
    return RollMade(roll, created=True)
