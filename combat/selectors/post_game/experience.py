"""Step 4 of the post-game, Experience: for each fighter, what took part and survived means here, and the XP the
rules engine awards for it (`rules.post_game_experience`, RULINGS X-4 and T-9), in the page's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from combat import rules
from combat.models import PostGameFighter
from combat.rules.words import possessive
from rosters.models import Fighter

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState
    from combat.selectors.post_game.trauma import CasualtyState


@dataclass
class XpLine:
    """The Experience one fighter earns in this post-game: the engine's award (`rules.post_game_experience`) and
    the reason in the page's words."""

    fighter: Fighter
    elite: bool
    out_of_action: bool
    took_part: bool
    survived: bool | None  # None: its Trauma roll is not made yet
    can_gain_xp: bool
    award: rules.ExperienceAward
    words: str = ""
    deeds_entered: int = 0  # as the player typed them, counted or not
    adjustment_entered: int = 0
    # RULINGS: the engine's new total (Limited Potential stops at 7) and the thresholds it reaches.
    limited_potential: bool = False
    gain: rules.XpGain | None = None
    marks: tuple[int, ...] = ()

    @property
    def id(self) -> int:
        return self.fighter.pk

    @property
    def base(self) -> int:
        return self.award.base

    @property
    def deeds(self) -> int:
        return self.award.glorious_deeds

    @property
    def bitter(self) -> int:
        return self.award.bitter_lessons

    @property
    def adjustment(self) -> int:
        return self.award.adjustment

    @property
    def total(self) -> int:
        return self.award.total

    @property
    def xp_after(self) -> int:
        if self.gain is not None:
            return self.gain.xp
        return self.fighter.xp + self.total  # an organiser's adjustment down: no threshold reached

    @property
    def capped(self) -> bool:
        """Limited Potential kept it below what it earned (RULING X-2)."""
        return self.gain is not None and self.gain.xp < self.fighter.xp + self.total


def experience_words(
    award: rules.ExperienceAward, *, elite_word: str, elite: bool = True, troop_word: str = "Troop"
) -> str:
    """The award of `rules.post_game_experience` in the Experience step's words (RULING X-4's, from the engine)."""
    if award.reason == "removed":
        return "No XP: removed from the roster."
    if award.reason == "pending":
        words = "Waiting for its Trauma Step."
    elif award.reason == "did_not_take_part":
        words = "Did not take part: no XP."
    elif award.reason == "cannot_gain_xp":
        words = "No XP: it can no longer gain XP (Head Wound; RULING T-9)."
    elif not elite:
        # RULING X-4: a Troop gains no XP from the game; its Deeds are the Promotion Pool's (P-1).
        words = f"No XP for a {troop_word}: its {rules.TROOP_DEEDS_WORDS}."
    else:
        parts = []
        if award.base:
            parts.append(f"{rules.XP_FOR_TAKING_PART_WORDS} as {elite_word}")
        if award.glorious_deeds:
            parts.append(rules.XP_FOR_DEEDS_WORDS)
        if award.bitter_lessons:
            parts.append(f"+{award.bitter_lessons} from Bitter Lessons")
        words = "; ".join(parts) + "." if parts else "No XP this game."
    if award.adjustment:
        words += f" The organiser adjusted it by {award.adjustment:+d}."
    return words


def _took_part(state: PostGameState, fighter: Fighter, out: bool, answer: PostGameFighter | None) -> bool:
    if out:
        return True
    if answer is not None:
        return answer.took_part
    # A fighter that joined the roster after the game was recorded cannot have taken part in it.
    return fighter.created_at <= state.game.created_at


def experience_line(
    state: PostGameState, fighter: Fighter, casualty: CasualtyState | None, answer: PostGameFighter | None
) -> tuple[XpLine, str | None]:
    """One fighter's Experience line: the engine's award for what happened to it in this game; and why its XP
    cannot be counted, if so."""
    elite = fighter.counts_as_elite
    out = casualty is not None
    took_part = _took_part(state, fighter, out, answer)
    outcome = casualty.outcome if casualty is not None else None
    if out and (outcome is None or outcome.pending):
        survived = None
    else:
        survived = not (outcome is not None and outcome.removed)
    can_gain = outcome.can_gain_xp if outcome is not None else fighter.can_gain_xp
    award = rules.post_game_experience(
        elite=elite,
        took_part=took_part,
        survived=survived,
        can_gain_xp=can_gain,
        glorious_deeds=answer.glorious_deeds if answer is not None else 0,
        bitter_lessons=outcome.xp_gained if outcome is not None else 0,
        adjustment=answer.xp_adjustment if answer is not None else 0,
    )
    line = XpLine(
        fighter,
        elite,
        out,
        took_part,
        survived,
        can_gain,
        award,
        words=experience_words(
            award, elite_word=state.terms.elite, elite=elite, troop_word=state.terms.troop
        ),
    )
    if answer is not None:
        line.deeds_entered, line.adjustment_entered = answer.glorious_deeds, answer.xp_adjustment
    return line, _limits(state, line)


def _limits(state: PostGameState, line: XpLine) -> str | None:
    """The XP through the engine's limits (`rules.gain_xp`): RULING X-2 for a Limited Potential fighter type (the
    campaign data's flag), and the thresholds reached (X-1) by an ELITE model (X-4). A fighter recorded past 7 XP with Limited Potential
    is told as a blocker, not lowered."""
    fighter = line.fighter
    data = state.campaign_data
    line.limited_potential = data is not None and data.limited_potential(fighter.fighter_type)
    if line.total < 0 or fighter.xp < 0:
        return None
    try:
        # RULING X-4: a Troop's XP (the organiser's adjustment) makes no Skill Advancement Roll due.
        limits = {"limited_potential": line.limited_potential, "elite": line.elite}
        line.gain = rules.gain_xp(fighter.xp, line.total, **limits)
        line.marks = rules.advancement_marks(fighter.xp, line.total, **limits)
    except ValueError as error:
        return f"{possessive(fighter.name)} XP cannot be counted: {error}."
    if line.capped:
        line.words += f" {line.gain.xp} XP: Limited Potential, no higher (RULING X-2)."
    return None


def experience(state: PostGameState) -> tuple[tuple[XpLine, ...], tuple[str, ...]]:
    """Every fighter's Experience line, and what stops the Apply: a line that would leave its XP below 0."""
    by_id = {casualty.id: casualty for casualty in state.casualties}
    lines, blockers = [], []
    for fighter in state.fighters:
        casualty = by_id.get(fighter.pk)
        if casualty is None and not fighter.is_active:
            continue
        line, problem = experience_line(state, fighter, casualty, state.answers.get(fighter.pk))
        lines.append(line)
        if problem:
            blockers.append(problem)
        if line.xp_after < 0:
            blockers.append(
                f"{possessive(fighter.name)} XP would fall below 0: change the organiser's adjustment."
            )
    return tuple(lines), tuple(blockers)
