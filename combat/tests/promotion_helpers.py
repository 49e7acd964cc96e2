"""A played game whose post-game reaches the Promotions and Dismiss steps, for their service and view tests.

Nobody is taken Out of Action unless a test says so, so the Trauma Step has nothing to roll and the later steps
open at once; dice are typed in (RULING T-7), so each outcome is known.
"""

from combat.selectors.post_game.out_of_action import post_game_player
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.promotions import (
    post_game_assign_promotion_dice,
    post_game_promotion_roll,
)


def step(after):
    """The Promotions step as the page reads it."""
    return after.state().promotions


def fresh_player(after):
    return post_game_player(game_id=after.game.pk, warband_id=after.player.warband_id)


def assign(after, by, dice: dict, *, extra: int = 0):
    """Assign `dice` ({fighter: count}) and the extra dice from abilities."""
    return post_game_assign_promotion_dice(
        player=fresh_player(after), by=by, assignment={f.pk: n for f, n in dice.items()}, extra=extra
    )


def promotion_die(after, fighter, face: int | None, *, by, sequence: int | None = None):
    """The next Promotion Die, for `fighter`, typed in (`face`), or rolled by the server (None)."""
    if sequence is None:
        sequence = post_game_state(player=fresh_player(after)).promotions.next_sequence
    return post_game_promotion_roll(
        player=fresh_player(after),
        fighter_id=fighter.pk,
        sequence=sequence,
        faces=None if face is None else [face],
        by=by,
    )


def deeds(after, by, answers: dict):
    """Glorious Deeds ({fighter: count}) recorded on the Experience step."""
    post_game_record_experience(
        player=fresh_player(after),
        by=by,
        answers={f.pk: ExperienceAnswer(glorious_deeds=n) for f, n in answers.items()},
    )
