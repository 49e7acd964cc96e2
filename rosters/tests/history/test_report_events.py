"""Battle reports told in the feed (rosters/history/report_events.py): written, edited, under their game."""

import datetime as dt

import pytest

from campaigns.services import reports as report_services
from rosters.history.entries import HistoryFilter
from rosters.history.feed import history_page
from rosters.services.games import GameEntry, game_record
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(campaign, warband, rival_warband, organiser):
    return game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 5, 1),
        entries=[GameEntry(warband=warband, result="win"), GameEntry(warband=rival_warband, result="loss")],
    )


def test_a_written_report_is_a_sentence_under_its_game(campaign, game, player):
    report_services.report_write(game=game, by=player, title="The Last Stand", text="We held.")

    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="games"))
    entry = next(e for e in page.entries if e.source == "battle_report")
    assert entry.game.id == game.pk  # the feed's heading of the game links to the game page
    assert entry.changes[0].text == "Pat wrote the battle report “The Last Stand”"


def test_an_edit_is_told_and_a_new_title_names_both(campaign, game, player, organiser):
    report = report_services.report_write(game=game, by=player, title="The Last Stand", text="We held.")
    report_services.report_edit(report=report, by=player, title="The Last Stand", text="We held, then ran.")
    report_services.report_edit(report=report, by=organiser, title="The Long Retreat", text="We ran.")

    found = [s.split(" — ")[0] for s in sentences(campaign, game_id=game.pk)]
    assert "Pat edited the battle report “The Last Stand”" in found
    assert "Olga edited the battle report “The Last Stand”, now “The Long Retreat”" in found


def test_the_report_is_in_each_playing_warbands_story_but_not_a_fighters(
    campaign, game, warband, player, make_fighter
):
    odo = make_fighter(warband, "Pilgrim Odo")
    report_services.report_write(game=game, by=player, title="The Last Stand", text="We held.")

    assert any("battle report" in s for s in sentences(campaign, warband_id=warband.pk))
    assert not any("battle report" in s for s in sentences(campaign, fighter_id=odo.pk))


def test_markup_in_a_title_stays_text_in_the_sentence(campaign, game, player):
    report_services.report_write(game=game, by=player, title="<b>Bold</b>", text="x")
    # The sentence is plain text; templates escape it like every sentence of the feed.
    assert any("“<b>Bold</b>”" in s for s in sentences(campaign))
