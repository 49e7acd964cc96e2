"""A roll is final, and a mistake can be fixed: the organiser voids a server roll, the owner or the
organiser corrects a die typed from the table.

Neither deletes nor rolls again what is stored: the old DiceRoll stays in the dice log, struck (status voided or
corrected, who, when, why, `replaced_by` the roll that counts instead), and the post-game's roll points to the new
one. The engine then works everything out again from the new faces (`reading_chain`): later rolls no longer needed
are set aside (undone), a roll needed that was never made reopens the fighter's step, a ransom answer for a
fighter no longer Captured is cleared.

After Apply, until the warband's next game, a fix is "revert + apply again" in ONE transaction under one history
context (action `post_game.correct` or `post_game.void`): the result is exactly the roster a post-game typed right
from the start gives; when something is left to answer, the post-game stays open with the step reopened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db import transaction
from django.utils import timezone

from campaigns.access import is_organiser, membership_of
from campaigns.history_context import add_context
from campaigns.models import GamePlayer
from combat.models import DiceRoll, PostGame, PostGameFighter, PostGameRoll
from combat.selectors.post_game.chain import Chain, reading_chain
from combat.selectors.post_game.rolls import TRAUMA_STEP_PURPOSES, RollNeeded
from combat.selectors.post_game.state import post_game_revert_refusal, post_game_state
from combat.services import roll_store
from combat.services.post_game.advancement import clear_lost_picks
from combat.services.post_game.apply import ransom_context, write_apply
from combat.services.post_game.attempt import (
    PostGameError,
    fighter_name,
    live_attempt,
    lock,
    mark,
    step_context,
)
from combat.services.post_game.promotions import follow_promotions
from combat.services.post_game.revert import take_back
from combat.services.post_game.rolls import refused, roll_label

MAX_REASON = DiceRoll._meta.get_field("status_reason").max_length  # 200


@dataclass(frozen=True)
class Fix:
    """What a correction or a void did: the struck roll, the one that counts instead, and what followed."""

    old: DiceRoll
    new: DiceRoll
    post_game: PostGame
    applied_again: bool = False  # it was applied, and is applied again with the new faces
    reopened: bool = False  # the fighter's step is open again (a roll to make, a ransom to answer)
    set_aside: list[int] = field(default_factory=list)  # DiceRoll ids no longer needed (undone)


def struck_words(dice: DiceRoll) -> str:
    """Who changed a roll that no longer counts, when and why, in a player's words."""
    who = dice.status_by.get_username() if dice.status_by is not None else "someone"
    when = f"{timezone.localtime(dice.status_at):%H:%M}" if dice.status_at else "earlier"
    reason = f": {dice.status_reason}" if dice.status_reason else ""
    verb = {"voided": "voided", "corrected": "corrected"}.get(dice.status, "set aside")
    return f"That roll no longer counts: {verb} by {who} at {when}{reason}."


def _value(faces) -> str:
    # A D66 reads "14"; the Exploration Dice (3 to 6 D6) read "3-5-2-6".
    return ("-" if len(faces) > 2 else "").join(str(face) for face in faces)


def fix_words(purpose: str, before, after, *, verb: str) -> str:
    """The fix in the history's words, without the fighter's name (the sentence names it): "Trauma D66 corrected
    14 → 11", "Survival D6 voided 2, rolled again 5"."""
    die = {
        "survival": "Survival D6",
        "bitter_lessons": "Bitter Lessons D3",
        "promotion": "Promotion Die",
        "exploration": "Exploration Dice",
        "exploration_reroll": "Exploration reroll D6",
        "advancement": "Skill Advancement 2D6",
    }.get(purpose, "Trauma D66")
    if verb == "voided":
        return f"{die} {_value(before)} voided, rolled again {_value(after)}"
    return f"{die} corrected {_value(before)} → {_value(after)}"


def _reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise PostGameError("Say why (a few words: the reason is kept in the dice log and the history).")
    if len(reason) > MAX_REASON:
        raise PostGameError(f"The reason is {len(reason)} characters long: at most {MAX_REASON}, please.")
    return reason


