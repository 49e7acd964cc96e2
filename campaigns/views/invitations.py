"""The invitation link: the organiser makes a new one; anyone with an account joins through it as a player."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import selectors
from campaigns.access import get_campaign_for_user
from campaigns.errors import CampaignError, InvitationNotValid
from campaigns.services import invitations as invitation_services
from campaigns.views.campaigns import UNPROCESSABLE

NOT_VALID = "This invitation link is not valid any more. Ask the organiser for a new one."


@login_required
@require_POST
def campaign_rotate_invitation(request, campaign_id: int):
    campaign, _ = get_campaign_for_user(request.user, campaign_id, manage=True)
    invitation_services.campaign_rotate_invitation(campaign=campaign, by=request.user)
    messages.success(request, "New invitation link made; the old one no longer works.")
    return redirect(reverse("campaign_settings", args=[campaign.pk]) + "#invitation")


def _join(request, campaign):
    try:
        invitation_services.campaign_join(code=campaign.invitation_code, user=request.user)
    except InvitationNotValid as error:  # the link was replaced while the page was open
        raise Http404(NOT_VALID) from error
    except CampaignError as error:
        context = {"campaign": campaign, "errors": error.messages, "terms": campaign.terms}
        return render(request, "campaigns/join.html", context, status=UNPROCESSABLE)
    messages.success(request, f"Welcome to {campaign.name}! Add your warband to get started.")
    return redirect("campaign_detail", campaign_id=campaign.pk)


def _welcome(request, code: str):
    """A logged-out visitor with the link: whose campaign it is, then sign up (first) or log in, each coming back
    here, where joining is one tap."""
    landing = selectors.invitation_landing(code=code)
    if landing is None:
        raise Http404(NOT_VALID)
    if request.method == "POST":
        return redirect_to_login(request.get_full_path())
    context = {"landing": landing, "campaign": landing.campaign, "terms": landing.campaign.terms}
    return render(request, "campaigns/join.html", context)


def campaign_join(request, code: str):
    """An invitation link: a page that says which campaign it is, and a button to join it as a player."""
    if not request.user.is_authenticated:
        return _welcome(request, code)
    campaign = selectors.campaign_for_invitation(code=code)
    if campaign is None:
        raise Http404(NOT_VALID)
    if selectors.membership_in(campaign=campaign, user=request.user) is not None:
        messages.info(request, f"You are already in {campaign.name}.")
        return redirect("campaign_detail", campaign_id=campaign.pk)
    if request.method == "POST":
        return _join(request, campaign)
    organisers = selectors.campaign_organisers(campaign=campaign)
    context = {"campaign": campaign, "organisers": organisers, "terms": campaign.terms}
    return render(request, "campaigns/join.html", context)
