"""A warband exported as a JSON file, and imported from one into a campaign (Exports).

The format and its checks are `rosters/portability.py`; the import's writes are `rosters.services.portability.warband_import`.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.access import get_campaign_for_user
from campaigns.models import Membership
from rosters import portability
from rosters.access import get_warband_for_user
from rosters.forms.portability import ImportForm
from rosters.services import portability as import_services
from rosters.services.errors import RosterRefused


@require_GET
@login_required
def warband_export(request, warband_id: int):
    """Every member of the campaign may take a copy of any roster in it, as they may read it."""
    warband, _membership = get_warband_for_user(request.user, warband_id)
    response = HttpResponse(portability.export_json(warband), content_type="application/json; charset=utf-8")
    name = slugify(warband.name) or f"warband-{warband.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.warband.json"'
    return response


def _can_keep_warbands(membership: Membership) -> bool:
    return membership.role in (Membership.Role.ORGANISER, Membership.Role.PLAYER)


@require_http_methods(["GET", "POST"])
@login_required
def warband_import(request, campaign_id: int):
    """Import a warband file into this campaign; the importing player owns the new warband."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not _can_keep_warbands(membership):
        raise PermissionDenied("Spectators read the campaign; only players and organisers keep warbands.")
    form = ImportForm(request.POST or None, request.FILES or None, campaign=campaign)
    form.fields["file"].label = f"{campaign.terms.warband_title} file"  # "Crew file" in Fallout: Factions
    form.fields[
        "name"
    ].help_text = f"Leave it empty to keep the file's name. Each {campaign.terms.warband} in a campaign has a name of its own."
    context = {"campaign": campaign, "membership": membership, "terms": campaign.terms, "form": form}
    if request.method == "POST":
        if form.is_valid():
            try:
                warband = import_services.warband_import(
                    campaign=campaign,
                    owner=request.user,
                    by=request.user,
                    data=form.warband_data,
                    name=form.cleaned_data["name"],
                )
            except RosterRefused as refused:
                form.add_error("name" if refused.code == "name_taken" else None, refused.messages[0])
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, f"The file's warband cannot be saved: {message}")
            else:
                messages.success(
                    request,
                    f"{warband.name} was imported with {len(form.warband_data['fighters'])} fighters. It is yours to keep.",
                )
                return redirect("warband_detail", warband.pk)
        return render(request, "rosters/warband_import.html", context, status=400)
    return render(request, "rosters/warband_import.html", context)
