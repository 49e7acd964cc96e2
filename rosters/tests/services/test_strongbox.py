"""rosters/services/strongbox.py and the services that pay or are paid through it: every change
of the Strongbox and Glory is a ledger entry, a purchase the Strongbox cannot pay is refused with nothing written,
selling gives half the cost rounded up (RULING C-3), and the ledger always sums to the Strongbox."""

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum

from rosters.models import Fighter, Item, StrongboxEntry, Warband
from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import strongbox as strongbox_services
from rosters.services import warbands as warband_services
from rosters.services.errors import RosterRefused

pytestmark = pytest.mark.django_db


def sums(warband) -> tuple[int, int]:
    totals = StrongboxEntry.objects.filter(warband=warband).aggregate(d=Sum("ducats"), g=Sum("glory"))
    return totals["d"] or 0, totals["g"] or 0


def assert_ledger_sums(warband):
    warband.refresh_from_db()
    assert sums(warband) == (warband.strongbox, warband.glory)
    newest = StrongboxEntry.objects.filter(warband=warband).order_by("-id").first()
    assert (newest.balance, newest.glory_balance) == (warband.strongbox, warband.glory)


@pytest.fixture
def band(campaign, player):
    """A warband founded through the service: its starting value in the Strongbox, the ledger's first entry."""
    return warband_services.warband_create(campaign=campaign, owner=player, by=player, name="Grey Wardens")


def test_a_new_warband_starts_with_its_starting_value_in_the_strongbox(band):
    entry = StrongboxEntry.objects.get(warband=band)
    assert (band.strongbox, band.starting_value) == (700, 700)
    assert (entry.cause, entry.ducats, entry.balance) == ("start", 700, 700)


def test_a_papal_states_warband_starts_200_lower(campaign, player):
    band = warband_services.warband_create(
        campaign=campaign, owner=player, by=player, name="Papal Guard", starting_value=500
    )
    assert band.strongbox == 500
    assert_ledger_sums(band)


def test_recruiting_pays_the_cost_from_the_strongbox(band, player):
    fighter_services.fighter_create(warband=band, by=player, name="Odo", cost=60, pay=True)
    entry = StrongboxEntry.objects.filter(warband=band).latest("id")
    assert (entry.cause, entry.ducats, entry.balance, entry.by) == ("recruit", -60, 640, player)
    assert entry.reason == "Recruited Odo for 60 ducats"
    assert_ledger_sums(band)


def test_a_fighter_entered_without_paying_moves_nothing(band, player):
    fighter_services.fighter_create(warband=band, by=player, name="Odo", cost=60)
    band.refresh_from_db()
    assert band.strongbox == 700
    assert StrongboxEntry.objects.filter(warband=band).count() == 1


def test_a_purchase_beyond_the_strongbox_is_refused_and_nothing_changes(band, player):
    with pytest.raises(RosterRefused, match="holds 700 ducats: it cannot pay 900"):
        fighter_services.fighter_create(warband=band, by=player, name="Giant", cost=900, pay=True)
    with pytest.raises(RosterRefused, match="cannot pay 701"):
        battlekit_services.item_create(warband=band, by=player, name="Gold Lance", cost=701, pay=True)
    assert not Fighter.objects.filter(warband=band).exists()
    assert not Item.objects.filter(warband=band).exists()
    assert_ledger_sums(band)
    assert band.strongbox == 700


def test_paying_the_whole_strongbox_leaves_0(band, player):
    battlekit_services.item_create(warband=band, by=player, name="Bell Hammer", cost=700, pay=True)
    assert_ledger_sums(band)
    assert band.strongbox == 0


@pytest.mark.parametrize("cost", [-1, 10_001])
def test_a_negative_or_absurd_cost_is_refused(band, player, cost):
    with pytest.raises(ValidationError):
        battlekit_services.item_create(warband=band, by=player, name="Lance", cost=cost, pay=True)
    with pytest.raises(ValidationError):
        fighter_services.fighter_create(warband=band, by=player, name="Odo", cost=cost, pay=True)
    assert not Item.objects.filter(warband=band).exists()
    assert not Fighter.objects.filter(warband=band).exists()
    assert_ledger_sums(band)


