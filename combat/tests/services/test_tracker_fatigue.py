"""Fatigue and Harm between attacks (combat/services/tracker/fatigue.py)."""

import pytest

from combat.models import TrackerFighter
from combat.services.tracker.errors import TrackerError
from combat.services.tracker.fatigue import tracker_adjust_fatigue, tracker_recover_harm
from combat.tests.tracker_helpers import damage

pytestmark = pytest.mark.django_db

INCAPACITATED = TrackerFighter.Status.INCAPACITATED
FLED = TrackerFighter.Status.FLED


def test_fatigue_up_to_exhausted_and_back(table, player):
    for _ in range(2):
        tracker_adjust_fatigue(
            game=table.game, target_id=table["Vera"].pk, change=1, by=player, version=table.version
        )
    assert table.tracked("Vera").fatigue == 2
    with pytest.raises(TrackerError, match="RULING D-7"):
        tracker_adjust_fatigue(
            game=table.game, target_id=table["Vera"].pk, change=1, by=player, version=table.version
        )
    tracker_adjust_fatigue(
        game=table.game, target_id=table["Vera"].pk, change=-1, by=player, version=table.version
    )
    assert table.tracked("Vera").fatigue == 1


def test_recover_harm(table, player, player2):
    damage(table, "Brick", 2, player2)
    action = tracker_recover_harm(
        game=table.game, target_id=table["Brick"].pk, by=player, version=table.version
    )
    assert table.tracked("Brick").harm == 0
    assert action.summary == "Brick Recovers 1 Harm (0 now)."
    with pytest.raises(TrackerError, match="no Harm to Recover"):
        tracker_recover_harm(game=table.game, target_id=table["Brick"].pk, by=player, version=table.version)
