"""A warband founded after the campaign's first game (CAMPAIGN_PHASE.md, late joiners): it builds at the current
Threshold Value (RULING C-1), its Strongbox opens with it, and it may tick 1 XP per battle of the warband that has
played most."""

from datetime import date

import pytest

from campaigns.models import Game, GamePlayer
from rosters.models import LedgerCause, StrongboxEntry
from rosters.selectors.limits import late_joiner, warband_limits
from rosters.services import warbands as warband_services
from rosters.services.errors import RosterRefused

pytestmark = pytest.mark.django_db


def played(campaign, *warbands, times: int, status=Game.Status.RECORDED):
    for _ in range(times):
        number = Game.objects.filter(campaign=campaign).count() + 1
        game = Game.objects.create(
            campaign=campaign,
            number=number,
            played_on=date(2026, 11, 1),
            status=status,
            created_by=campaign.created_by,
        )
        for warband in warbands:
            GamePlayer.objects.create(game=game, warband=warband)


def found(campaign, owner, **fields):
    return warband_services.warband_create(
        campaign=campaign, owner=owner, by=owner, name="Grey Wardens", **fields
    )


def test_a_warband_founded_before_any_battle_starts_at_its_own_starting_value(campaign, player, warband):
    played(campaign, warband, times=1, status=Game.Status.IN_PROGRESS)  # a game being played is no battle yet
    band = found(campaign, player, starting_value=650)
    assert (band.starting_value, band.strongbox, band.starting_xp) == (650, 650, 0)


def test_a_late_joiner_builds_at_the_current_threshold_value_and_may_tick_its_starting_xp(
    campaign, player, warband, rival_warband
):
    played(campaign, warband, rival_warband, times=2)
    played(campaign, warband, times=1)  # Iron Sepulchre has played most: 3 battles
    band = found(campaign, player)
    # RULING C-1: battle 4's Threshold Value from a 700 start is 1000; 1 XP per battle of the one that played most.
    assert (band.starting_value, band.strongbox, band.starting_xp) == (1000, 1000, 3)
    entry = StrongboxEntry.objects.get(warband=band)
    assert (entry.cause, entry.ducats, entry.balance) == (LedgerCause.START, 1000, 1000)
    assert "Threshold Value of battle 4, as a late joiner" in entry.reason
    # Its own battle 1 is fielded at the value it built at, and its Threshold rises from it.
    limits = warband_limits(warband=band)
    assert (limits.next_battle, limits.threshold) == (1, 1000)


def test_a_lower_starting_value_joins_as_much_lower(campaign, player, warband):
    played(campaign, warband, times=2)
    band = found(campaign, player, starting_value=500)  # the Papal States start 200 lower
    assert (band.starting_value, band.strongbox, band.starting_xp) == (700, 700, 2)


def test_a_campaign_that_leaves_the_threshold_off_has_no_late_joiner_rule(campaign, player, warband):
    campaign.uses_limits = False
    campaign.save(update_fields=["uses_limits"])
    played(campaign, warband, times=4)
    band = found(campaign, player)
    assert (band.starting_value, band.strongbox, band.starting_xp) == (700, 700, 0)


def test_no_warband_joins_after_battle_12_and_nothing_is_written(campaign, player, warband):
    played(campaign, warband, times=12)
    with pytest.raises(RosterRefused, match="has played all 12 battles"):
        found(campaign, player)
    assert campaign.warbands.count() == 1


def test_late_joiner_reads_every_warbands_battles_in_one_query(
    campaign, warband, rival_warband, django_assert_num_queries
):
    played(campaign, warband, rival_warband, times=5)
    with django_assert_num_queries(1):
        joining = late_joiner(campaign=campaign, starting_value=700)
    assert (joining.most_played, joining.starting_value, joining.starting_xp, joining.joins_late) == (
        5,
        1200,  # battle 6 (RULING C-1)
        5,
        True,
    )