def _locked_roll(player: GamePlayer, live: PostGame | None, roll_id: int) -> tuple[DiceRoll, PostGameRoll]:
    """The stored roll, locked after the game and the player (the order every post-game write locks in), and the
    post-game's link to it; refused when it is not this post-game's or no longer counts."""
    dice = (
        DiceRoll.objects.select_for_update(of=("self",))
        .select_related("status_by")
        .filter(pk=roll_id, game_id=player.game_id, warband_id=player.warband_id)
        .first()
    )
    if dice is None:
        raise PostGameError("That roll is not one of this post-game's.")
    if not dice.counts:
        raise PostGameError(struck_words(dice))
    link = PostGameRoll.objects.filter(dice_roll=dice, post_game=live).first() if live is not None else None
    if link is None:
        raise PostGameError("That roll is not one of this post-game's.")
    return dice, link


def _refuse_too_late(player: GamePlayer, live: PostGame) -> None:
    if live.is_applied:
        refusal = post_game_revert_refusal(player, live)
        if refusal:
            raise PostGameError(
                f"{player.warband.name} has played again since Game {player.game.number}: its post-game's dice "
                "can no longer be corrected or voided."
            )


def _replace(
    player: GamePlayer, dice: DiceRoll, link: PostGameRoll, faces, *, how: dict, by
) -> tuple[DiceRoll, str]:
    """The roll that counts instead, stored in the dice log by the roll store (its faces checked against the die as
    any roll's), and the old one struck with who, when and why."""
    needed = RollNeeded(link.purpose, link.sequence, dice.sides, len(dice.faces))
    # The Exploration Dice are the warband's roll, no fighter's (RULING E-1).
    name = fighter_name(player, link.fighter_id) if link.fighter_id is not None else player.warband.name
    new = roll_store.replace_roll(
        old=dice,
        faces=faces,
        refused=refused(needed),
        status=how["status"],
        reason=how["reason"],
        by=by,
        label=lambda rolled: f"{roll_label(name, needed, rolled)} ({how['note']})",
    )
    return new, name


def _follow(player: GamePlayer, live: PostGame, fighter_id: int, *, by, struck: DiceRoll) -> Chain | None:
    """The fighter's stored rolls read again by the engine: those no longer needed set aside, those needed again
    counted again, a ransom answer that no longer fits cleared."""
    state = post_game_state(player=player)
    casualty = next((c for c in state.casualties if c.id == fighter_id), None)
    if casualty is None or casualty.casualty is None or state.table is None:
        return None
    # The Trauma Step's chain only: a later step's rolls (a Skill Advancement 2D6) are not part of it.
    stored = list(
        PostGameRoll.objects.filter(
            post_game=live, fighter_id=fighter_id, purpose__in=TRAUMA_STEP_PURPOSES
        ).select_related("dice_roll")
    )
    chain = reading_chain(casualty, stored, state.table)
    now = timezone.now()
    for roll in chain.unneeded:
        dice = roll.dice_roll
        if dice.counts:
            dice.status, dice.status_by, dice.status_at = DiceRoll.Status.UNDONE, by, now
            dice.status_reason = f"no longer needed after the correction of {struck.label}"[:200]
            dice.save(update_fields=["status", "status_by", "status_at", "status_reason"])
    for roll in chain.counted:
        dice = roll.dice_roll
        if dice.status == DiceRoll.Status.UNDONE:
            dice.status, dice.status_by, dice.status_at, dice.status_reason = (
                DiceRoll.Status.COUNTED,
                None,
                None,
                "",
            )
            dice.save(update_fields=["status", "status_by", "status_at", "status_reason"])
    if not chain.captured:
        # TRAUMA_TABLE.md 12: a ransom is only for a Captured fighter; the answer no longer fits.
        answers = PostGameFighter.objects.filter(post_game=live, fighter_id=fighter_id)
        answers.exclude(ransom_paid=None, ransom_offer=None, captor=None).update(
            ransom_paid=None,
            ransom=0,
            captor=None,
            ransom_offer=None,
            ransom_offered_by=None,
            ransom_offered_at=None,
            ransom_answered_by=None,
            ransom_answered_at=None,
        )
    return chain


