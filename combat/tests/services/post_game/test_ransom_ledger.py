"""combat/services/post_game/apply.py and revert.py with the Strongbox's ledger: a paid ransom is an
entry "ransom" on both Strongboxes, with the change's reason and the game; a revert adds the entries that take it
back, never deleting one, so each ledger still sums to its Strongbox."""

import pytest
from django.db.models import Sum

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.services.post_game.revert import post_game_revert
from combat.tests.post_game_helpers import enter
from rosters.models import StrongboxEntry

pytestmark = pytest.mark.django_db


def _open_ledgers(*warbands):
    """The fixtures' warbands were made without the service: their ledger opens as the migration opens it."""
    for warband in warbands:
        StrongboxEntry.objects.create(
            warband=warband,
            ducats=warband.strongbox,
            balance=warband.strongbox,
            glory_balance=0,
            cause="start",
        )


def _sums(warband) -> int:
    return StrongboxEntry.objects.filter(warband=warband).aggregate(total=Sum("ducats"))["total"]


@pytest.fixture
def ransomed(after, fighters, player, warband, rival_warband):
    _open_ledgers(warband, rival_warband)
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)  # Captured
    post_game_answer_ransom(player=after.player, fighter_id=marcus.pk, paid=True, ransom=20, by=player)
    return after


def test_a_paid_ransom_is_an_entry_on_both_strongboxes(ransomed, player, warband, rival_warband):
    post_game_apply(player=ransomed.player, by=player)

    paid = StrongboxEntry.objects.filter(warband=warband, cause="ransom").get()
    received = StrongboxEntry.objects.filter(warband=rival_warband, cause="ransom").get()
    assert (paid.ducats, paid.balance, paid.game_id) == (-20, 30, ransomed.player.game_id)
    assert (received.ducats, received.balance) == (20, 50)
    assert (paid.reason, received.reason) == (
        "ransom paid (20 ducats)",
        "ransom received from Iron Sepulchre",
    )
    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    assert (_sums(warband), _sums(rival_warband)) == (warband.strongbox, rival_warband.strongbox) == (30, 50)


def test_a_revert_adds_the_entries_that_take_the_ransom_back(ransomed, player, warband, rival_warband):
    post_game_apply(player=ransomed.player, by=player)
    post_game_revert(player=ransomed.player, by=player)

    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    assert (warband.strongbox, rival_warband.strongbox) == (50, 30)
    causes = list(
        StrongboxEntry.objects.filter(warband=warband).order_by("id").values_list("cause", "ducats")
    )
    assert causes == [("start", 50), ("ransom", -20), ("ransom", 20)]
    assert StrongboxEntry.objects.filter(warband=warband).latest("id").reason.startswith("Reverted:")
    assert (_sums(warband), _sums(rival_warband)) == (50, 30)
