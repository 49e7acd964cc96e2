"""The access checks' statements, written once per process (campaigns/access.py), read what the ORM would: the same
campaign, game and membership, field by field (a JSON field decoded as the ORM decodes it), and nothing more for
an outsider."""

import datetime as dt

import pytest
from django.http import Http404

from campaigns.access import game_membership, get_campaign_for_user, get_game_for_user, membership_of
from campaigns.models import Campaign, Game, Membership
from rosters.services.games import GameEntry, game_record

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


@pytest.fixture
def house_rules(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(
        post_game_switches={"glory": True}, house_trauma_table=[{"d66": 11, "name": "Shaken"}]
    )
    return campaign


@pytest.fixture
def game(house_rules, player, warband, rival_warband):
    return game_record(
        campaign=house_rules,
        by=player,
        played_on=dt.date(2025, 3, 1),
        entries=[GameEntry(warband, "win"), GameEntry(rival_warband, "loss")],
    )


def test_the_campaign_and_the_membership_are_the_orms(house_rules, player, django_assert_num_queries):
    with django_assert_num_queries(1):
        campaign, membership = get_campaign_for_user(player, house_rules.pk)
    orm = Membership.objects.select_related("campaign").get(campaign=house_rules, user=player)
    assert fields(membership) == fields(orm)
    assert fields(campaign) == fields(orm.campaign)
    assert campaign.post_game_switches == {"glory": True}
    with django_assert_num_queries(0):
        assert membership.campaign is campaign


def test_the_game_and_the_membership_are_the_orms(game, player, spectator, django_assert_num_queries):
    with django_assert_num_queries(2):
        read, membership = get_game_for_user(player, game.pk)
    orm = Game.objects.select_related("campaign").get(pk=game.pk)
    assert fields(read) == fields(orm)
    assert fields(read.campaign) == fields(orm.campaign)
    assert fields(membership) == fields(Membership.objects.get(campaign=game.campaign, user=player))
    assert membership.took_part is True
    assert game_membership(spectator, read).took_part is False


def test_an_outsider_is_told_nothing(house_rules, game, outsider):
    with pytest.raises(Http404):
        get_campaign_for_user(outsider, house_rules.pk)
    with pytest.raises(Http404):
        get_game_for_user(outsider, game.pk)
    assert membership_of(outsider, house_rules) is None
    with pytest.raises(Http404):
        get_campaign_for_user(
            outsider, 10**20
        )  # an id past any column's range: no such campaign, not an error


def test_membership_of_is_the_orms(house_rules, spectator):
    membership = membership_of(spectator, house_rules)
    assert fields(membership) == fields(Membership.objects.get(campaign=house_rules, user=spectator))
    assert membership.campaign is house_rules
