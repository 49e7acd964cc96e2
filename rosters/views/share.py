"""Read-only sharing: the organiser makes or revokes a link; `/share/<token>/` shows the campaign, its
rosters and its history to anyone holding it, without an account, and nothing else.

The shared pages answer GET only (any other method is 405), carry no forms, and link only to other shared pages,
so the token opens no way to change anything; the member pages keep asking for a login. A revoked or replaced
token is 404 at once (no caching of these pages).
"""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import get_campaign_for_user
from campaigns.models import Campaign
from campaigns.services import sharing as campaign_services
from rosters.history import selectors as history_selectors
from rosters.models import Warband
from rosters.selectors.campaigns import campaign_page
from rosters.selectors.roster import warband_roster
from rosters.views.history import history_response

MAX_TOKEN = 64


def no_index(view):
    """Shared pages stay out of search engines, whoever posts the link."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped


def _shared_campaign(token: str) -> Campaign:
    if not token or len(token) > MAX_TOKEN:
        raise Http404("This link is not shared.")
    campaign = history_selectors.shared_campaign(token=token)
    if campaign is None:
        raise Http404("This link is not shared (any more).")
    return campaign


def _shared_warband(campaign: Campaign, warband_id: int) -> Warband:
    warband = history_selectors.shared_warband(campaign=campaign, warband_id=warband_id)
    if warband is None:
        raise Http404("No such warband in this campaign.")
    return warband


def _readonly(fighters):
    # The read-only roster table reads `injuries_then`, `battlekit_then` and `skills_then`, as a snapshot from the history has.
    for fighter in fighters:
        fighter.injuries_then = fighter.injury_list
        fighter.battlekit_then = fighter.kit
        fighter.skills_then = fighter.skill_list
    return fighters


# -- the organiser's side ---------------------------------------------------------------------------------------


@require_GET
@login_required
def campaign_share(request, campaign_id: int):
    """The share settings: the current link, make a new one, revoke it (organiser only)."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    return render(request, "rosters/share_manage.html", {"campaign": campaign, "membership": membership})


@require_POST
@login_required
def campaign_share_create(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    had_link = bool(campaign.share_token)
    campaign = campaign_services.campaign_share_create(campaign=campaign, by=request.user)
    if had_link:
        messages.success(request, "A new read-only link is ready; the old one no longer works.")
    else:
        messages.success(request, "The read-only link is ready: anyone holding it can read the campaign.")
    context = {"campaign": campaign, "membership": membership}
    if request.htmx:
        return render(request, "rosters/share_parts.html#share-link", context)
    return redirect(_back(request, campaign))


@require_POST
@login_required
def campaign_share_revoke(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    campaign = campaign_services.campaign_share_revoke(campaign=campaign, by=request.user)
    messages.success(request, "The read-only link is revoked: it no longer opens anything.")
    context = {"campaign": campaign, "membership": membership}
    if request.htmx:
        return render(request, "rosters/share_parts.html#share-link", context)
    return redirect(_back(request, campaign))


def _back(request, campaign) -> str:
    # Back to the settings page when the form was there (its `share-link` section), else to the share page.
    if request.POST.get("next") == "settings":
        return reverse("campaign_settings", args=[campaign.pk])
    return reverse("campaign_share", args=[campaign.pk])


# -- what a link shows ------------------------------------------------------------------------------------------


@no_index
@never_cache
@require_GET
def share_campaign(request, token: str):
    campaign = _shared_campaign(token)
    page = campaign_page(campaign=campaign)
    latest = history_selectors.latest(campaign=campaign, limit=15)
    return render(
        request,
        "rosters/share_campaign.html",
        {
            "campaign": campaign,
            "terms": page.terms,
            "page_data": page,
            "page": latest,
            "share_token": token,
            "links": "share",
            "history_url": reverse("share_history", args=[token]),
        },
    )


@no_index
@never_cache
@require_GET
def share_history(request, token: str):
    campaign = _shared_campaign(token)
    return history_response(
        request,
        campaign=campaign,
        template="rosters/share_history.html",
        url=reverse("share_history", args=[token]),
        context={"share_token": token},
        links="share",
    )


@no_index
@never_cache
@require_GET
def share_warband(request, token: str, warband_id: int):
    campaign = _shared_campaign(token)
    warband = _shared_warband(campaign, warband_id)
    roster = warband_roster(warband=warband, all_rows=True)
    games = history_selectors.warband_games(warband=warband, status=False)
    return history_response(
        request,
        campaign=campaign,
        warband=warband,
        template="rosters/share_warband.html",
        url=reverse("share_warband", args=[token, warband.pk]),
        context={
            "share_token": token,
            "warband": warband,
            "roster": roster,
            "active": _readonly(roster.fighters),
            "removed": _readonly(roster.removed),
            "games": games,
        },
        links="share",
    )


@no_index
@never_cache
@require_GET
def share_as_of(request, token: str, warband_id: int, game_id: int):
    campaign = _shared_campaign(token)
    warband = _shared_warband(campaign, warband_id)
    game = history_selectors.campaign_game(campaign_id=campaign.pk, game_id=game_id)
    if game is None:
        raise Http404("No such game in this campaign.")
    context = history_selectors.as_of_page(warband=warband, game=game, links="share")
    context["share_token"] = token
    return render(request, "rosters/share_as_of.html", context)
