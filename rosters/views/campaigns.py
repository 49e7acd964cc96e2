"""The campaign page and founding a warband in it (both need warbands, so they live in `rosters`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse

from campaigns.access import can_keep_warbands, can_record_games, get_campaign_for_user, is_organiser
from rosters.forms.warbands import WarbandForm
from rosters.selectors import campaigns as campaign_selectors
from rosters.selectors import limits as limits_selectors
from rosters.selectors.roster import consistent_reads
from rosters.services import warbands as warband_services
from rosters.views.common import UNPROCESSABLE, add_errors, cacheable


@login_required
@cacheable(scope="campaign_id")
def campaign_detail(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    with consistent_reads():  # the version and the parts read on a cache miss: one snapshot
        page = campaign_selectors.campaign_page(campaign=campaign)
        return render(request, "rosters/campaign.html", _detail_context(request, campaign, membership, page))


def _detail_context(request, campaign, membership, page) -> dict:
    context = {
        "page": page,
        "campaign": campaign,
        "membership": membership,
        "terms": page.terms,
        "is_organiser": is_organiser(membership),
        "can_record": can_record_games(membership),
        "can_add_warband": can_keep_warbands(membership),
    }
    if context["is_organiser"]:
        context["invitation_url"] = request.build_absolute_uri(
            reverse("campaign_join", args=[campaign.invitation_code])
        )
    return context


@login_required
def warband_create(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not can_keep_warbands(membership):
        raise PermissionDenied("Spectators read the campaign; only players and organisers keep warbands.")
    terms = campaign.terms
    form = WarbandForm(request.POST or None, terms=terms, uses=campaign.uses)
    # CAMPAIGN_PHASE.md, late joiners: the page says what a warband founded now starts with, and why.
    joining = limits_selectors.late_joiner(
        campaign=campaign, starting_value=warband_services.STANDARD_STARTING_VALUE
    )
    context = {"form": form, "campaign": campaign, "terms": terms, "joining": joining}
    if request.method == "POST":
        if form.is_valid():
            try:
                warband = warband_services.warband_create(
                    campaign=campaign, owner=request.user, by=request.user, **form.cleaned_data
                )
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, f"{warband.name} is founded. Add its fighters.")
                return redirect("warband_detail", warband_id=warband.pk)
        return render(request, "rosters/warband_form.html", context, status=UNPROCESSABLE)
    return render(request, "rosters/warband_form.html", context)


GAMES_PER_PAGE = 25


@login_required
def campaign_games(request, campaign_id: int):
    """Every game of the campaign, newest first, paged (the campaign page lists only the latest)."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    games_page = Paginator(campaign_selectors.campaign_games(campaign=campaign), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "campaign": campaign,
        "membership": membership,
        "terms": campaign.terms,
        "games_page": games_page,
    }
    return render(request, "rosters/campaign_games.html", context)
