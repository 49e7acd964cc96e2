"""The post-game's Dismiss the wounded step: fighters with 2 or more Battle Scars dismissed (CAMPAIGN_PHASE.md).

CAMPAIGN_PHASE.md, "The order of the steps": "After the Trauma Step, a player may also dismiss any fighter with 2
or more Battle Scars." Only the answers are stored (`PostGameFighter.dismissed`, `PostGame.dismiss_passed`); a
dismissal is a change of the fighter's row like the Trauma Step's (status Dismissed, its Battlekit to the Arsenal
as RULING T-4 sends an Unfit For Duty fighter's), so the Apply's fighters and Battlekit parts write it and the
Revert's put it back from the same snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from combat import rules
from combat.selectors.post_game.base import StepRead
from combat.selectors.post_game.changes import FighterChange, fighter_change, is_reopened, with_change
from rosters.models import Fighter, Item

if TYPE_CHECKING:
    from combat.models import PostGameFighter
    from combat.selectors.post_game.base import PostGameState


@dataclass
class DismissCandidate:
    """A fighter that may be dismissed: its Battle Scars after this post-game's Trauma Step."""

    fighter: Fighter
    scars: int
    dismissed: bool
    promotion_dice: int = 0
    to_arsenal: list[Item] = field(default_factory=list)
    lost: list[Item] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.fighter.pk

    @property
    def name(self) -> str:
        return self.fighter.name


@dataclass
class DismissRead:
    candidates: list[DismissCandidate] = field(default_factory=list)
    passed: bool = False

    @property
    def dismissed(self) -> list[DismissCandidate]:
        return [candidate for candidate in self.candidates if candidate.dismissed]


def _kit_fate(change: FighterChange | None, fighter: Fighter) -> tuple[list[Item], list[Item]]:
    """Its Battlekit not already lost or sent away by the Trauma Step, to the Arsenal as for Unfit For Duty
    (RULING T-4): `rules.battlekit_fate` keeps what cannot be removed with the model."""
    gone = {item.pk for item in (change.to_arsenal + change.lost)} if change is not None else set()
    items = [item for item in fighter.battlekit.all() if item.pk not in gone]
    pieces = [rules.KitPiece(item.name, tuple(item.keywords), item.removable) for item in items]
    fates = rules.battlekit_fate("arsenal", pieces, removed=True)
    to_arsenal = [item for item, fate in zip(items, fates, strict=True) if fate == rules.ARSENAL]
    lost = [item for item, fate in zip(items, fates, strict=True) if fate == rules.LOST]
    return to_arsenal, lost


def _candidates(state: PostGameState, answers: dict[int, PostGameFighter]) -> list[DismissCandidate]:
    changes = {change.fighter.pk: change for change in state.changes}
    candidates = []
    for fighter in state.fighters:
        change, answer = changes.get(fighter.pk), answers.get(fighter.pk)
        if is_reopened(answer):
            continue
        # Off the roster before this game, or removed by its Trauma Step: nobody left to dismiss.
        on_roster = fighter.is_active and (change is None or change.status == Fighter.Status.ACTIVE)
        scars = change.battle_scars if change is not None else fighter.battle_scars
        if not rules.may_dismiss(battle_scars=scars, on_roster=on_roster):
            continue
        candidate = DismissCandidate(
            fighter,
            scars,
            dismissed=answer is not None and answer.dismissed,
            promotion_dice=answer.promotion_dice if answer is not None else 0,
        )
        candidate.to_arsenal, candidate.lost = _kit_fate(change, fighter)
        candidates.append(candidate)
    return candidates


def _dismiss(state: PostGameState, changes: tuple, candidate: DismissCandidate) -> FighterChange:
    """The dismissal as a change of the fighter's row (status) and of its Battlekit (to the Arsenal): a copy of
    its change so far."""
    change = fighter_change(changes, candidate.fighter)
    change.status = Fighter.Status.DISMISSED
    change.to_arsenal = change.to_arsenal + candidate.to_arsenal
    change.lost = change.lost + candidate.lost
    terms = state.terms
    sentence = rules.explain_dismissal(battle_scars=candidate.scars)
    if candidate.to_arsenal:
        names = ", ".join(item.name for item in candidate.to_arsenal)
        sentence += f" {terms.battlekit} to the {terms.arsenal}: {names}."
    change.sentences.append(sentence)
    return change


def read(state: PostGameState) -> StepRead:
    """The step's part; each dismissal becomes a change of the fighter's row and Battlekit."""
    live = state.post_game
    step = DismissRead(
        _candidates(state, state.answers), passed=bool(live is not None and live.dismiss_passed)
    )
    changes = state.changes
    for candidate in step.dismissed:
        changes = with_change(changes, _dismiss(state, changes, candidate))
    return StepRead(step, changes=changes)


def done(state: PostGameState) -> bool:
    """Nobody may be dismissed, or the page was passed (dismissing is optional)."""
    step = state.dismiss
    return step is None or not step.candidates or step.passed
