"""Writes for Injuries: a Trauma Table result a fighter keeps, recorded or struck off."""

from typing import Any

from django.db import transaction

from campaigns.models import Game
from rosters.models import Fighter, Injury
from rosters.services.common import change_context
from rosters.services.errors import RosterRefused


@transaction.atomic
def injury_add(
    *,
    fighter: Fighter,
    by,
    code: str,
    name: str,
    effect: str = "",
    game: Game | None = None,
    d66: int | None = None,
    reason: str = "",
    **context: Any,
) -> Injury:
    """Record a Trauma Table result the fighter keeps (by hand, or from the post-game with `game` and `d66`)."""
    fighter = Fighter.objects.select_related("warband").get(pk=fighter.pk)
    if game is not None and game.campaign_id != fighter.warband.campaign_id:
        raise RosterRefused("That game is not in this fighter's campaign.")
    injury = Injury(
        fighter=fighter, code=code.strip(), name=name.strip(), effect=effect.strip(), game=game, d66=d66
    )
    injury.full_clean()
    suffix = f" (D66 {d66})" if d66 else ""
    with change_context(
        action=context.pop("action", "injury.add"),
        reason=reason or f"{fighter.name} suffered {injury.name}{suffix}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
        game=game,
        **context,
    ):
        injury.save()
    return injury


@transaction.atomic
def injury_remove(*, injury: Injury, by, reason: str = "") -> None:
    """Strike an Injury off (a mistake, or a rule that heals it)."""
    injury = Injury.objects.select_related("fighter__warband").get(pk=injury.pk)
    fighter = injury.fighter
    with change_context(
        action="injury.remove",
        reason=reason or f"{by} struck {injury.name} off {fighter.name}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        injury.delete()