def _fix(
    player: GamePlayer, live: PostGame, dice: DiceRoll, link: PostGameRoll, faces, *, how: dict, by
) -> Fix:
    """The shared mechanics of a void and a correction (`how`: action, status, reason, note), under one history
    context; after Apply, revert + apply again in this same transaction."""
    action, reason = how["action"], how["reason"]
    was_applied = live.is_applied
    # `net`: the feed tells the revert + apply again as what changed in the end (rosters/history/net.py).
    context = {"fighter": link.fighter_id, "faces_before": list(dice.faces), "roll": [dice.pk], "why": reason}
    with step_context(action=action, player=player, by=by, step="fix", reason=reason, net=True, **context):
        if was_applied:
            take_back(live, by=by, campaign=player.game.campaign)
        faces_before = list(dice.faces)
        new, name = _replace(player, dice, link, faces, how=how, by=by)
        words = fix_words(link.purpose, faces_before, new.faces, verb=how["verb"])
        told = f"{words}: {reason}"
        add_context(roll=[dice.pk, new.pk], faces_after=list(new.faces), fighter_name=name, reason=told)
        link.dice_roll = new
        link.save(update_fields=["dice_roll"])
        if link.purpose == PostGameRoll.Purpose.PROMOTION:
            # RULINGS P-3, P-4: the warband's chain of Promotion Dice, not one fighter's Trauma Step.
            set_aside, reopened = follow_promotions(player=player, live=live, by=by, struck=dice)
            fix = Fix(dice, new, live, reopened=reopened, set_aside=set_aside)
        elif link.purpose == PostGameRoll.Purpose.ADVANCEMENT:
            # The skill found is worked out again from the new faces; a pick no longer found waits again.
            fix = Fix(dice, new, live, reopened=clear_lost_picks(player), set_aside=[])
        else:
            chain = _follow(player, live, link.fighter_id, by=by, struck=dice)
            fix = Fix(
                dice,
                new,
                live,
                reopened=chain is not None and chain.result.waiting_for is not None,
                set_aside=[roll.dice_roll_id for roll in chain.unneeded] if chain else [],
            )
        if not was_applied:
            return fix
        state = post_game_state(player=player, for_update=True)
        if state.ready:
            add_context(**ransom_context(state))
            write_apply(live, state, by=by)
            return replace(fix, applied_again=True)
        mark(player, GamePlayer.PostGame.IN_PROGRESS, by=by, action=action, step="fix", reason=told)
    # Not ready to apply again: something is left to answer (a roll, a ransom, the Location to pick of two).
    return replace(fix, reopened=True)


@transaction.atomic
def post_game_correct_roll(*, player: GamePlayer, roll_id: int, faces: Sequence[int], reason: str, by) -> Fix:
    """Correct a die typed from the table (RULING T-7, ENTERED rolls only) with the faces that were really rolled,
    while the post-game is open or, once applied, until the warband's next game. The caller has checked that `by`
    is the warband's owner or the organiser."""
    reason = _reason(reason)
    player = lock(player)
    live = live_attempt(player)
    dice, link = _locked_roll(player, live, roll_id)
    if dice.source != DiceRoll.Source.ENTERED:
        raise PostGameError(
            "That roll was made by the server's dice: it cannot be corrected, only voided by the organiser."
        )
    if faces is None:
        raise PostGameError("Enter the faces that were really rolled.")
    _refuse_too_late(player, live)
    before = "-".join(str(face) for face in dice.faces)
    how = {
        "action": "post_game.correct",
        "status": DiceRoll.Status.CORRECTED,
        "reason": reason,
        "note": f"corrected from {before}",
        "verb": "corrected",
    }
    return _fix(player, live, dice, link, faces, how=how, by=by)


@transaction.atomic
def post_game_void_roll(*, player: GamePlayer, roll_id: int, reason: str, by, faces=None) -> Fix:
    """The organiser voids a roll made by the server's dice, with a reason: its replacement is rolled at once by
    the server (or typed, `faces`), and everything follows from the new faces."""
    reason = _reason(reason)
    player = lock(player)
    if not is_organiser(membership_of(by, player.game.campaign)):
        raise PostGameError("Only the campaign's organiser can void a roll made by the server.")
    live = live_attempt(player)
    dice, link = _locked_roll(player, live, roll_id)
    if dice.source != DiceRoll.Source.SERVER:
        raise PostGameError("That die was typed from the table: correct it instead.")
    _refuse_too_late(player, live)
    how = {
        "action": "post_game.void",
        "status": DiceRoll.Status.VOIDED,
        "reason": reason,
        "note": "replaces a voided roll",
        "verb": "voided",
    }
    return _fix(player, live, dice, link, faces, how=how, by=by)
