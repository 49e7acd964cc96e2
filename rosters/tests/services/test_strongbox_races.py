"""Two purchases at once from one Strongbox: each in its own thread and database
connection. Both succeed when both can be paid; when only one can, the other is refused; the Strongbox never goes
below 0 and the ledger sums to it (the warband's row is locked: rosters/services/strongbox.py)."""

import threading

import pytest
from django.db import connection
from django.db.models import Sum

from rosters.models import Item, StrongboxEntry, Warband
from rosters.services import battlekit as battlekit_services
from rosters.services import warbands as warband_services
from rosters.services.errors import RosterRefused

pytestmark = pytest.mark.django_db(transaction=True)


def buy_at_once(warband, by, costs: list[int]) -> list[str]:
    """Start one purchase per cost in its own thread, release them together; each thread's outcome."""
    barrier = threading.Barrier(len(costs))
    outcomes: list[str] = [""] * len(costs)

    def buy(index: int, cost: int) -> None:
        try:
            barrier.wait(timeout=10)
            battlekit_services.item_create(warband=warband, by=by, name=f"Kit {index}", cost=cost, pay=True)
            outcomes[index] = "bought"
        except RosterRefused:
            outcomes[index] = "refused"
        finally:
            connection.close()

    threads = [threading.Thread(target=buy, args=(index, cost)) for index, cost in enumerate(costs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.fixture
def band(campaign, player):
    return warband_services.warband_create(
        campaign=campaign, owner=player, by=player, name="Grey Wardens", starting_value=100
    )


def _ledger(band) -> int:
    return StrongboxEntry.objects.filter(warband=band).aggregate(total=Sum("ducats"))["total"]


def test_two_purchases_both_paid_when_the_strongbox_holds_both(band, player):
    assert sorted(buy_at_once(band, player, [40, 60])) == ["bought", "bought"]
    band.refresh_from_db()
    assert band.strongbox == 0 == _ledger(band)
    assert Item.objects.filter(warband=band).count() == 2


def test_of_two_purchases_the_strongbox_cannot_both_pay_one_is_refused(band, player):
    assert sorted(buy_at_once(band, player, [70, 70])) == ["bought", "refused"]
    band.refresh_from_db()
    assert band.strongbox == 30 == _ledger(band)
    assert Item.objects.filter(warband=band).count() == 1
    assert Warband.objects.filter(strongbox__lt=0).count() == 0
