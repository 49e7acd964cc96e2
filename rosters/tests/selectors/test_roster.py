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


def test_the_promotion_tally_is_read_with_the_digest_and_a_dismissed_fighter_is_among_the_removed(
    warband, make_fighter, played, client, player
):
    # RULING P-4: the warband's tally of failed Promotion Dice, across games.
    warband.promotion_tally = 3
    warband.save(update_fields=["promotion_tally"])
    make_fighter(warband, "Sister Ada", elite=True, battle_scars=2, status="dismissed")
    roster = roster_selectors.warband_roster(warband=warband)
    assert roster.summary.promotion_tally == 3
    assert {f.name for f in roster.removed} == {"Fallen Pilgrim", "Sister Ada"}

    client.force_login(player)
    page = client.get(f"/warbands/{warband.pk}/").content.decode()
    assert 'Failed Promotion Dice in a row: <strong class="num">3</strong> of 5' in page
    assert "Dismissed" in page[page.index('id="removed-fighters"') :]
