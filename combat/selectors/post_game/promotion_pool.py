"""The Promotions step's pool and who may take its dice (RULINGS P-1, P-2, P-5, P-6): the Promotion Pool added up
and in words, the candidates after the Trauma Step, an assignment's breaches, and `PromotionsRead`, what the
page shows and the Apply writes.

`combat.selectors.post_game.promotions` puts it together with the dice (`promotion_dice`) and re-exports these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from combat import rules
from combat.models import DiceRoll, PostGameRoll
from combat.rules.campaign_promotion import may_take_promotion_dice
from combat.selectors.campaign_data import current_campaign_data
from combat.selectors.post_game.changes import is_reopened

if TYPE_CHECKING:
    from combat.models import PostGameFighter
    from combat.selectors.post_game.base import PostGameState
    from rosters.models import Fighter


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(number: int) -> str:
    return ORDINALS[number - 1] if 1 <= number <= len(ORDINALS) else f"{number}th"


@dataclass
class PromotionDie:
    """One Promotion Die in rolling order: its face (None for the automatic success, RULING P-4) and the rule."""

    sequence: int
    candidate: PromotionCandidate | None
    fighter_id: int
    face: int | None
    roll: PostGameRoll | None
    success: bool
    tally_after: int
    rule: str = ""

    @property
    def dice(self) -> DiceRoll | None:
        return self.roll.dice_roll if self.roll is not None else None


def tally_words(tally: int) -> str:
    """The warband's tally in words, with the die that will promote without a roll (RULING P-4)."""
    words = f"Failed Promotion Dice in a row: {tally} of {rules.AUTOMATIC_AFTER}"
    if tally == 0:
        return words
    until = rules.dice_until_automatic(failed_before=tally)
    if until == 1:
        return f"{words}: the next die promotes without a roll (RULING P-4)"
    return f"{words}: the {ordinal(until)} die from now promotes without a roll (RULING P-4)"


@dataclass
class PromotionCandidate:
    """A model that may take Promotion Dice: a Troop, or a Head-Wounded ELITE model (RULING P-6)."""

    fighter: Fighter
    head_wounded: bool
    glorious_deed: bool
    dice: int = 0  # assigned
    rolled: int = 0
    error: str | None = None  # a refused assignment's reason, beside its field

    @property
    def id(self) -> int:
        return self.fighter.pk

    @property
    def key(self) -> str:
        """The model's id as the engine's functions take it."""
        return str(self.fighter.pk)

    @property
    def name(self) -> str:
        return self.fighter.name

    @property
    def dice_left(self) -> int:
        return max(0, self.dice - self.rolled)


@dataclass
class PromotionsRead:
    """Everything the Promotions page shows and the Apply writes."""

    won: bool
    glorious_deeds: int
    elite_count: int
    extra: int
    pool: int
    pool_words: str
    tally_before: int
    candidates: list[PromotionCandidate] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    dice: list[PromotionDie] = field(default_factory=list)
    result: rules.PromotionResult | None = None
    passed: bool = False
    chance: Fraction | None = None

    @property
    def assigned(self) -> int:
        return sum(candidate.dice for candidate in self.candidates)

    @property
    def dice_left(self) -> int:
        return 0 if self.promoted is not None else sum(c.dice_left for c in self.candidates)

    @property
    def promoted(self) -> PromotionCandidate | None:
        winner = self.result.promoted if self.result is not None else None
        return next((c for c in self.candidates if c.key == winner), None)

    @property
    def success_die(self) -> PromotionDie | None:
        return next((die for die in self.dice if die.success), None)

    @property
    def tally_now(self) -> int:
        """The warband's tally of failed Promotion Dice after the dice rolled so far (RULING P-4)."""
        return self.result.failed_after if self.result is not None else self.tally_before

    @property
    def tally_after(self) -> int:
        return self.tally_now

    @property
    def next_sequence(self) -> int:
        return len(self.dice) + 1

    @property
    def automatic_next(self) -> bool:
        """The next die is the automatic success: it is not rolled (RULING P-4)."""
        return self.tally_now == rules.AUTOMATIC_AFTER

    @property
    def started(self) -> bool:
        return bool(self.dice)

    @property
    def nothing_to_do(self) -> bool:
        return self.pool == 0 or not self.candidates

    @property
    def outstanding(self) -> bool:
        """Assigned dice left to roll, and no success yet (RULING P-3: only a success ends the rolling early)."""
        return self.dice_left > 0

    @property
    def tally_words(self) -> str:
        return tally_words(self.tally_now)

    @property
    def tally_change_words(self) -> str:
        return (
            f"Failed Promotion Dice in a row: {self.tally_before} → {self.tally_after} of {rules.AUTOMATIC_AFTER} "
            "(RULING P-4)"
        )

    @property
    def chance_words(self) -> str | None:
        if self.chance is None:
            return None
        left = self.dice_left
        dice = "die" if left == 1 else "dice"
        return (
            f"Chance of a promotion with the {left} {dice} left: {rules.format_odds(self.chance)} "
            "(RULINGS P-3 and P-4)"
        )


