"""What "as if the right die had been typed" is checked against: the roster a post-game typed right from
the start gives, worked out inside a savepoint that is rolled back, so the same game can then be corrected."""

from django.db import transaction

from combat.models import DiceRoll, PostGameRoll
from combat.services.post_game.apply import post_game_apply
from combat.tests.post_game_helpers import enter, roster_snapshot


class _Undo(Exception):  # noqa: N818 - raised only to roll the savepoint back
    pass


def comparable(*warbands) -> dict:
    """Every field of the fighters, Battlekit and Strongboxes; Injuries as (fighter, code, D66), their ids and
    creation times aside."""
    snapshot = roster_snapshot(*warbands)
    injuries = snapshot.pop("injuries")
    snapshot["injuries"] = sorted((row["fighter_id"], row["code"], row["d66"]) for row in injuries.values())
    return snapshot


def typed_right(after, script, *, by, warbands, before_apply=None) -> dict:
    """The roster after typing `script` ([(fighter, faces), ...] in order) and applying, then rolled back."""
    result = {}
    try:
        with transaction.atomic():
            for fighter, faces in script:
                enter(after, fighter, *faces, by=by)
            if before_apply is not None:
                before_apply()
            post_game_apply(player=after.player, by=by)
            result = comparable(*warbands)
            raise _Undo
    except _Undo:
        pass
    return result


def type_script(after, script, *, by) -> None:
    for fighter, faces in script:
        enter(after, fighter, *faces, by=by)


def dice_of(fighter, purpose: str, sequence: int = 1) -> DiceRoll:
    """The roll the post-game counts now for this fighter, purpose and sequence."""
    link = PostGameRoll.objects.select_related("dice_roll").get(
        fighter=fighter, purpose=purpose, sequence=sequence
    )
    return link.dice_roll


def serial_ends(orders, *, warbands, refusal) -> list[dict]:
    """The roster each serial order of calls leaves, every order worked out in a savepoint that is rolled back: what
    a race of the same calls may end in, and nothing else. A call refused (`refusal`, a domain error) changes
    nothing, as in the race."""
    ends = []
    for order in orders:
        try:
            with transaction.atomic():
                for call in order:
                    try:
                        with transaction.atomic():
                            call()
                    except refusal:
                        pass
                ends.append(comparable(*warbands))
                raise _Undo
        except _Undo:
            pass
    return ends
