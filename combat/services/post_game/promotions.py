"""The post-game's Promotions step: the Promotion Dice assigned (RULING P-2), rolled one at a time (P-3, P-4), and
the Apply and Revert parts that promote the model (P-7) or restore its XP gain (P-6) and carry the warband's tally.

Every die is stored in the dice log before it is shown; a die already stored is given back, never rolled again
(two tabs, a double click); the automatic success after 5 failures is not a die (RULING P-4): only the model it
went to is stored (`PostGame.promotion_automatic`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.models import GamePlayer
from combat import rules
from combat.models import DiceRoll, PostGame, PostGameFighter, PostGameRoll
from combat.models.postgame import MAX_PROMOTION_DICE, MAX_PROMOTION_EXTRA
from combat.selectors.post_game.promotions import PromotionsRead, assignment_problems, chain
from combat.selectors.post_game.rolls import RollNeeded
from combat.selectors.post_game.state import PostGameState, post_game_state
from combat.services.post_game.attempt import (
    PostGameError,
    fighter_name,
    live_attempt,
    lock,
    open_attempt,
    open_with_state,
    step_context,
)
from combat.services.post_game.rolls import count_again, store_needed
from rosters.models import Fighter, Warband


class PromotionDiceRefused(PostGameError):
    """An assignment refused: the reasons, by fighter id where one is named (beside its field), else the pool's."""

    def __init__(self, problems: list[str], by_fighter: dict[int, str] | None = None):
        super().__init__(" ".join(problems))
        self.problems = problems
        self.by_fighter = by_fighter or {}


@dataclass(frozen=True)
class PromotionDieMade:
    """A Promotion Die: its stored roll (None for the automatic success, RULING P-4) and whether this call made it
    (False: it was made already and is shown again)."""

    roll: PostGameRoll | None
    created: bool
    automatic: bool = False


def _step(player: GamePlayer) -> tuple[PostGameState, PromotionsRead]:
    return _checked(post_game_state(player=player))


def _checked(state: PostGameState) -> tuple[PostGameState, PromotionsRead]:
    if state.problem:
        raise PostGameError(state.problem)
    if state.promotions is None:
        raise PostGameError("The Promotions step opens once the Trauma Step is settled.")
    return state, state.promotions


def _refuse_started(step: PromotionsRead) -> None:
    if step.started:
        raise PostGameError(
            "Promotion Dice are rolled already: the assignment and the pool can no longer change (RULING P-3)."
        )


def _checked_extra(extra: int) -> int:
    if type(extra) is not int or not 0 <= extra <= MAX_PROMOTION_EXTRA:
        raise PromotionDiceRefused(
            [f"Extra dice from abilities must be a whole number from 0 to {MAX_PROMOTION_EXTRA}."]
        )
    return extra


def _checked_assignment(
    player: GamePlayer, state: PostGameState, step: PromotionsRead, assignment: Mapping[int, int], pool: int
) -> dict[int, int]:
    """The assignment as RULING P-2 allows it, else refused with each model's reason."""
    listed = {fighter.pk for fighter in state.fighters}
    names = {str(fighter.pk): fighter.name for fighter in state.fighters}
    by_fighter: dict[int, str] = {}
    for fighter_id, dice in assignment.items():
        if fighter_id not in listed:
            raise PromotionDiceRefused([f"{fighter_name(player, fighter_id)} is not part of this post-game."])
        if type(dice) is not int or not 0 <= dice <= MAX_PROMOTION_DICE:
            by_fighter[fighter_id] = (
                f"{names[str(fighter_id)]}: Promotion Dice must be a whole number from 0 to {MAX_PROMOTION_DICE}."
            )
    if by_fighter:
        raise PromotionDiceRefused(list(by_fighter.values()), by_fighter)
    wanted = {str(fighter_id): dice for fighter_id, dice in assignment.items()}
    problems = assignment_problems(wanted, pool=pool, candidates=step.candidates, names=names)
    if problems:
        for key, problem in problems:
            if key is not None:
                by_fighter[int(key)] = (
                    f"{by_fighter[int(key)]} {problem}" if int(key) in by_fighter else problem
                )
        raise PromotionDiceRefused([problem for _key, problem in problems], by_fighter)
    return {candidate.id: assignment.get(candidate.id, 0) for candidate in step.candidates}


