"""Games and a scenario table for the scenario roll's tests."""

import datetime as dt

from campaigns.models import Game, GamePlayer
from combat.services.campaign_data import campaign_data_save

EARLY = ["Crossing", "Raid", "Hold", "Crossing", "Ambush", "Raid"]


def save_table(campaign, by, names=EARLY, stage="early"):
    rows = [{"roll": face, "name": name} for face, name in enumerate(names, start=1)]
    data_set, _new = campaign_data_save(campaign=campaign, kind=f"scenario_table:{stage}", rows=rows, by=by)
    return data_set


def make_game(campaign, *warbands, scenario="", status=Game.Status.IN_PROGRESS):
    number = campaign.games.count() + 1
    game = Game.objects.create(
        campaign=campaign, number=number, played_on=dt.date(2026, 1, number), scenario=scenario, status=status
    )
    for warband in warbands:
        GamePlayer.objects.create(game=game, warband=warband)
    return game
