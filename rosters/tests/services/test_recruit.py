"""rosters/services/recruit.py: several fighters and pieces of Battlekit from the price list in one order, paid
whole from the Strongbox or refused whole with nothing written."""

import pytest

from rosters.models import Fighter, Item, StrongboxEntry, Warband
from rosters.services import price_lists as price_services
from rosters.services.errors import RosterRefused
from rosters.services.recruit import warband_recruit

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed(campaign, organiser):
    price_services.price_list_copy_demo(
        campaign=campaign, by=organiser
    )  # Mire Pilgrim 40, Lantern Warden 90...


def _rich(warband, ducats=1000):
    Warband.objects.filter(pk=warband.pk).update(strongbox=ducats)
    warband.refresh_from_db()
    return warband


def _written():
    return Fighter.objects.count(), Item.objects.count(), StrongboxEntry.objects.count()


def test_ten_fighters_and_kit_in_one_order(listed, warband, player):
    warband = _rich(warband)
    made = warband_recruit(
        warband=warband,
        by=player,
        fighters={"Mire Pilgrim": 8, "Lantern Warden": 2},
        battlekit={"Bell Hammer": 1},
    )
    assert (len(made.fighters), len(made.items), made.order.total) == (10, 1, 8 * 40 + 2 * 90 + 15)
    warband.refresh_from_db()
    assert warband.strongbox == 1000 - 515
    names = sorted(fighter.name for fighter in made.fighters)
    assert names[:2] == ["Lantern Warden 1", "Lantern Warden 2"]
    assert "Mire Pilgrim 8" in names
    warden = Fighter.objects.get(name="Lantern Warden 1")
    assert (warden.is_elite, warden.fighter_type, warden.cost, warden.health, warden.harm_limit) == (
        True,
        "Lantern Warden",
        90,
        2,
        3,
    )
    pilgrim = Fighter.objects.get(name="Mire Pilgrim 1")
    assert (pilgrim.is_elite, pilgrim.keywords) == (False, [])
    hammer = Item.objects.get(name="Bell Hammer")
    assert (hammer.fighter_id, hammer.keywords, hammer.cost) == (None, ["HEAVY"], 15)  # into the Arsenal
    # Every ducat leaves through the ledger: its entries still sum to the Strongbox.
    entries = StrongboxEntry.objects.filter(warband=warband).order_by("id")
    assert entries.count() == 11
    assert entries.last().balance == warband.strongbox


def test_a_second_order_numbers_on(listed, warband, player):
    warband = _rich(warband)
    warband_recruit(warband=warband, by=player, fighters={"Mire Pilgrim": 2}, battlekit={})
    made = warband_recruit(warband=warband, by=player, fighters={"Mire Pilgrim": 1}, battlekit={})
    assert [fighter.name for fighter in made.fighters] == ["Mire Pilgrim 3"]


def test_an_order_the_strongbox_cannot_pay_writes_nothing(listed, warband, player):
    warband = _rich(warband, 400)  # ten Mire Pilgrims cost 400; the hammer makes it 415
    before = _written()
    with pytest.raises(RosterRefused) as refused:
        warband_recruit(
            warband=warband, by=player, fighters={"Mire Pilgrim": 10}, battlekit={"Bell Hammer": 1}
        )
    assert refused.value.code == "strongbox_short"
    assert "costs 415 ducats" in refused.value.message
    assert "15 short, so nothing is bought" in refused.value.message
    assert _written() == before
    warband.refresh_from_db()
    assert warband.strongbox == 400


@pytest.mark.parametrize(
    ("fighters", "battlekit", "code"),
    [
        ({}, {}, "empty"),
        ({"Mire Pilgrim": 0}, {}, "empty"),
        ({"Grand Inquisitor": 1}, {}, "not_listed"),
        ({}, {"Mire Pilgrim": 1}, "not_listed"),  # a fighter type is not Battlekit
        ({"Mire Pilgrim": 26}, {}, "quantity"),
    ],
)
def test_a_refused_order_says_why_and_writes_nothing(listed, warband, player, fighters, battlekit, code):
    warband = _rich(warband)
    before = _written()
    with pytest.raises(RosterRefused) as refused:
        warband_recruit(warband=warband, by=player, fighters=fighters, battlekit=battlekit)
    assert refused.value.code == code
    assert _written() == before


def test_a_list_changed_since_the_form_was_drawn_is_refused(listed, campaign, organiser, warband, player):
    warband = _rich(warband)
    rows = [{"name": "Mire Pilgrim", "cost": 45, "keywords": [], "movement": 6, "health": 1, "harm_limit": 3}]
    price_services.price_list_save(campaign=campaign, kind="fighters", rows=rows, by=organiser)
    with pytest.raises(RosterRefused) as refused:
        warband_recruit(
            warband=warband,
            by=player,
            fighters={"Mire Pilgrim": 1},
            battlekit={},
            versions={"fighters": 1, "battlekit": 1},
        )
    assert refused.value.code == "stale"
    made = warband_recruit(
        warband=warband,
        by=player,
        fighters={"Mire Pilgrim": 1},
        battlekit={},
        versions={"fighters": 2, "battlekit": 1},
    )
    assert made.order.total == 45  # the newest list's price
