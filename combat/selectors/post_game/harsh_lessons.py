"""The post-game's Harsh Lessons step: the crew's XP from a game (Fallout: Factions, 000_57a9b0f426546aa5.txt
"Experience: Harsh Lessons": "If a Champion is Incapacitated, its crew earns 1 XP. Each crew can only benefit from
this rule once per game."; RULING D-11), recorded per crew and per game.

A game played on the board earned it there, and the board's end added it to the crew's XP: the step shows that
and adds nothing (once per game). A game recorded by hand has only its Out of Action list, which in Fallout:
Factions holds the Incapacitated (RULING D-9: a model that Fled is not Out of Action): a Champion on it earns the
crew its 1 XP at the Apply (`rules.harsh_lessons_after_game` decides; combat/services/post_game/harsh_lessons.py
writes it and takes it back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from combat import rules
from combat.models import TrackerGame
from combat.selectors.post_game.base import PostGameStep, StepRead

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState


@dataclass(frozen=True)
class HarshLessonsRead:
    """The crew's Harsh Lessons in this game: the engine's award, its Champions taken Out of Action, its crew XP
    before and after the Apply."""

    award: rules.HarshLessonsAward
    champions: tuple[str, ...]
    crew_xp_before: int

    @property
    def crew_xp_after(self) -> int:
        return self.crew_xp_before + self.award.xp


def earned_on_the_board(state: PostGameState) -> bool:
    """Whether the game's board already gave this crew its Harsh Lessons XP (one query)."""
    board = TrackerGame.objects.filter(game_id=state.game.pk).values_list("harsh_lessons", flat=True).first()
    return board is not None and state.warband.pk in board


def read(state: PostGameState) -> StepRead:
    """The crew's Harsh Lessons XP as the engine decides it from the Out of Action list and the board."""
    if state.problem:
        return StepRead()
    # The post-game's one mapping of who counts as a Champion (RULING T-1: a Champion, or the ELITE keyword).
    champions = tuple(fighter.name for fighter in state.out_of_action if fighter.counts_as_elite)
    award = rules.harsh_lessons_after_game(
        crew=state.warband.name, champions=champions, earned_on_the_board=earned_on_the_board(state)
    )
    return StepRead(HarshLessonsRead(award, champions, state.warband.crew_xp))


def done(state: PostGameState) -> bool:
    """Nothing to answer: done once the post-game started (the Out of Action list confirmed)."""
    return state.post_game is not None


STEP = PostGameStep(
    "harsh-lessons",
    "Harsh Lessons",
    "post_game_harsh_lessons",
    done,
    read=read,
    apply="combat.services.post_game.harsh_lessons.apply_part",
    revert="combat.services.post_game.harsh_lessons.revert_part",
    summary="combat.services.post_game.harsh_lessons.summary_part",
    view="combat.views.post_game.crew.post_game_harsh_lessons",
)
