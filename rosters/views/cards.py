"""Fighter cards to print: all the active fighters of a roster, or one fighter. GET only; nothing is written."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from rosters.access import get_fighter_for_user, get_warband_for_user
from rosters.selectors import cards as card_selectors


def _sheet_page(request, sheet, *, back_url: str, back_label: str):
    context = {
        "sheet": sheet,
        "warband": sheet.warband,
        "campaign": sheet.warband.campaign,
        "terms": sheet.terms,
        "papers": card_selectors.PAPERS,
        "back_url": back_url,
        "back_label": back_label,
    }
    return render(request, "rosters/cards.html", context)


@login_required
@require_safe
def warband_cards(request, warband_id: int):
    warband, _membership = get_warband_for_user(request.user, warband_id)
    sheet = card_selectors.warband_cards(warband=warband, paper=request.GET.get("paper"))
    return _sheet_page(
        request, sheet, back_url=reverse("warband_detail", args=[warband.pk]), back_label="Back to the roster"
    )


@login_required
@require_safe
def fighter_card_print(request, fighter_id: int):
    fighter, _membership = get_fighter_for_user(request.user, fighter_id)
    sheet = card_selectors.fighter_cards(fighter=fighter, paper=request.GET.get("paper"))
    return _sheet_page(
        request,
        sheet,
        back_url=reverse("fighter_detail", args=[fighter.pk]),
        back_label="Back to the fighter",
    )