@transaction.atomic
def post_game_assign_promotion_dice(
    *, player: GamePlayer, by, assignment: Mapping[int, int], extra: int = 0
) -> PostGame:
    """The Promotion Dice given to each eligible model (RULING P-2) and the extra dice from abilities (P-1), before
    any die is rolled. Dice need not all be assigned: none at all lets the step go on."""
    player = lock(player)
    reason = f"Post-game of Game {player.game.number}: Promotion Dice assigned for {player.warband.name}"
    with step_context(action="post_game.promotions", player=player, by=by, step="promotions", reason=reason):
        live, state = open_with_state(
            player, by=by, action="post_game.promotions", step="promotions", reason=reason
        )
        state, step = _checked(state)
        _refuse_started(step)
        extra = _checked_extra(extra)
        pool = rules.promotion_pool(
            won=step.won, glorious_deeds=step.glorious_deeds, elite_count=step.elite_count, extra=extra
        )
        dice = _checked_assignment(player, state, step, assignment, pool)
        took_part = {line.id: line.took_part for line in state.xp}
        # Every other fighter of the post-game holds no Promotion Dice (a model no longer eligible loses its own).
        PostGameFighter.objects.filter(post_game=live).exclude(fighter_id__in=dice).update(promotion_dice=0)
        rows = [
            PostGameFighter(
                post_game=live,
                fighter_id=fighter_id,
                promotion_dice=count,
                took_part=took_part.get(fighter_id, True),
            )
            for fighter_id, count in dice.items()
        ]
        PostGameFighter.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["post_game", "fighter"],
            update_fields=["promotion_dice"],
        )
        live.promotion_extra = extra
        live.promotions_passed = True
        live.save(update_fields=["promotion_extra", "promotions_passed"])
    return live


def _refuse_die(step: PromotionsRead, fighter_id: int, sequence: int, name: str) -> None:
    """Every die the step does not need now is refused (RULINGS P-2, P-3)."""
    if step.problems:
        raise PostGameError("Fix the assignment first: " + " ".join(step.problems))
    if step.promoted is not None:
        raise PostGameError(
            f"{step.promoted.name} succeeded already: no more Promotion Dice are rolled (RULING P-3)."
        )
    candidate = next((c for c in step.candidates if c.id == fighter_id), None)
    if candidate is None:
        raise PostGameError(f"{name} may not be promoted, so it takes no Promotion Dice (RULING P-2).")
    if candidate.dice_left == 0:
        raise PostGameError(f"{name} has no Promotion Dice left to roll.")
    if sequence != step.next_sequence:
        raise PostGameError(
            f"The page was out of date: the next Promotion Die is number {step.next_sequence}, not {sequence}."
        )


def _already(live: PostGame | None, sequence: int) -> PostGameRoll | None:
    """The warband's die at this place in the rolling order, when it is stored (a double click, a second tab)."""
    if live is None or live.is_applied:
        return None
    return (
        PostGameRoll.objects.filter(post_game=live, purpose=PostGameRoll.Purpose.PROMOTION, sequence=sequence)
        .select_related("dice_roll")
        .first()
    )


@transaction.atomic
def post_game_promotion_roll(
    *, player: GamePlayer, fighter_id: int, sequence: int, by, faces: Sequence[int] | None = None
) -> PromotionDieMade:
    """The warband's Promotion Die number `sequence`, for the model the player picked (RULING P-3), rolled by the
    server or typed in (`faces`, one D6), stored in the dice log before it is shown. At a tally of 5 the die is
    the automatic success: not rolled, only the model it goes to is stored (RULING P-4)."""
    player = lock(player)
    live = live_attempt(player)
    existing = _already(live, sequence)
    if existing is not None and existing.dice_roll.counts:
        return PromotionDieMade(existing, created=False)
    name = fighter_name(player, fighter_id)
    reason = f"Post-game of Game {player.game.number}: a Promotion Die for {name}"
    with step_context(
        action="post_game.roll", player=player, by=by, step="promotions", reason=reason, fighter=fighter_id
    ):
        live = open_attempt(
            player, by=by, action="post_game.roll", step="promotions", reason=reason, live=live
        )
        _state, step = _step(player)
        if 1 <= sequence <= len(step.dice) and step.dice[sequence - 1].face is None:
            return PromotionDieMade(None, created=False, automatic=True)  # given already, in another tab
        _refuse_die(step, fighter_id, sequence, name)
        if existing is not None:  # stored, set aside by a correction, needed again: it counts again
            if existing.fighter_id != fighter_id:
                raise PostGameError(
                    f"Promotion Die {sequence} was rolled for {fighter_name(player, existing.fighter_id)}: "
                    "a stored die is never rolled again, so it goes to that model."
                )
            return PromotionDieMade(count_again(existing), created=False)
        if step.automatic_next:
            live.promotion_automatic_id = fighter_id
            live.save(update_fields=["promotion_automatic"])
            return PromotionDieMade(None, created=True, automatic=True)
        roll = _store(player, live, fighter_id, sequence, name, faces, by=by)
    return PromotionDieMade(roll, created=True)


def _store(player: GamePlayer, live: PostGame, fighter_id: int, sequence: int, name: str, faces, *, by):
    """The dice log's row, then the post-game's, before anything is shown."""
    needed = RollNeeded(PostGameRoll.Purpose.PROMOTION, sequence, rules.PROMOTION_DIE, 1)
    dice_roll = store_needed(
        player=player,
        fighter_id=fighter_id,
        name=name,
        needed=needed,
        faces=faces,
        by=by,
        count_words="a Promotion Die is one D6",
    )
    return PostGameRoll.objects.create(
        post_game=live,
        fighter_id=fighter_id,
        purpose=PostGameRoll.Purpose.PROMOTION,
        sequence=sequence,
        dice_roll=dice_roll,
    )