@pytest.mark.parametrize(("cost", "price"), [(5, 3), (10, 5), (0, 0), (1, 1)])
def test_selling_gives_half_the_cost_rounded_up(band, player, cost, price):
    item = battlekit_services.item_create(warband=band, by=player, name="Lance", cost=cost)
    assert battlekit_services.item_sell(item=item, by=player) == price
    assert not Item.objects.filter(pk=item.pk).exists()
    band.refresh_from_db()
    assert band.strongbox == 700 + price
    assert_ledger_sums(band)
    if price:
        assert StrongboxEntry.objects.filter(warband=band).latest("id").cause == "sell"


def test_kit_that_cannot_be_removed_cannot_be_sold_off_its_fighter(band, player):
    odo = fighter_services.fighter_create(warband=band, by=player, name="Odo")
    plate = battlekit_services.item_create(
        warband=band, by=player, name="Rivet Plate", cost=30, removable=False, fighter=odo
    )
    with pytest.raises(RosterRefused, match="cannot be removed from Odo"):
        battlekit_services.item_sell(item=plate, by=player)
    assert Item.objects.filter(pk=plate.pk).exists()
    assert_ledger_sums(band)
    assert band.strongbox == 700


def test_an_adjustment_needs_a_reason_and_is_an_entry(band, organiser):
    with pytest.raises(RosterRefused, match="Say why"):
        strongbox_services.strongbox_adjust(warband=band, by=organiser, reason="  ", ducats=10)
    strongbox_services.strongbox_adjust(warband=band, by=organiser, reason="Forgot loot", ducats=15, glory=2)
    entry = StrongboxEntry.objects.filter(warband=band).latest("id")
    assert (entry.cause, entry.ducats, entry.glory, entry.reason) == ("adjustment", 15, 2, "Forgot loot")
    assert_ledger_sums(band)


def test_an_adjustment_below_0_is_refused(band, organiser):
    with pytest.raises(RosterRefused):
        strongbox_services.strongbox_adjust(warband=band, by=organiser, reason="Oops", ducats=-701)
    with pytest.raises(RosterRefused):
        strongbox_services.strongbox_adjust(warband=band, by=organiser, reason="Oops", glory=-1)
    assert_ledger_sums(band)


def test_the_strongbox_typed_in_by_hand_is_an_adjustment(band, player):
    warband_services.warband_update(warband=band, by=player, changes={"strongbox": 650, "notes": "Counted"})
    band.refresh_from_db()
    assert (band.strongbox, band.notes) == (650, "Counted")
    assert StrongboxEntry.objects.filter(warband=band).latest("id").cause == "adjustment"
    assert_ledger_sums(band)


def test_the_ledger_sums_to_the_strongbox_through_every_cause(band, player, organiser):
    odo = fighter_services.fighter_create(warband=band, by=player, name="Odo", cost=40, pay=True)
    lance = battlekit_services.item_create(
        warband=band, by=player, name="Lance", cost=15, pay=True, fighter=odo
    )
    battlekit_services.item_sell(item=lance, by=player)
    warband_services.warband_adjust(warband=band, by=player, reason="Ransom", strongbox=-20)
    strongbox_services.strongbox_adjust(warband=band, by=organiser, reason="Found a coin", ducats=1)
    assert_ledger_sums(band)
    assert band.strongbox == 700 - 40 - 15 + 8 - 20 + 1
    causes = list(StrongboxEntry.objects.filter(warband=band).order_by("id").values_list("cause", flat=True))
    assert causes == ["start", "recruit", "buy", "sell", "adjustment", "adjustment"]


def test_the_database_refuses_an_entry_with_an_unknown_cause(band):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        StrongboxEntry.objects.create(warband=band, ducats=1, balance=701, glory_balance=0, cause="theft")


def test_the_history_tells_a_purchase_with_its_reason(band, player):
    from campaigns.tests.history import last_context

    battlekit_services.item_create(warband=band, by=player, name="Lance", cost=15, pay=True)
    context = last_context(Warband.objects.get(pk=band.pk))
    assert (context["action"], context["reason"]) == ("strongbox.buy", "Bought Lance for 15 ducats")


def test_the_history_feed_tells_each_entry_with_its_reason(band, player):
    from rosters.tests.history.helpers import sentences

    fighter_services.fighter_create(warband=band, by=player, name="Odo", cost=60, pay=True)
    found = sentences(band.campaign, kind="strongbox")
    assert any("Strongbox 700 → 640 ducats" in s and "Recruited Odo for 60 ducats" in s for s in found), found
