"""The roster's reads: active and removed fighters, ELITE first."""

import pytest

from rosters.selectors import roster as roster_selectors

pytestmark = pytest.mark.django_db


def test_the_roster_splits_active_and_removed_fighters_elite_first(warband, make_fighter, played):
    roster = roster_selectors.warband_roster(warband=warband)
    assert [f.name for f in roster.fighters] == ["Brother Anselm", "Pilgrim Odo"]
    assert [f.name for f in roster.removed] == ["Fallen Pilgrim"]
    assert roster.total_xp == 7
    assert [p.game.number for p in roster.waiting] == [1, 2]
