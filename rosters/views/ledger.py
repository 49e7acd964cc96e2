"""A warband's Strongbox ledger at `/warbands/<id>/ledger/`: every entry, newest first, a page
at a time (`?before=<entry id>`); the organiser adjusts the Strongbox by hand here, with a reason."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.models import Membership
from rosters.access import get_warband_for_user
from rosters.forms.ledger import AdjustmentForm
from rosters.selectors import ledger as selectors
from rosters.services import strongbox as strongbox_services
from rosters.views.common import UNPROCESSABLE, add_errors


def _before(request) -> int | None:
    raw = request.GET.get("before")
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 18:
        raise Http404("No such page of the ledger.")
    return int(raw)


@login_required
@require_http_methods(["GET", "POST"])
def warband_ledger(request, warband_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id)
    terms = warband.campaign.terms
    organiser = membership.role == Membership.Role.ORGANISER
    form = AdjustmentForm(request.POST or None, terms=terms) if organiser else None
    status = 200
    if request.method == "POST":
        if not organiser:
            raise PermissionDenied("Only the campaign's organiser adjusts a Strongbox by hand.")
        if form.is_valid():
            try:
                strongbox_services.strongbox_adjust(warband=warband, by=request.user, **form.cleaned_data)
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, f"Adjusted: {form.cleaned_data['reason']}.")
                return redirect("warband_ledger", warband_id=warband.pk)
        status = UNPROCESSABLE
    page = selectors.ledger_page(warband=warband, before=_before(request))
    context = {
        "warband": warband,
        "campaign": warband.campaign,
        "terms": terms,
        "page": page,
        "form": form,
    }
    template = "rosters/ledger.html#ledger-entries" if request.htmx and request.GET.get("before") else None
    return render(request, template or "rosters/ledger.html", context, status=status)