# -- Corrections ----------------------------------------------------------------------------------------


def follow_promotions(*, player: GamePlayer, live: PostGame, by, struck: DiceRoll) -> tuple[list[int], bool]:
    """After a Promotion Die is corrected or voided: every stored Promotion Die (counted or set aside) read again
    by the engine in rolling order (RULINGS P-3, P-4). Dice after the success are set aside (undone, never
    deleted), dice the chain reads again count again; a success that moves to a later die moves the automatic
    success with it. Returns the DiceRoll ids set aside and whether dice are left to roll (the step reopens)."""
    stored = list(
        PostGameRoll.objects.filter(post_game=live, purpose=PostGameRoll.Purpose.PROMOTION)
        .select_related("dice_roll")
        .order_by("sequence")
    )
    # Read after the Revert part of a correction after Apply has put the warband's tally back.
    failed_before = Warband.objects.values_list("promotion_tally", flat=True).get(pk=player.warband_id)
    result, automatic = chain(stored, live.promotion_automatic_id, failed_before=failed_before)
    read = sum(1 for _model, face in result.rolls if face is not None)
    given = len(result.rolls) > read  # the last die is the automatic success (RULING P-4)
    if given and read < len(stored):
        automatic = stored[read].fighter_id  # the tally reaches 5 before this stored die: it is not rolled
    elif not given:
        automatic = None
    if automatic != live.promotion_automatic_id:
        live.promotion_automatic_id = automatic
        live.save(update_fields=["promotion_automatic"])
    now = timezone.now()
    set_aside = []
    for index, roll in enumerate(stored):
        dice = roll.dice_roll
        if index >= read and dice.counts:
            dice.status, dice.status_by, dice.status_at = DiceRoll.Status.UNDONE, by, now
            dice.status_reason = f"no longer needed after the correction of {struck.label}"[:200]
            dice.save(update_fields=["status", "status_by", "status_at", "status_reason"])
            set_aside.append(dice.pk)
        elif index < read:
            count_again(roll)
    assigned = sum(PostGameFighter.objects.filter(post_game=live).values_list("promotion_dice", flat=True))
    return set_aside, result.promoted is None and read < assigned


# -- Apply and Revert ---------------------------------------------------------------------------------------------

PROMOTION_FIELDS = ("keywords", "xp", "can_gain_xp")


def _fighter_values(fighter: Fighter) -> dict[str, Any]:
    return {"keywords": list(fighter.keywords), "xp": fighter.xp, "can_gain_xp": fighter.can_gain_xp}


def _promote(state: PostGameState, step: PromotionsRead) -> dict[str, Any] | None:
    """The promoted Troop gains the ELITE keyword and 0 XP (RULING P-7); a Head-Wounded ELITE model's success
    restores its XP gain instead (RULING P-6). Returns the before- and after-values."""
    candidate = step.promoted
    if candidate is None:
        return None
    # The fighter as the Trauma Step's part left it (that part updates the same object).
    fighter = next(fighter for fighter in state.fighters if fighter.pk == candidate.id)
    before = _fighter_values(fighter)
    if candidate.head_wounded:
        fighter.can_gain_xp = True
    else:
        promotion = rules.promote(keywords=fighter.keywords)
        added = sorted(promotion.keywords - set(fighter.keywords))
        fighter.keywords = [*fighter.keywords, *added]
        fighter.xp = promotion.xp
    fighter.full_clean(exclude=["warband"], validate_unique=False, validate_constraints=False)
    fighter.save(update_fields=list(PROMOTION_FIELDS))
    return {"id": fighter.pk, "before": before, "after": _fighter_values(fighter)}


def apply_part(state: PostGameState) -> dict[str, Any]:
    """The promotion (or the XP gain restored) and the warband's tally of failed Promotion Dice (RULING P-4).
    Returns the snapshot entries the Revert reads: `promotion` (the fighter's values before and after) and
    `promotion_tally` (the warband's)."""
    step = state.promotions
    if step is None:
        return {}
    entries: dict[str, Any] = {}
    promoted = _promote(state, step)
    if promoted is not None:
        entries["promotion"] = promoted
    # The tally the dice were read from (`step.tally_before`) is the one replaced.
    if step.tally_before != step.tally_after:
        entries["promotion_tally"] = {
            "id": state.warband.pk,
            "before": step.tally_before,
            "after": step.tally_after,
        }
        Warband.objects.filter(pk=state.warband.pk).update(promotion_tally=step.tally_after)
    return entries


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """The promoted model's keywords, XP and XP gain, and the warband's tally, back exactly as they were."""
    promoted = snapshot.get("promotion")
    if promoted:
        fighter = Fighter.objects.select_for_update().get(pk=promoted["id"])
        for name, value in promoted["before"].items():
            setattr(fighter, name, value)
        fighter.save(update_fields=list(PROMOTION_FIELDS))
    tally = snapshot.get("promotion_tally")
    if tally:
        Warband.objects.filter(pk=tally["id"]).update(promotion_tally=tally["before"])
