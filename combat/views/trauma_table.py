"""The house Trauma Table editor at `/campaigns/<id>/settings/trauma-table/` (organiser only).

It lives in `combat`, beside the engine that says what a Trauma Table is (docs/architecture.md: `campaigns` imports no
higher app); the campaign's settings page links here and keeps a short summary. One URL: GET shows the table; POST
copies the default (`action=copy`), saves the edited rows (`save`) or goes back to the default (`default`).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.access import get_campaign_for_user
from combat import rules
from combat.forms.trauma_table import TraumaTableFormSet
from combat.selectors import trauma_table as trauma_table_selectors
from combat.services import trauma_table as trauma_table_services

BAD_REQUEST = 400
UNPROCESSABLE = 422


def _page(request, campaign, membership, *, formset=None, status=200):
    page = trauma_table_selectors.trauma_table_page(campaign=campaign)
    if formset is None and page.house_rows:
        formset = TraumaTableFormSet(initial=page.house_rows, prefix="rows")
    context = {"campaign": campaign, "membership": membership, "terms": campaign.terms, "page": page}
    return render(request, "combat/trauma_table.html", context | {"table_formset": formset}, status=status)


def _copy(request, campaign, membership):
    rows = trauma_table_selectors.default_rows()
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=rows, by=request.user)
    messages.success(request, "The default Trauma Table is copied: edit your campaign's own rows below.")
    return redirect("campaign_trauma_table", campaign_id=campaign.pk)


def _default(request, campaign, membership):
    trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=None, by=request.user)
    messages.success(request, "The campaign rolls on the default Trauma Table again.")
    return redirect("campaign_trauma_table", campaign_id=campaign.pk)


def _save(request, campaign, membership):
    formset = TraumaTableFormSet(request.POST, prefix="rows")
    if formset.is_valid():
        try:
            trauma_table_services.campaign_set_trauma_table(
                campaign=campaign, rows=formset.rows, by=request.user
            )
        except (
            rules.TraumaTableError
        ) as error:  # the formset asked the engine too; kept for another caller's race
            formset.non_form_errors().extend(error.problems)
        else:
            messages.success(request, "The campaign's Trauma Table is saved.")
            return redirect("campaign_trauma_table", campaign_id=campaign.pk)
    return _page(request, campaign, membership, formset=formset, status=UNPROCESSABLE)


ACTIONS = {"copy": _copy, "default": _default, "save": _save}


@login_required
@require_http_methods(["GET", "POST"])
def campaign_trauma_table(request, campaign_id: int):
    """The campaign's Trauma Table: read it, copy the default to edit it, save the rows, or go back."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    if request.method != "POST":
        return _page(request, campaign, membership)
    action = ACTIONS.get(request.POST.get("action"))
    if action is None:
        return _page(request, campaign, membership, status=BAD_REQUEST)
    return action(request, campaign, membership)
