"""Battle reports (campaigns/services/reports.py): one per game, plain text within its limits, with history."""

import datetime

import pytest

from campaigns.errors import ReportError
from campaigns.models import REPORT_TEXT_LENGTH, REPORT_TITLE_LENGTH, BattleReport, Game, GamePlayer
from campaigns.services import reports as services
from campaigns.tests.history import events_of, last_context

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(campaign, warband, rival_warband):
    game = Game.objects.create(campaign=campaign, number=1, played_on=datetime.date(2025, 3, 1))
    GamePlayer.objects.create(game=game, warband=warband, result="win")
    GamePlayer.objects.create(game=game, warband=rival_warband, result="loss")
    return game


def test_it_writes_a_report_with_its_author_and_history(game, player):
    report = services.report_write(
        game=game, by=player, title="  The Last Stand ", text="Line one\r\nLine two"
    )

    report.refresh_from_db()
    assert (report.title, report.text, report.author) == ("The Last Stand", "Line one\nLine two", player)
    context = last_context(report, "insert")
    assert context["action"] == "report.write"
    assert context["game"] == game.pk
    assert context["user"] == player.pk


def test_a_game_has_one_report(game, player, player2):
    services.report_write(game=game, by=player, title="Ours", text="We won.")

    with pytest.raises(ReportError, match="has a battle report already"):
        services.report_write(game=game, by=player2, title="Theirs", text="We lost.")
    assert BattleReport.objects.get(game=game).title == "Ours"


def test_editing_keeps_the_author(game, player, organiser):
    report = services.report_write(game=game, by=player, title="Ours", text="We won.")

    services.report_edit(report=report, by=organiser, title="Ours, corrected", text="We won narrowly.")

    report.refresh_from_db()
    assert (report.title, report.text, report.author) == ("Ours, corrected", "We won narrowly.", player)
    assert last_context(report, "update")["action"] == "report.edit"


def test_an_edit_that_changes_nothing_writes_nothing(game, player):
    report = services.report_write(game=game, by=player, title="Ours", text="We won.")

    services.report_edit(report=report, by=player, title="Ours ", text="We won.")

    assert [e.pgh_label for e in events_of(report)] == ["insert"]


@pytest.mark.parametrize(
    ("title", "text", "field"),
    [
        ("", "Some text", "title"),
        ("   ", "Some text", "title"),
        ("x" * (REPORT_TITLE_LENGTH + 1), "Some text", "title"),
        ("A title", "", "text"),
        ("A title", "x" * (REPORT_TEXT_LENGTH + 1), "text"),
    ],
)
def test_bad_input_is_refused_per_field_and_nothing_is_written(game, player, title, text, field):
    with pytest.raises(ReportError) as refused:
        services.report_write(game=game, by=player, title=title, text=text)

    assert field in refused.value.message_dict
    assert not BattleReport.objects.exists()


def test_a_nul_character_is_refused(game, player):
    with pytest.raises(ReportError, match="NUL"):
        services.report_write(game=game, by=player, title="A title", text="bad\x00text")
    assert not BattleReport.objects.exists()


def test_a_refused_edit_leaves_the_report_as_it_was(game, player):
    report = services.report_write(game=game, by=player, title="Ours", text="We won.")

    with pytest.raises(ReportError):
        services.report_edit(report=report, by=player, title="", text="Gone")

    report.refresh_from_db()
    assert (report.title, report.text) == ("Ours", "We won.")


def test_the_report_goes_with_its_game_and_does_not_stop_a_player_deleting_it(game, player):
    from campaigns.access import game_has_records_elsewhere

    services.report_write(game=game, by=player, title="Ours", text="We won.")

    assert not game_has_records_elsewhere(game)  # the report is the game's own row
    game.delete()
    assert not BattleReport.objects.exists()
