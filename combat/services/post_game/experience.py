"""Step 4 of the post-game, Experience: who took part, each fighter's Glorious Deeds, the organiser's adjustment.

Only the answers are stored; the XP itself is worked out again by the rules engine at the Apply
(`rules.post_game_experience`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.db import transaction

from campaigns.models import GamePlayer
from combat.models import PostGame, PostGameFighter
from combat.models.postgame import MAX_GLORIOUS_DEEDS, MAX_XP_ADJUSTMENT
from combat.selectors.post_game.experience import XpLine
from combat.services.post_game.attempt import PostGameError, fighter_name, lock, open_with_state, step_context


@dataclass(frozen=True)
class ExperienceAnswer:
    took_part: bool = True
    glorious_deeds: int = 0
    xp_adjustment: int = 0


def _refuse_out_of_range(line: XpLine, answer: ExperienceAnswer, *, adjust: bool) -> None:
    deeds = answer.glorious_deeds
    if type(deeds) is not int or not 0 <= deeds <= MAX_GLORIOUS_DEEDS:
        raise PostGameError(
            f"{line.fighter.name}: Glorious Deeds must be a whole number from 0 to {MAX_GLORIOUS_DEEDS}."
        )
    if adjust and (type(answer.xp_adjustment) is not int or abs(answer.xp_adjustment) > MAX_XP_ADJUSTMENT):
        raise PostGameError(
            f"{line.fighter.name}: the adjustment must be a whole number from -{MAX_XP_ADJUSTMENT} "
            f"to {MAX_XP_ADJUSTMENT}."
        )


Answers = Mapping[int, ExperienceAnswer]


@transaction.atomic
def post_game_record_experience(
    *,
    player: GamePlayer,
    by,
    answers: Answers | Callable[[tuple[XpLine, ...]], Answers],
    adjust: bool = False,
) -> PostGame:
    """Step 4: who took part, each fighter's Glorious Deeds, and (`adjust`, the organiser) an XP adjustment.

    Only fighters of this post-game are accepted; the XP itself is worked out again at the Apply. `answers` may be
    a function of the Experience lines, read under this write's locks (the page's form, posted): the post-game is
    then read once for the form and the write, not once for each. What it raises undoes the write.
    """
    player = lock(player)
    reason = f"Post-game of Game {player.game.number}: Experience recorded for {player.warband.name}"
    with step_context(action="post_game.experience", player=player, by=by, step="experience", reason=reason):
        live, state = open_with_state(
            player, by=by, action="post_game.experience", step="experience", reason=reason
        )
        listed = {line.id: line for line in state.xp}
        if callable(answers):
            answers = answers(state.xp)
        rows = []
        for fighter_id, answer in answers.items():
            line = listed.get(fighter_id)
            if line is None:
                raise PostGameError(f"{fighter_name(player, fighter_id)} is not part of this post-game.")
            _refuse_out_of_range(line, answer, adjust=adjust)
            rows.append(
                PostGameFighter(
                    post_game=live,
                    fighter_id=fighter_id,
                    # A fighter taken Out of Action took part, whatever the box said.
                    took_part=True if line.out_of_action else bool(answer.took_part),
                    glorious_deeds=answer.glorious_deeds,
                    xp_adjustment=answer.xp_adjustment if adjust else 0,
                )
            )
        update = ["took_part", "glorious_deeds", *(["xp_adjustment"] if adjust else [])]
        PostGameFighter.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["post_game", "fighter"], update_fields=update
        )
    return live
