"""A warband's value against the campaign's limits: the value (RULING C-2), and the Threshold
Value and Field Strength of its next battle (C-1), all decided by the engine (`combat.rules`); read in one query
whatever the roster's size."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count

from campaigns.models import Campaign, Game, GamePlayer
from combat.rules import (
    RosterFighter,
    campaign_limits,
    late_joiner_threshold,
    late_joiner_xp,
    warband_value,
)
from combat.rules.campaign_limits import BATTLES
from rosters.models import Fighter, Warband


@dataclass(frozen=True)
class WarbandLimits:
    value: int
    models: int  # the active fighters' models (a unit counts each of its models)
    battles_played: int
    next_battle: int | None  # None after battle 12: "There is no battle 13" (RULING C-1)
    threshold: int | None
    field_strength: int | None
    enabled: bool  # the campaign's preset uses Threshold and Field Strength (a Fallout: Factions one may not)

    @property
    def over_threshold(self) -> bool:
        return self.threshold is not None and self.value > self.threshold

    @property
    def over_by(self) -> int:
        """How far the value is over the Threshold Value (0 when it is not)."""
        return max(0, self.value - self.threshold) if self.threshold is not None else 0

    @property
    def over_field_strength(self) -> bool:
        return self.field_strength is not None and self.models > self.field_strength


def battles_played(*, warband: Warband) -> int:
    """Games the warband took part in that are over (a game still being played is not yet a battle played)."""
    return GamePlayer.objects.filter(warband=warband).exclude(game__status=Game.Status.IN_PROGRESS).count()


def campaign_battles_played(*, campaign: Campaign) -> list[int]:
    """Each warband's battles played in the campaign (as `battles_played`), in one query; warbands that have
    played none are left out."""
    over = GamePlayer.objects.filter(game__campaign=campaign).exclude(game__status=Game.Status.IN_PROGRESS)
    return list(over.values("warband").annotate(played=Count("id")).values_list("played", flat=True))


@dataclass(frozen=True)
class LateJoiner:
    """What a warband founded now starts with (CAMPAIGN_PHASE.md, late joiners), decided by the engine."""

    most_played: int  # the battles of the warband that has played most
    starting_value: int  # the current Threshold Value for its own starting value (RULING C-1)
    starting_xp: int  # 1 per battle of the warband that has played most
    problem: str | None = None  # why no warband can join now

    @property
    def joins_late(self) -> bool:
        return self.most_played > 0


def late_joiner(*, campaign: Campaign, starting_value: int) -> LateJoiner:
    """A warband founded in `campaign` now, with its own `starting_value`: the starting value it builds at and the
    starting XP it may tick. A campaign whose preset leaves the Threshold off (`uses_limits`), or where no battle
    is played yet, starts it at its own starting value with no starting XP."""
    if not campaign.uses_limits:
        return LateJoiner(0, starting_value, 0)
    played = campaign_battles_played(campaign=campaign)
    most = late_joiner_xp(battles_played=played)
    try:
        threshold = late_joiner_threshold(battles_played=played, starting_value=starting_value)
    except ValueError:
        problem = (
            f"A warband of this campaign has played all {BATTLES[-1]} battles: there is none left to join."
        )
        return LateJoiner(most, starting_value, most, problem)
    return LateJoiner(most, threshold, most)


# The roster's value and limits read in one statement, written out: the ORM took longer to build its two queries
# (the fighters' costs with their Battlekit's, and the battles played) than PostgreSQL took to run them. One row per
# fighter, each with its battles played (one row of NULLs beside them when the warband has no fighter yet).
LIMITS_SQL = """
SELECT played.n, f.cost, f.status, f.unit_size,
       ARRAY(SELECT i.cost FROM rosters_item i WHERE i.fighter_id = f.id ORDER BY i.id)
  FROM (SELECT count(*) AS n
          FROM campaigns_gameplayer p JOIN campaigns_game g ON g.id = p.game_id
         WHERE p.warband_id = %(warband)s AND g.status <> %(in_progress)s) played
  LEFT JOIN rosters_fighter f ON f.warband_id = %(warband)s
 ORDER BY f.id
"""


def warband_limits(*, warband: Warband) -> WarbandLimits:
    with connection.cursor() as cursor:
        cursor.execute(LIMITS_SQL, {"warband": warband.pk, "in_progress": Game.Status.IN_PROGRESS})
        rows = cursor.fetchall()
    played = rows[0][0]
    fighters = []
    models = 0
    for _, cost, status, unit_size, kit in rows:
        if cost is None:  # no fighter: the row of the battles played alone
            continue
        active = status == Fighter.Status.ACTIVE
        fighters.append(RosterFighter(cost=cost, battlekit=tuple(kit), removed=not active))
        models += unit_size if active else 0
    next_battle = played + 1 if played + 1 in BATTLES else None
    enabled = warband.campaign.uses_limits
    limits = (
        campaign_limits(battle=next_battle, starting_value=warband.starting_value) if next_battle else None
    )
    return WarbandLimits(
        value=warband_value(fighters),
        models=models,
        battles_played=played,
        next_battle=next_battle,
        threshold=limits.threshold if limits and enabled else None,
        field_strength=limits.field_strength if limits and enabled else None,
        enabled=enabled,
    )
