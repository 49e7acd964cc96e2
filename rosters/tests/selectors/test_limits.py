"""rosters/selectors/limits.py: a warband's value (RULING C-2) and its next battle's limits (C-1)."""

import datetime

import pytest

from campaigns.models import Game
from rosters.selectors.limits import battles_played, warband_limits
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services import warbands as warband_services
from rosters.services.games import GameEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def band(campaign, player):
    return warband_services.warband_create(
        campaign=campaign, owner=player, by=player, name="Papal Guard", starting_value=500
    )


def test_the_value_counts_the_roster_and_its_kit_not_the_arsenal_nor_the_removed(band, player):
    odo = fighter_services.fighter_create(warband=band, by=player, name="Odo", cost=60)
    battlekit_services.item_create(warband=band, by=player, name="Lance", cost=15, fighter=odo)
    battlekit_services.item_create(warband=band, by=player, name="Relic", cost=40)  # in the Arsenal
    gone = fighter_services.fighter_create(warband=band, by=player, name="Gone", cost=90)
    fighter_services.fighter_remove(fighter=gone, status="dead", by=player)
    limits = warband_limits(warband=band)
    assert (limits.value, limits.models) == (75, 1)


def test_the_limits_are_the_next_battles_from_the_warbands_own_starting_value(
    band, rival_warband, player, django_assert_num_queries
):
    for day in (1, 2):
        game_services.game_record(
            campaign=band.campaign,
            by=player,
            played_on=datetime.date(2026, 3, day),
            entries=[GameEntry(band, "win"), GameEntry(rival_warband, "loss")],
        )
    with django_assert_num_queries(1):  # the fighters' costs and the battles played, in one statement
        limits = warband_limits(warband=band)
    # Battle 3 (two played, C-1): 900 shifted by 500 - 700, Field Strength 12 whatever the starting value.
    assert (limits.battles_played, limits.next_battle, limits.threshold, limits.field_strength) == (
        2,
        3,
        700,
        12,
    )
    assert not limits.over_threshold


def test_a_warband_without_fighters_is_worth_nothing_and_a_game_being_played_is_no_battle_played(
    band, rival_warband, player
):
    game_services.game_record(
        campaign=band.campaign,
        by=player,
        played_on=datetime.date(2026, 3, 1),
        entries=[GameEntry(band, "win"), GameEntry(rival_warband, "loss")],
    )
    limits = warband_limits(warband=band)
    assert (limits.value, limits.models, limits.battles_played, limits.next_battle) == (0, 0, 1, 2)
    assert battles_played(warband=band) == 1
    Game.objects.filter(campaign=band.campaign).update(status=Game.Status.IN_PROGRESS)
    limits = warband_limits(warband=band)
    assert (limits.battles_played, limits.next_battle) == (0, 1)
    assert battles_played(warband=band) == 0


def test_over_the_threshold_and_the_field_strength_is_said(band, player):
    fighter_services.fighter_create(warband=band, by=player, name="Horde", cost=600, unit_size=11)
    limits = warband_limits(warband=band)
    assert (limits.over_threshold, limits.over_by, limits.over_field_strength) == (True, 100, True)


def test_a_game_still_being_played_is_not_a_battle_played(band, rival_warband, player):
    game = game_services.game_start(
        campaign=band.campaign, by=player, played_on=datetime.date(2026, 3, 1), warbands=[band, rival_warband]
    )
    assert game.status == Game.Status.IN_PROGRESS
    assert warband_limits(warband=band).next_battle == 1


def test_a_campaign_may_leave_the_limits_off(band):
    band.campaign.uses_limits = False
    band.campaign.save(update_fields=["uses_limits"])
    limits = warband_limits(warband=band)
    assert (limits.threshold, limits.field_strength, limits.over_threshold) == (None, None, False)
