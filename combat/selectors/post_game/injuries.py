"""The post-game's Injuries step: the Injuries each fighter carries on the roster (Fallout: Factions,
000_57a9b0f426546aa5.txt "Injury": "Whenever a model suffers an Injury, mark one of the Injury Boxes on its Model
Entry").

Fallout: Factions' campaign rules are not among the project's texts: nothing in its post-game rolls, heals or
worsens an Injury, so the roster's stay as they are and the step only shows them. A group that wants the Trench
Crusade Trauma Table after its games switches it on as a house rule (combat/rules/post_game_steps.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from combat.selectors.post_game.base import PostGameStep, StepRead
from rosters.models import Fighter, Injury

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState


@dataclass(frozen=True)
class CarriedInjuries:
    """A fighter and the Injuries its roster entry carries."""

    fighter: Fighter
    injuries: tuple[Injury, ...]
    out_of_action: bool


def read(state: PostGameState) -> StepRead:
    """Each fighter of the crew with the Injuries the roster carries (one query, whatever the crew's size)."""
    if state.problem:
        return StepRead()
    carried: dict[int, list[Injury]] = {}
    for injury in Injury.objects.filter(fighter__in=[fighter.pk for fighter in state.fighters]).order_by(
        "id"
    ):
        carried.setdefault(injury.fighter_id, []).append(injury)
    out = {fighter.pk for fighter in state.out_of_action}
    rows = tuple(
        CarriedInjuries(fighter, tuple(carried.get(fighter.pk, ())), fighter.pk in out)
        for fighter in state.fighters
    )
    return StepRead(rows)


def done(state: PostGameState) -> bool:
    """Nothing to answer: done once the post-game started."""
    return state.post_game is not None


STEP = PostGameStep(
    "injuries",
    "Injuries",
    "post_game_injuries",
    done,
    read=read,
    view="combat.views.post_game.crew.post_game_injuries",
)
