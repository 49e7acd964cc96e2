"""A game's battle report: write it (a participant or the organiser) or edit it (its author or the
organiser). The game page (rosters) shows it; this page is only its form."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse

from campaigns import selectors
from campaigns.access import can_edit_report, can_write_report, get_game_for_user
from campaigns.forms import BattleReportForm
from campaigns.services import reports as report_services
from campaigns.views.campaigns import UNPROCESSABLE


def _may_change(membership, game, report) -> None:
    if report is None and not can_write_report(membership, game):
        raise PermissionDenied(
            "The battle report is written by a player whose warband took part, or the organiser."
        )
    if report is not None and not can_edit_report(membership, report):
        raise PermissionDenied("A battle report is edited by the player who wrote it, or the organiser.")


def _save(form: BattleReportForm, *, game, report, by):
    fields = {"title": form.cleaned_data["title"], "text": form.cleaned_data["text"], "by": by}
    if report is None:
        return report_services.report_write(game=game, **fields)
    return report_services.report_edit(report=report, **fields)


@login_required
def game_report(request, game_id: int):
    """The report's form: a new report, or the game's report to edit."""
    game, membership = get_game_for_user(request.user, game_id)
    report = selectors.game_report(game=game)
    _may_change(membership, game, report)
    form = BattleReportForm(request.POST or None, instance=report)
    if request.method == "POST" and form.is_valid():
        try:
            _save(form, game=game, report=report, by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"The battle report of {game} is saved.")
            return redirect(reverse("game_detail", args=[game.pk]) + "#battle-report")
    status = UNPROCESSABLE if request.method == "POST" else 200
    context = {"form": form, "game": game, "campaign": game.campaign, "report": report}
    return render(request, "campaigns/report_form.html", context, status=status)
