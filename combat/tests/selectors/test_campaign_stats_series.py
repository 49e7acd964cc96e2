"""Each warband's value after each game, replayed from the history's events at the moment the game's post-game was
applied. Real transactions, so each write has its own moment as it has in play."""

import pytest

from combat.selectors.campaign_stats_series import game_series
from combat.tests.stats_helpers import FIVE_GAMES, crews, play
from rosters.models import Item
from rosters.services.fighters import fighter_remove

pytestmark = pytest.mark.django_db(transaction=True)


def entries_of(campaign):
    from campaigns.models import GamePlayer

    return list(
        GamePlayer.objects.filter(game__campaign=campaign).values_list(
            "warband_id", "game_id", "game__number", "result", "victory_points"
        )
    )


def test_the_value_after_each_game_is_the_roster_as_the_post_game_left_it(
    campaign, warband, rival_warband, make_fighter, organiser
):
    fighters = crews(warband, rival_warband, make_fighter)
    for number, game in enumerate(FIVE_GAMES[:4], start=1):
        play(campaign, number, game, iron=warband, heretic=rival_warband, fighters=fighters, by=organiser)
        if number == 2:  # Rusty (20) dies after Game 2's post-game: counted in Game 2, gone from Game 3
            fighter_remove(fighter=fighters["Rusty"], status="dead", by=organiser)
        if number == 3:  # Mags is given a 10-ducat blade after Game 3, and a 5-ducat one waits in the Arsenal
            Item.objects.create(warband=rival_warband, fighter=fighters["Mags"], name="Blade", cost=10)
            Item.objects.create(warband=rival_warband, name="Knife", cost=5)
    series = game_series(campaign=campaign, warbands=[warband, rival_warband], entries=entries_of(campaign))
    values = {row.warband.name: [point.value for point in row.points] for row in series.warbands}
    # RULING C-2: the fighters on the roster and the Battlekit they carry, at their recorded cost.
    assert values == {"Iron Sepulchre": [110, 110, 90, 90], "Heretic Legion": [110, 110, 110, 120]}
    assert series.has_values
