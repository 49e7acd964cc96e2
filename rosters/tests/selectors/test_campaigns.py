"""The campaign page's reads: each warband's headline numbers."""

import pytest

from rosters.selectors import campaigns as campaign_selectors

pytestmark = pytest.mark.django_db


def test_the_campaign_page_has_each_warbands_headline_numbers(campaign, warband, rival_warband, played):
    page = campaign_selectors.campaign_page(campaign=campaign)
    mine = next(w for w in page.warbands if w.pk == warband.pk)
    assert (mine.fighter_count, mine.elite_count, mine.total_xp, mine.total_scars) == (2, 1, 7, 1)
    assert (mine.games_played, mine.wins, mine.draws, mine.losses) == (2, 1, 1, 0)
    assert [w.pk for w in page.standings] == [warband.pk, rival_warband.pk]
    assert [g.number for g in page.games] == [2, 1]
    assert [p.out_count for p in page.games[1].players.all()] == [1, 0]
    assert len(page.members) == 4
