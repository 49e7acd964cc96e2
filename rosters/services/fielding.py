"""The fighters a warband fields for a battle, checked against that battle's Threshold Value and
Field Strength (CAMPAIGN_PHASE.md: "The Threshold Value is the most a warband may field, in ducats; the Field
Strength the most models it may field"; RULING C-1 for which battle). The engine decides the numbers."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.postgres.aggregates import ArrayAgg
from django.db import transaction
from django.db.models import Q

from campaigns.models import Game, GamePlayer
from combat.rules import RosterFighter, campaign_limits, warband_value
from combat.rules.campaign_limits import OVER_FIELD_STRENGTH, OVER_THRESHOLD, fielding_breaches, next_battle
from rosters.models import Fighter
from rosters.services.common import change_context
from rosters.services.errors import RosterRefused


def _battle(player: GamePlayer) -> int | None:
    """This game's battle number for the warband: its battles played before it, plus one (C-1)."""
    before = (
        GamePlayer.objects.filter(warband=player.warband, game__number__lt=player.game.number)
        .exclude(game__status=Game.Status.IN_PROGRESS)
        .count()
    )
    return next_battle(battles_played=before)


@transaction.atomic
def game_field(*, player: GamePlayer, fighter_ids: Iterable[int], by) -> list[Fighter]:
    """Field these fighters of the warband for the game; refused (nothing changed) for a fighter not on its
    active roster, or a list over the battle's Threshold Value or Field Strength when the campaign uses them."""
    player = (
        GamePlayer.objects.select_for_update(of=("self",))
        .select_related("game__campaign", "warband")
        .get(pk=player.pk)
    )
    warband, campaign = player.warband, player.game.campaign
    wanted = set(fighter_ids)
    fighters = list(
        Fighter.objects.filter(warband=warband, status=Fighter.Status.ACTIVE, pk__in=wanted)
        .annotate(kit=ArrayAgg("battlekit__cost", filter=Q(battlekit__isnull=False), default=[]))
        .order_by("id")
    )
    if len(fighters) != len(wanted):
        raise RosterRefused(f"Field only fighters on {warband.name}'s active roster.")
    battle = _battle(player)
    if campaign.uses_limits and battle is not None:
        limits = campaign_limits(battle=battle, starting_value=warband.starting_value)
        value = warband_value(RosterFighter(cost=f.cost, battlekit=tuple(f.kit)) for f in fighters)
        models = sum(f.unit_size for f in fighters)
        terms = campaign.terms
        breaches = fielding_breaches(limits=limits, value=value, models=models)
        if OVER_THRESHOLD in breaches:
            raise RosterRefused(
                f"These fighters are worth {value} {terms.currency}: over the Threshold Value of "
                f"{limits.threshold} for battle {battle} (RULING C-1).",
                code="over_threshold",
            )
        if OVER_FIELD_STRENGTH in breaches:
            raise RosterRefused(
                f"{models} models: over the Field Strength of {limits.field_strength} for battle {battle} "
                "(RULING C-1).",
                code="over_field_strength",
            )
    with change_context(
        action="game.field",
        reason=f"{by} fielded {len(fighters)} fighters of {warband.name} in Game {player.game.number}",
        by=by,
        warband=warband,
        game=player.game,
    ):
        player.fielded.set(fighters)
    return fighters
