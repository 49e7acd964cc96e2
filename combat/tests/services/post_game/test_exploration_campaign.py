"""A campaign of five games played through the services: the Exploration Dice rise with the battles fought (RULING
E-1), the tables allowed change, a Location is found once per warband across games (E-4), the winner's reroll
(E-2) and the choice between two, and every ducat of loot reaches the Strongbox (E-3)."""

import pytest

from campaigns.models import GamePlayer
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.exploration import (
    post_game_choose_location,
    post_game_exploration_reroll,
    post_game_exploration_roll,
)
from combat.tests.exploration_helpers import save_tables
from combat.tests.post_game_helpers import record_game
from rosters.models import FoundLocation

pytestmark = pytest.mark.django_db

# (faces typed, the dice it must take, the tables allowed, the Location taken, the loot)
GAMES = [
    ([3, 4, 2], 3, ("common",), "field_shrine", 90),
    ([2, 3, 4], 3, ("common",), None, 90),  # 9 again: the Field Shrine is found already
    ([5, 6, 4, 2], 4, ("common", "rare"), "drowned_chapel", 170),
    ([5, 4, 3, 1], 4, ("common", "rare"), "sunken_vault", 140),  # won: die 4 rerolled to 2, 14 on both tables
    ([5, 4, 3, 2], 4, ("common", "rare"), "shell_crater", 140),  # 14 again: only the Common one is left
]


def test_five_games_keep_the_dice_the_locations_and_the_loot_right(
    campaign, warband, rival_warband, organiser, player
):
    save_tables(campaign, organiser)
    for number, (faces, dice, tables, taken, loot) in enumerate(GAMES, start=1):
        after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=number)
        if number == 4:
            GamePlayer.objects.filter(pk=after.player.pk).update(result=GamePlayer.Result.WIN)
            after.refresh()
        exploration = after.state().exploration
        assert (exploration.battles_fought, exploration.dice, exploration.allowed) == (number, dice, tables)

        post_game_exploration_roll(player=after.player, faces=faces, by=player)
        if number == 4:
            post_game_exploration_reroll(player=after.player, die=4, faces=[2], by=player)
            post_game_choose_location(player=after.player, code="sunken_vault", by=player)
        exploration = after.state().exploration
        assert exploration.loot == loot
        assert (exploration.location.code if exploration.location else None) == taken
        post_game_apply(player=after.player, by=player)

    found = FoundLocation.objects.filter(warband=warband).order_by("id")
    assert [(row.code, row.game.number) for row in found] == [
        ("field_shrine", 1),
        ("drowned_chapel", 3),
        ("sunken_vault", 4),
        ("shell_crater", 5),
    ]
    warband.refresh_from_db()
    assert warband.strongbox == 50 + sum(loot for *_, loot in GAMES)
