"""The Promotions step's dice (RULINGS P-3, P-4, P-6, P-7): the stored faces read by the engine in rolling order
(`chain`), each die with its rule in words, the warband's tally of failed dice in words, and the promotion's
sentence.

`combat.selectors.post_game.promotions` puts it together with the pool (`promotion_pool`) and re-exports these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from combat import rules
from combat.models import DiceRoll, PostGameRoll
from combat.rules.words import possessive
from combat.selectors.post_game.promotion_pool import (
    ORDINALS,
    PromotionDie,
    PromotionsRead,
    ordinal,
    tally_words,
)
from combat.selectors.post_game.rolls import LoggedRoll, counted_rolls

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState

__all__ = [
    "ORDINALS",
    "PromotionDie",
    "applied_dice",
    "chain",
    "ordinal",
    "promotion_sentence",
    "read_dice",
    "tally_words",
]


def _stored_dice(state: PostGameState) -> list[PostGameRoll]:
    """The dice that count, in rolling order; none before the dice are assigned."""
    if state.post_game is None or not state.post_game.promotions_passed:
        return []
    # Read with the state's rolls (`counted_rolls`), in the order stored; sorted by rolling order.
    return sorted(counted_rolls(state, PostGameRoll.Purpose.PROMOTION), key=lambda roll: roll.sequence)


def applied_dice(post_game) -> list[LoggedRoll]:
    """An applied post-game's Promotion Dice that count, in rolling order, for the overview's fix forms (a
    die fixed after the Apply): one query, none when no die was assigned."""
    if not post_game.promotions_passed:
        return []
    stored = (
        PostGameRoll.objects.filter(
            post_game=post_game,
            purpose=PostGameRoll.Purpose.PROMOTION,
            dice_roll__status=DiceRoll.Status.COUNTED,
        )
        .select_related("fighter", "dice_roll__rolled_by", "dice_roll__replaces__status_by")
        .order_by("sequence")
    )
    return [LoggedRoll(roll) for roll in stored]


def chain(
    stored: list[PostGameRoll], automatic: int | None, *, failed_before: int
) -> tuple[rules.PromotionResult, int | None]:
    """The engine's reading of the stored faces in stored order (RULINGS P-3, P-4), with the model given the
    automatic success last; the automatic success is dropped when the faces no longer lead to it."""
    faces = [roll.dice_roll.faces[0] for roll in stored]
    order = [str(roll.fighter_id) for roll in stored]
    if automatic is not None:
        try:
            result = rules.roll_promotions(
                [*order, str(automatic)], rules.ScriptedDice(faces), failed_before=failed_before
            )
            return result, automatic
        except rules.DiceExhausted:
            pass  # a correction moved the tally: that die is to be rolled now, not given
    return rules.roll_promotions(order, rules.ScriptedDice(faces), failed_before=failed_before), None


def _die_rule(die: PromotionDie, name: str, terms) -> str:
    if die.face is None:
        what = "its XP gain is restored (RULING P-6)" if _head_wounded(die) else f"promoted to {terms.elite}"
        return (
            f"After {rules.AUTOMATIC_AFTER} failed in a row, {possessive(name)} Promotion Die succeeds without a "
            f"roll: {what} (RULING P-4); no more dice are rolled."
        )
    if die.success:
        what = "its XP gain is restored (RULING P-6)" if _head_wounded(die) else f"promoted to {terms.elite}"
        return f"{name} rolled a {die.face}: {what}; no more dice are rolled (RULING P-3)."
    return f"{name} rolled a {die.face}: no promotion; {die.tally_after} failed in a row (RULING P-4)."


def _head_wounded(die: PromotionDie) -> bool:
    return die.candidate is not None and die.candidate.head_wounded


def read_dice(state: PostGameState, read: PromotionsRead, names: dict[str, str]) -> None:
    stored = _stored_dice(state)
    live = state.post_game
    automatic = live.promotion_automatic_id if live is not None else None
    read.result, automatic = chain(stored, automatic, failed_before=read.tally_before)
    by_key = {candidate.key: candidate for candidate in read.candidates}
    tally = read.tally_before
    last = len(read.result.rolls) - 1
    for index, (key, face) in enumerate(read.result.rolls):
        # The engine ends the rolls at the success (RULING P-3): only the last die can be it.
        success = read.result.promoted is not None and index == last
        tally = 0 if success else tally + 1
        candidate = by_key.get(key)
        roll = stored[index] if index < len(stored) and face is not None else None
        die = PromotionDie(index + 1, candidate, int(key), face, roll, success, tally)
        die.rule = _die_rule(die, names.get(key, "That fighter"), state.terms)
        read.dice.append(die)
        if candidate is None:
            read.problems.append(
                f"A Promotion Die was rolled for {names.get(key, 'a fighter')}, who can no longer be promoted."
            )
        else:
            candidate.rolled += 1
    for candidate in read.candidates:
        if candidate.rolled > candidate.dice:
            read.problems.append(
                f"{candidate.name} rolled {candidate.rolled} Promotion Dice but has {candidate.dice} assigned."
            )


def promotion_sentence(read: PromotionsRead, terms) -> str | None:
    """The promotion (or the XP gain restored) in one sentence, naming the die and the ruling."""
    candidate, die = read.promoted, read.success_die
    if candidate is None or die is None:
        return None
    # The die's place in the pool's rolling order (RULING P-4 counts the dice in that order), as its dice line and
    # the dice log number it: the fourth die rolled is "the fourth", whoever rolled the three before it.
    which = f"{ordinal(die.sequence)} Promotion Die"
    if candidate.head_wounded:
        outcome = "its XP gain is restored (RULING P-6)"
    else:
        outcome = f"promoted to {terms.elite}, 0 XP (RULING P-7)"
    if die.face is None:
        return (
            f"{possessive(candidate.name)} {which} succeeds without a roll after {rules.AUTOMATIC_AFTER} failed "
            f"in a row (RULING P-4): {outcome}."
        )
    return f"{candidate.name} rolled a {die.face} on the {which}: {outcome}."
