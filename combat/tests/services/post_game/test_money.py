"""combat/services/post_game/money.py on PostgreSQL: the ledger's moves of Hire & Trade and Use Glory written by
the Apply together (`write_ledger_moves`), each from the balance the moves before it left, with one lock of the
warband, one insert and one save; the snapshot lists each entry with its id for the Revert."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat.services.post_game.apply import post_game_apply
from combat.tests.money_helpers import buy, glory_opening_entry, ledger_sum, spend
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import fresh_player
from rosters.models import StrongboxEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(campaign, warband, rival_warband, fighters):
    glory_opening_entry(warband, 10)  # 50 ducats, 10 Glory
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def _statements(captured, start: str) -> list[str]:
    return [query["sql"] for query in captured if start in query["sql"]]


def test_a_trade_and_a_glory_spend_are_written_together_in_order(played, warband, player):
    buy(played, player, "Musket", 20)
    spend(played, player, "benefit", "Pilgrimage", 4, benefit="a pilgrimage")

    with CaptureQueriesContext(connection) as captured:
        post_game_apply(player=fresh_player(played), by=player)

    warband.refresh_from_db()
    assert (warband.strongbox, warband.glory) == (30, 6)
    assert ledger_sum(warband) == 30
    rows = list(StrongboxEntry.objects.filter(warband=warband, game=played.game).order_by("id"))
    # The trade's move first, then the Glory's, whose entry keeps the Strongbox the trade left.
    assert [(row.cause, row.ducats, row.glory) for row in rows] == [("buy", -20, 0), ("glory", 0, -4)]
    assert [(row.balance, row.glory_balance) for row in rows] == [(30, 10), (30, 6)]
    # One lock of the warband, one insert of the entries, one save of the Strongbox and the Glory.
    assert len(_statements(captured, 'FROM "rosters_warband"')) == 1
    assert len(_statements(captured, 'INSERT INTO "rosters_strongboxentry"')) == 1
    assert len(_statements(captured, 'UPDATE "rosters_warband"')) == 1
    snapshot = fresh_player(played).post_games.get().snapshot
    assert [entry["id"] for entry in snapshot["trade_part"]["entries"]] == [rows[0].pk]
    assert [entry["id"] for entry in snapshot["glory_part"]["glory_entries"]] == [rows[1].pk]
    assert snapshot["glory_part"]["glory_entries"][0]["glory"] == -4
