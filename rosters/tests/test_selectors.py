"""Page reads: the numbers they show, and that they cost the same whatever the roster's size."""

import datetime

import pytest

from rosters.selectors import campaigns as campaign_selectors
from rosters.selectors import dashboard as dashboard_selectors
from rosters.selectors import games as game_selectors
from rosters.selectors import roster as roster_selectors
from rosters.services import games as game_services
from rosters.services.games import GameEntry

pytestmark = pytest.mark.django_db


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


def test_the_campaign_page_has_each_warbands_headline_numbers(campaign, warband, rival_warband, played):
    page = campaign_selectors.campaign_page(campaign=campaign)
    mine = next(w for w in page.warbands if w.pk == warband.pk)
    assert (mine.fighter_count, mine.elite_count, mine.total_xp, mine.total_scars) == (2, 1, 7, 1)
    assert (mine.games_played, mine.wins, mine.draws, mine.losses) == (2, 1, 1, 0)
    assert [w.pk for w in page.standings] == [warband.pk, rival_warband.pk]
    assert [g.number for g in page.games] == [2, 1]
    assert [p.out_count for p in page.games[1].players.all()] == [1, 0]
    assert len(page.members) == 4


def test_the_roster_splits_active_and_removed_fighters_elite_first(warband, make_fighter, played):
    roster = roster_selectors.warband_roster(warband=warband)
    assert [f.name for f in roster.fighters] == ["Brother Anselm", "Pilgrim Odo"]
    assert [f.name for f in roster.removed] == ["Fallen Pilgrim"]
    assert roster.total_xp == 7
    assert [p.game.number for p in roster.waiting] == [1, 2]


def test_the_dashboard_shows_the_post_games_waiting(player, player2, outsider, played):
    dashboard = dashboard_selectors.dashboard_for(user=player)
    assert [(p.game.number, p.warband.name) for p in dashboard.waiting] == [
        (1, "Iron Sepulchre"),
        (2, "Iron Sepulchre"),
    ]
    assert [g.number for g in dashboard.recent_games] == [2, 1]
    assert [m.campaign.name for m in dashboard.memberships] == ["The Long Trench"]
    assert dashboard.memberships[0].warband_count == 2
    empty = dashboard_selectors.dashboard_for(user=outsider)
    assert (empty.memberships, empty.warbands, empty.waiting, empty.recent_games) == ([], [], [], [])


def test_a_game_page_lists_who_was_out_of_action(campaign, played):
    game = campaign.games.get(number=1)
    page = game_selectors.game_page(game=game)
    assert [[m.fighter.name for m in p.out_of_action.all()] for p in page.players] == [["Brother Anselm"], []]
    assert game_selectors.out_of_action_ids(game=game) == {played.warband_id: {played.pk}}
