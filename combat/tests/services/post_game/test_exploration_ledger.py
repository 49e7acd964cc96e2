"""The Exploration's loot in the Strongbox ledger: an entry of its own with the cause "loot",
after the ransom the same warband pays in the Trauma Step, though one Strongbox change carries both; a revert adds
the entries that take them back, in the reverse order, and deletes none."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.exploration import post_game_exploration_roll
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.services.post_game.revert import post_game_revert
from combat.tests.exploration_helpers import save_tables
from combat.tests.post_game_helpers import enter, game_with
from rosters.models import StrongboxEntry

pytestmark = pytest.mark.django_db


def _entries(warband, game) -> list[tuple[str, int, str]]:
    rows = StrongboxEntry.objects.filter(warband=warband, game=game).order_by("id")
    return [(row.cause, row.ducats, row.reason) for row in rows]


def test_the_loot_is_an_entry_of_its_own_after_the_ransom(
    campaign, warband, rival_warband, organiser, make_fighter, player
):
    save_tables(campaign, organiser)
    captive = make_fighter(warband, "Deacon Vos", elite=True, xp=2)
    after = game_with([captive], campaign=campaign, warband=warband, rival_warband=rival_warband)
    enter(after, captive, 1, 2, by=player)  # Captured (TRAUMA_TABLE.md 12)
    post_game_answer_ransom(player=after.player, fighter_id=captive.pk, paid=True, ransom=15, by=player)
    post_game_exploration_roll(player=after.player, faces=[3, 4, 2], by=player)  # 9: 90 ducats (E-3)

    post_game_apply(player=after.player, by=player)

    ransom, loot = _entries(warband, after.game)
    assert ransom == ("ransom", -15, "ransom paid (15 ducats)")
    assert loot == ("loot", 90, "loot from the Exploration (90 ducats, score 9)")
    assert [cause for cause, *_ in _entries(rival_warband, after.game)] == ["ransom"]

    applied = StrongboxEntry.objects.filter(warband=warband).order_by("id").last().pk
    post_game_revert(player=after.player, by=player)

    later = StrongboxEntry.objects.filter(warband=warband, pk__gt=applied).order_by("id")
    taken_back = [(row.cause, row.ducats, row.reason) for row in later]
    assert [(cause, ducats) for cause, ducats, _ in taken_back] == [("loot", -90), ("ransom", 15)]
    warband.refresh_from_db()
    assert warband.strongbox == 50


def test_loot_alone_is_one_loot_entry(campaign, warband, rival_warband, organiser, player):
    save_tables(campaign, organiser)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_exploration_roll(player=after.player, faces=[6, 6, 6], by=player)

    post_game_apply(player=after.player, by=player)

    assert _entries(warband, after.game) == [
        ("loot", 180, "loot from the Exploration (180 ducats, score 18)")
    ]
