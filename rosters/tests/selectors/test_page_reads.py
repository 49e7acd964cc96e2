"""The roster's and the card's one-statement reads (`roster_for_reader`, `card_for_reader`): plain SQL in place of
the ORM's three statements, so each must return what the ORM reads (every field of the warband, its campaign and
owner, the fighter, the reader's membership) and the digest the page's own digest query computes."""

import pytest

from campaigns.models import Membership
from rosters.models import Fighter, Warband
from rosters.selectors import fighters as fighter_selectors
from rosters.selectors import roster as roster_selectors
from rosters.selectors import roster_reader
from rosters.services import battlekit as battlekit_services
from rosters.services import injuries as injury_services

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    """Every concrete field's value, as stored (foreign keys by id)."""
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_the_roster_read_is_the_orms_and_its_digest_the_rosters(warband, player, played):
    battlekit_services.item_create(warband=warband, fighter=played, name="Trench Club", by=player)
    roster, membership = roster_reader.roster_for_reader(warband_id=warband.pk, reader_id=player.pk)
    orm = Warband.objects.select_related("campaign", "owner").get(pk=warband.pk)
    assert fields(roster.warband) == fields(orm)
    assert fields(roster.warband.campaign) == fields(orm.campaign)
    assert fields(roster.warband.owner) == fields(orm.owner)
    assert fields(membership) == fields(Membership.objects.get(campaign=orm.campaign, user=player))
    assert not roster.warband._state.adding
    assert not membership._state.adding
    alone = roster_selectors.warband_roster(warband=orm)
    assert (roster.digest, roster.page_key) == (alone.digest, alone.page_key)
    assert vars(roster.summary) == vars(alone.summary)


def test_the_roster_read_knows_an_outsider_and_no_such_warband(warband, outsider):
    _roster, membership = roster_reader.roster_for_reader(warband_id=warband.pk, reader_id=outsider.pk)
    assert membership is None
    assert roster_reader.roster_for_reader(warband_id=warband.pk + 1000, reader_id=outsider.pk) is None


def test_the_card_read_is_the_orms_and_its_digest_the_cards(warband, player, spectator, played):
    injury_services.injury_add(fighter=played, code="leg_wound", name="Leg Wound", by=player)
    battlekit_services.item_create(warband=warband, fighter=played, name="Trench Club", by=player)
    card, membership = fighter_selectors.card_for_reader(fighter_id=played.pk, reader_id=spectator.pk)
    orm = Fighter.objects.select_related("warband__campaign", "warband__owner").get(pk=played.pk)
    assert fields(card.head) == fields(orm)
    assert fields(card.head.warband) == fields(orm.warband)
    assert fields(card.head.warband.campaign) == fields(orm.warband.campaign)
    assert fields(card.head.warband.owner) == fields(orm.warband.owner)
    assert fields(membership) == fields(Membership.objects.get(campaign=orm.warband.campaign, user=spectator))
    alone = fighter_selectors.fighter_card(fighter=orm)
    assert (card.key, card.holder_choices) == (alone.key, alone.holder_choices)
    assert [name for _, name in card.holder_choices] == ["the Arsenal", "Pilgrim Odo"]


def test_the_card_read_knows_an_outsider_and_no_such_fighter(played, outsider):
    _card, membership = fighter_selectors.card_for_reader(fighter_id=played.pk, reader_id=outsider.pk)
    assert membership is None
    assert fighter_selectors.card_for_reader(fighter_id=played.pk + 1000, reader_id=outsider.pk) is None
