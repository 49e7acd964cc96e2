"""Rolls of the dice log for tests, counted or struck (voided, corrected, undone) as the services mark them."""

import datetime as dt

from django.utils import timezone

from combat.models import DiceRoll, PostGame, PostGameRoll


def make_roll(campaign, **fields) -> DiceRoll:
    values = {"source": "server", "sides": 6, "faces": [3], "purpose": "survival"}
    values.update(fields)
    return DiceRoll.objects.create(campaign=campaign, **values)


def strike(roll: DiceRoll, status: str, *, by, reason: str = "", faces=None, at=None) -> DiceRoll | None:
    """Mark `roll` as no longer counting; a voided or corrected roll gets its replacement (with `faces`), which
    is returned."""
    replacement = None
    if status in (DiceRoll.Status.VOIDED, DiceRoll.Status.CORRECTED):
        replacement = DiceRoll.objects.create(
            campaign_id=roll.campaign_id,
            game=roll.game,
            warband=roll.warband,
            fighter=roll.fighter,
            rolled_by=by,
            source=roll.source,
            sides=roll.sides,
            faces=list(faces or roll.faces),
            purpose=roll.purpose,
            label="",
        )
    roll.status = status
    roll.status_by = by
    roll.status_at = at or timezone.now()
    roll.status_reason = reason
    roll.replaced_by = replacement
    roll.save()
    return replacement


def in_post_game(roll: DiceRoll, after) -> PostGameRoll:
    """Make `roll` a roll of a (first-version, reverted) post-game attempt of `after`'s player."""
    post_game = PostGame.objects.create(
        player=after.player,
        status=PostGame.Status.REVERTED,
        reverted_at=timezone.now() - dt.timedelta(minutes=1),
    )
    return PostGameRoll.objects.create(
        post_game=post_game, fighter=roll.fighter, purpose="survival", sequence=1, dice_roll=roll
    )
