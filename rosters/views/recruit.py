"""Recruit in one go (`/warbands/<id>/recruit/`): several fighters and pieces of Battlekit from the campaign's price
list, with quantities, on one form.

The totals follow the picking: with htmx each change asks the same URL by GET and swaps in only
`#recruit-totals`; without JavaScript, "Work out the total" asks it as a page. Recruiting is one POST: paid whole
from the Strongbox, or refused whole with the reason beside the totals and in the error summary at the top,
nothing written (422). Ten fighters take two page loads: this page, and the roster it sends back to.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from rosters.access import get_warband_for_user
from rosters.forms.recruit import RecruitOrderForm
from rosters.price_lists import BATTLEKIT, FIGHTERS
from rosters.selectors import limits as limits_selectors
from rosters.selectors import recruit as recruit_selectors
from rosters.services import recruit as recruit_services
from rosters.views.common import UNPROCESSABLE, add_errors

TEMPLATE = "rosters/recruit.html"


def _totals(form, page, warband):
    if not form.is_bound or not form.is_valid():
        return None
    return recruit_selectors.recruit_totals(
        page=page,
        strongbox=warband.strongbox,
        fighters=form.quantities(FIGHTERS),
        battlekit=form.quantities(BATTLEKIT),
        limits=limits_selectors.warband_limits(warband=warband),
    )


def _said(recruitment, terms) -> str:
    """The roster's message, in the game's words: its money (ducats, caps) and where the kit went (the Arsenal, the
    Stash)."""
    parts = []
    if recruitment.fighters:
        count = len(recruitment.fighters)
        parts.append(f"{count} fighter{'s' if count != 1 else ''} recruited")
    if recruitment.items:
        parts.append(f"{len(recruitment.items)} bought for the {terms.arsenal}")
    return f"{' and '.join(parts)}, for {recruitment.order.total} {terms.currency} in all."


@login_required
@require_http_methods(["GET", "POST"])
def warband_recruit(request, warband_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id, write=True)
    page = recruit_selectors.recruit_page(warband=warband)
    posted = request.method == "POST"
    data = request.POST if posted else (request.GET if "totals" in request.GET or request.htmx else None)
    form = RecruitOrderForm(data, page=page)
    status = 200
    if posted and form.is_valid():
        try:
            recruitment = recruit_services.warband_recruit(
                warband=warband,
                by=request.user,
                fighters=form.quantities(FIGHTERS),
                battlekit=form.quantities(BATTLEKIT),
                versions=form.versions(),
            )
        except ValidationError as refusal:
            add_errors(form, refusal)
        else:
            messages.success(request, _said(recruitment, warband.campaign.terms))
            return redirect(reverse("warband_detail", args=[warband.pk]) + "#roster")
    if posted:
        status = UNPROCESSABLE
    context = {
        "form": form,
        "page": page,
        "totals": _totals(form, page, warband),
        "warband": warband,
        "campaign": warband.campaign,
        "terms": warband.campaign.terms,
        "membership": membership,
    }
    if request.htmx and not posted:
        return render(request, f"{TEMPLATE}#recruit-totals", context)
    return render(request, TEMPLATE, context, status=status)
