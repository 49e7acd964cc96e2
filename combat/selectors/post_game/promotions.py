"""The post-game's Promotions step: the Promotion Pool, its dice assigned and rolled (RULINGS P-1 to P-7).

Only the answers are stored (`PostGame.promotion_extra`, each `PostGameFighter.promotion_dice`, the model given
the automatic success) and the faces rolled (`PostGameRoll`, purpose `promotion`, `sequence` the die's place in
the warband's rolling order). Everything else is worked out again here by the engine from those rows:
`rules.promotion_pool`, `rules.promotion_dice_problems`, `rules.roll_promotions`, `rules.promotion_chance`.

The step is read in three modules: `promotion_pool` (the pool, the candidates, an assignment's breaches,
`PromotionsRead`), `promotion_dice` (the stored dice in rolling order and their words), and this one, which puts
them together (`promotions`), fills the post-game's state (`read`) and says when the step is `done`. The names of
the other two are re-exported here, where callers have always imported them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from campaigns.models import GamePlayer
from combat import rules
from combat.rules.campaign_promotion import PoolModel, promotion_pool_inputs
from combat.selectors.post_game.base import StepRead
from combat.selectors.post_game.changes import fighter_change, with_change
from combat.selectors.post_game.promotion_dice import (
    ORDINALS,
    PromotionDie,
    applied_dice,
    chain,
    ordinal,
    promotion_sentence,
    read_dice,
    tally_words,
)
from combat.selectors.post_game.promotion_pool import (
    PromotionCandidate,
    PromotionsRead,
    assignment_problems,
    named,
    pool_words,
    promotion_candidates,
)
from rosters.models import Fighter

if TYPE_CHECKING:
    from combat.models import PostGameFighter
    from combat.selectors.post_game.base import PostGameState

__all__ = [
    "ORDINALS",
    "PromotionCandidate",
    "PromotionDie",
    "PromotionsRead",
    "applied_dice",
    "assignment_problems",
    "chain",
    "done",
    "named",
    "ordinal",
    "pool_words",
    "promotion_sentence",
    "promotions",
    "read",
    "tally_words",
]


def _pool_models(
    state: PostGameState, answers: dict[int, PostGameFighter], removed: set[int]
) -> list[PoolModel]:
    """The warband's models as the Promotion Pool counts them: every answer's Glorious Deeds (a fighter's Deeds
    count whatever became of it), and the ELITE models on the roster before this game, less those its Trauma Step
    removed or its player dismisses (the Dismiss step's answers, read before that step is passed)."""
    models = []
    for fighter in state.fighters:
        answer = answers.get(fighter.pk)
        models.append(
            PoolModel(
                elite=fighter.counts_as_elite,
                glorious_deeds=answer.glorious_deeds if answer is not None else 0,
                removed=not fighter.is_active or fighter.pk in removed,
                dismissed=answer is not None and answer.dismissed,
            )
        )
    shown = {fighter.pk for fighter in state.fighters}
    others = [answer for answer in answers.values() if answer.fighter_id not in shown]
    return models + [PoolModel(elite=False, glorious_deeds=a.glorious_deeds, removed=True) for a in others]


def promotions(state: PostGameState, answers: dict[int, PostGameFighter]) -> PromotionsRead:
    """The step worked out from the stored rows (three queries: campaign data, the dice; the names are loaded)."""
    removed = {change.fighter.pk for change in state.changes if change.status != Fighter.Status.ACTIVE}
    live = state.post_game
    inputs = promotion_pool_inputs(_pool_models(state, answers, removed))
    won = state.player.result == GamePlayer.Result.WIN
    extra = live.promotion_extra if live is not None else 0
    pool = rules.promotion_pool(
        won=won, glorious_deeds=inputs.glorious_deeds, elite_count=inputs.elite_count, extra=extra
    )
    read = PromotionsRead(
        won,
        inputs.glorious_deeds,
        inputs.elite_count,
        extra,
        pool,
        "",
        state.warband.promotion_tally,
        passed=bool(live is not None and live.promotions_passed),
    )
    read.pool_words = pool_words(read, state.terms)
    read.candidates = promotion_candidates(state, answers, removed)
    names = {str(fighter.pk): fighter.name for fighter in state.fighters}
    assignment = {
        str(answer.fighter_id): answer.promotion_dice for answer in answers.values() if answer.promotion_dice
    }
    for key, problem in assignment_problems(assignment, pool=pool, candidates=read.candidates, names=names):
        read.problems.append(problem)
        candidate = next((c for c in read.candidates if c.key == key), None)
        if candidate is not None:
            candidate.error = problem
    read_dice(state, read, names)
    if read.dice_left and not read.automatic_next:
        read.chance = rules.promotion_chance(dice=read.dice_left, failed_before=read.tally_now)
    elif read.dice_left:
        read.chance = Fraction(1)
    return read


def read(state: PostGameState) -> StepRead:
    """The step's part, the promoted model's sentence on its change, and what still stops the Apply."""
    step = promotions(state, state.answers)
    blockers = [f"Promotions: {problem}" for problem in step.problems]
    if step.outstanding and step.assigned and not step.problems:
        dice = "die" if step.dice_left == 1 else "dice"
        blockers.append(f"Promotions: {step.dice_left} assigned Promotion {dice} still to roll (RULING P-3).")
    sentence = promotion_sentence(step, state.terms)
    if sentence is None:
        return StepRead(step, tuple(blockers))
    change = fighter_change(state.changes, step.promoted.fighter)
    change.sentences.append(sentence)
    return StepRead(step, tuple(blockers), changes=with_change(state.changes, change))


def done(state: PostGameState) -> bool:
    """Nothing to do (no pool, no model to promote), or the dice assigned and all rolled (or a success)."""
    step = state.promotions
    if step is None or step.nothing_to_do:
        return True
    return step.passed and not step.outstanding and not step.problems
