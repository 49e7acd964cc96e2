"""Battle reports: a game's report, written by a participant or the organiser, edited by its author or
the organiser. Who may do which is the views' question (campaigns/access.py); these write and refuse bad input."""

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.errors import ReportError
from campaigns.models import BattleReport, Game
from campaigns.services.common import User, campaign_context


def _clean_text(value: str) -> str:
    """Plain text as typed, with one kind of line break; PostgreSQL refuses NUL, so a NUL is refused here."""
    if "\x00" in value:
        raise ReportError("The report cannot contain a NUL character.")
    return value.replace("\r\n", "\n").replace("\r", "\n").strip()


def _fill(report: BattleReport, *, title: str, text: str) -> None:
    report.title = _clean_text(title)
    report.text = _clean_text(text)
    try:
        report.full_clean(exclude=["game", "author"])
    except ValidationError as error:
        # The fields' own limits (campaigns/models.py), kept per field so a form shows each beside its field.
        raise ReportError(error.message_dict) from error


@transaction.atomic
def report_write(*, game: Game, by: User, title: str, text: str) -> BattleReport:
    """Write the battle report of `game`, by `by`; a game has one report (edit it with `report_edit`)."""
    game = Game.objects.select_for_update().select_related("campaign").get(pk=game.pk)
    if BattleReport.objects.filter(game=game).exists():
        raise ReportError(f"{game} has a battle report already: edit it instead.")
    report = BattleReport(game=game, author=by)
    _fill(report, title=title, text=text)
    with campaign_context(
        action="report.write",
        reason=f"{by} wrote the battle report of {game}",
        campaign=game.campaign,
        by=by,
        game=game.pk,
    ):
        report.save()
    return report


@transaction.atomic
def report_edit(*, report: BattleReport, by: User, title: str, text: str) -> BattleReport:
    """Change a report's title and text; its author stays who wrote it. Nothing changed, nothing written."""
    report = BattleReport.objects.select_for_update().select_related("game__campaign").get(pk=report.pk)
    before = (report.title, report.text)
    _fill(report, title=title, text=text)
    if (report.title, report.text) == before:
        return report
    game = report.game
    with campaign_context(
        action="report.edit",
        reason=f"{by} edited the battle report of {game}",
        campaign=game.campaign,
        by=by,
        game=game.pk,
    ):
        report.save(update_fields=["title", "text", "updated_at"])
    return report
