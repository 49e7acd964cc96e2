"""The post-game's Promotions step: the Promotion Pool, its dice assigned and rolled (RULINGS P-1 to P-7).

Only the answers are stored (`PostGame.promotion_extra`, each `PostGameFighter.promotion_dice`, the model given
the automatic success) and the faces rolled (`PostGameRoll`, purpose `promotion`, `sequence` the die's place in
the warband's rolling order). Everything else is worked out again here by the engine from those rows:
`rules.promotion_pool`, `rules.promotion_dice_problems`, `rules.roll_promotions`, `rules.promotion_chance`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from campaigns.models import GamePlayer
from campaigns.words import possessive
from combat import rules
from combat.models import DiceRoll, PostGameRoll
from combat.selectors.campaign_data import current_campaign_data
from combat.selectors.post_game.changes import FighterChange, is_reopened
from combat.selectors.post_game.rolls import LoggedRoll
from rosters.models import Fighter

if TYPE_CHECKING:
    from combat.models import PostGameFighter
    from combat.selectors.post_game.state import PostGameState

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(number: int) -> str:
    return ORDINALS[number - 1] if 1 <= number <= len(ORDINALS) else f"{number}th"


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


def tally_words(tally: int) -> str:
    """The warband's tally in words, with the die that will promote without a roll (RULING P-4)."""
    words = f"Failed Promotion Dice in a row: {tally} of {rules.AUTOMATIC_AFTER}"
    if tally == 0:
        return words
    until = rules.dice_until_automatic(failed_before=tally)
    if until == 1:
        return f"{words}: the next die promotes without a roll (RULING P-4)"
    return f"{words}: the {ordinal(until)} die from now promotes without a roll (RULING P-4)"


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


def _candidates(
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
        if answer is not None and answer.dismissed:
            continue  # a dismissed fighter gets no Promotion Dice
        outcome = outcomes.get(fighter.pk)
        can_gain_xp = outcome.can_gain_xp if outcome is not None else fighter.can_gain_xp
        elite = fighter.counts_as_elite
        if elite and can_gain_xp:
            continue
        # The campaign data the post-game reads (`post_game_state`), or the current data when read alone.
        data = (
            data
            if data is not None
            else (state.campaign_data or current_campaign_data(campaign=state.campaign))
        )
        # CAMPAIGN_PHASE.md: "Some fighter types can never be promoted (campaign data: a flag on the fighter type)".
        if data.never_promoted(fighter.fighter_type):
            continue
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


def _stored_dice(state: PostGameState) -> list[PostGameRoll]:
    """The dice that count, in rolling order; none before the dice are assigned (no query then)."""
    if state.post_game is None or not state.post_game.promotions_passed:
        return []
    return list(
        PostGameRoll.objects.filter(
            post_game=state.post_game,
            purpose=PostGameRoll.Purpose.PROMOTION,
            dice_roll__status=DiceRoll.Status.COUNTED,
        )
        .select_related("dice_roll__rolled_by", "dice_roll__replaces__status_by")
        .order_by("sequence")
    )


def applied_dice(post_game) -> list[LoggedRoll]:
    """An applied post-game's Promotion Dice that count, in rolling order, for the overview's fix forms (issue
    11): one query, none when no die was assigned."""
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


def _read_dice(state: PostGameState, read: PromotionsRead, names: dict[str, str]) -> None:
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


def promotions(state: PostGameState, answers: dict[int, PostGameFighter]) -> PromotionsRead:
    """The step worked out from the stored rows (three queries: campaign data, the dice; the names are loaded)."""
    removed = {change.fighter.pk for change in state.changes if change.status != Fighter.Status.ACTIVE}
    live = state.post_game
    elite_count = sum(1 for f in state.fighters if f.is_active and f.pk not in removed and f.counts_as_elite)
    won = state.player.result == GamePlayer.Result.WIN
    deeds = sum(answer.glorious_deeds for answer in answers.values())
    extra = live.promotion_extra if live is not None else 0
    pool = rules.promotion_pool(won=won, glorious_deeds=deeds, elite_count=elite_count, extra=extra)
    read = PromotionsRead(
        won,
        deeds,
        elite_count,
        extra,
        pool,
        "",
        state.warband.promotion_tally,
        passed=bool(live is not None and live.promotions_passed),
    )
    read.pool_words = pool_words(read, state.terms)
    read.candidates = _candidates(state, answers, removed)
    names = {str(fighter.pk): fighter.name for fighter in state.fighters}
    assignment = {
        str(answer.fighter_id): answer.promotion_dice for answer in answers.values() if answer.promotion_dice
    }
    for key, problem in assignment_problems(assignment, pool=pool, candidates=read.candidates, names=names):
        read.problems.append(problem)
        candidate = next((c for c in read.candidates if c.key == key), None)
        if candidate is not None:
            candidate.error = problem
    _read_dice(state, read, names)
    if read.dice_left and not read.automatic_next:
        read.chance = rules.promotion_chance(dice=read.dice_left, failed_before=read.tally_now)
    elif read.dice_left:
        read.chance = Fraction(1)
    return read


def _change_for(state: PostGameState, fighter: Fighter) -> FighterChange:
    change = next((change for change in state.changes if change.fighter.pk == fighter.pk), None)
    if change is None:
        change = FighterChange(
            fighter,
            status=fighter.status,
            battle_scars=fighter.battle_scars,
            can_gain_xp=fighter.can_gain_xp,
            misses_next_game=fighter.misses_next_game,
            xp=fighter.xp,
        )
        state.changes.append(change)
    return change


def promotion_sentence(read: PromotionsRead, terms) -> str | None:
    """The promotion (or the XP gain restored) in one sentence, naming the die and the ruling."""
    candidate, die = read.promoted, read.success_die
    if candidate is None or die is None:
        return None
    own = sum(1 for d in read.dice[: die.sequence] if d.fighter_id == candidate.id)
    which = f"{ordinal(own)} Promotion Die"
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


def read(state: PostGameState, answers: dict[int, PostGameFighter]) -> None:
    """Fill `state.promotions`, the promoted model's sentence, and what still stops the Apply."""
    step = promotions(state, answers)
    state.promotions = step
    for problem in step.problems:
        state.blockers.append(f"Promotions: {problem}")
    if step.outstanding and step.assigned and not step.problems:
        dice = "die" if step.dice_left == 1 else "dice"
        state.blockers.append(
            f"Promotions: {step.dice_left} assigned Promotion {dice} still to roll (RULING P-3)."
        )
    sentence = promotion_sentence(step, state.terms)
    if sentence is not None:
        _change_for(state, step.promoted.fighter).sentences.append(sentence)


def done(state: PostGameState) -> bool:
    """Nothing to do (no pool, no model to promote), or the dice assigned and all rolled (or a success)."""
    step = state.promotions
    if step is None or step.nothing_to_do:
        return True
    return step.passed and not step.outstanding and not step.problems
