"""The campaign the page-read tests share: two games played, a fighter off the roster."""

import datetime

import pytest

from rosters.services import games as game_services
from rosters.services.games import GameEntry


@pytest.fixture
def played(campaign, warband, rival_warband, player, make_fighter):
    anselm = make_fighter(warband, "Brother Anselm", elite=True, xp=5, battle_scars=1)
    make_fighter(warband, "Pilgrim Odo", xp=2)
    make_fighter(warband, "Fallen Pilgrim", xp=9, status="dead")
    game_services.game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2025, 3, 1),
        entries=[GameEntry(warband, "win", [anselm]), GameEntry(rival_warband, "loss")],
    )
    game_services.game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2025, 3, 8),
        entries=[GameEntry(warband, "draw"), GameEntry(rival_warband, "draw")],
    )
    return anselm