def pool_words(read: PromotionsRead, terms) -> str:
    """The pool in words, as RULING P-1 adds it up (or why it is 0, RULING P-5)."""
    if read.pool == 0:
        return (
            f"Promotion Pool: 0 dice — {read.elite_count} {terms.elite} models on the roster, at most "
            f"{rules.MAX_ELITE} (RULING P-5)"
        )
    parts = ["1"]
    if read.won:
        parts.append("1 for the win")
    if read.glorious_deeds:
        parts.append(f"{read.glorious_deeds} for Glorious Deeds")
    if read.extra:
        parts.append(f"{read.extra} from abilities")
    dice = "die" if read.pool == 1 else "dice"
    return f"Promotion Pool: {' + '.join(parts)} = {read.pool} {dice} (RULING P-1)"


def promotion_candidates(
    state: PostGameState, answers: dict[int, PostGameFighter], removed: set[int]
) -> list[PromotionCandidate]:
    """The Troops that may be promoted, and the Head-Wounded ELITE models (RULING P-6), after the Trauma Step."""
    data = None  # read only when some model could take dice (one query)
    outcomes = {c.id: c.outcome for c in state.casualties if c.outcome is not None}
    candidates = []
    for fighter in state.fighters:
        answer = answers.get(fighter.pk)
        if not fighter.is_active or fighter.pk in removed or is_reopened(answer):
            continue
        outcome = outcomes.get(fighter.pk)
        may_take = partial(
            may_take_promotion_dice,
            elite=fighter.counts_as_elite,
            can_gain_xp=outcome.can_gain_xp if outcome is not None else fighter.can_gain_xp,
            keywords=fighter.keywords,
            dismissed=answer is not None and answer.dismissed,
        )
        if not may_take():
            continue
        # The campaign data the post-game reads (`post_game_state`), or the current data when read alone: read only
        # once some model could take dice (one query), for the flag of fighter types that can never be promoted.
        data = (
            data
            if data is not None
            else (state.campaign_data or current_campaign_data(campaign=state.campaign))
        )
        if not may_take(never_promoted=data.never_promoted(fighter.fighter_type)):
            continue
        elite = fighter.counts_as_elite
        deed = answer is not None and answer.glorious_deeds > 0
        dice = answer.promotion_dice if answer is not None else 0
        candidates.append(PromotionCandidate(fighter, head_wounded=elite, glorious_deed=deed, dice=dice))
    return candidates


def named(problem: str, names: dict[str, str]) -> str:
    """An engine message with each model id replaced by the fighter's name."""
    for key, name in names.items():
        problem = problem.replace(repr(key), name)
    return problem


def assignment_problems(
    assignment: dict[str, int], *, pool: int, candidates: list[PromotionCandidate], names: dict[str, str]
) -> list[tuple[str | None, str]]:
    """RULING P-2's breaches of an assignment, each with the model it names (None for the pool)."""
    eligible = {candidate.key: candidate.glorious_deed for candidate in candidates}
    problems = rules.promotion_dice_problems(assignment, pool=pool, eligible=eligible)
    found = []
    for problem in problems:
        key = next((key for key in names if repr(key) in problem), None)
        found.append((key, named(problem, names)))
    return found
