"""Campaign pages of the `campaigns` app: create a campaign, and its settings page (organiser only).

The campaign page itself (`/campaigns/<id>/`) shows warbands, so it lives in `rosters` (docs/architecture.md). The
settings page's forms post to their own views: members (views/members.py) and the invitation link
(views/invitations.py); each re-renders the page through `settings_page` when it refuses. The settings page shows
which Trauma Table the campaign rolls on and links to its editor, which is combat's
(combat/views/trauma_table.py): the engine that says what a Trauma Table is lives there.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse

from campaigns import selectors
from campaigns.access import get_campaign_for_user
from campaigns.forms import CampaignForm, CampaignSettingsForm
from campaigns.models import Membership
from campaigns.services import campaigns as campaign_services

UNPROCESSABLE = 422


def add_errors(form, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


@login_required
def campaign_create(request):
    form = CampaignForm(request.POST or None)
    if request.method != "POST":
        return render(request, "campaigns/campaign_new.html", {"form": form})
    if form.is_valid():
        try:
            campaign = campaign_services.campaign_create(by=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(
                request, f"{campaign.name} is ready. Share the invitation link below with your group."
            )
            return redirect("campaign_detail", campaign_id=campaign.pk)
    return render(request, "campaigns/campaign_new.html", {"form": form}, status=UNPROCESSABLE)


def invitation_url(request, campaign) -> str:
    return request.build_absolute_uri(reverse("campaign_join", args=[campaign.invitation_code]))


def settings_page(request, campaign, membership, *, status=200, settings_form=None):
    """The settings page, with a refused form bound (and its status) when a post did not go through."""
    context = {
        "campaign": campaign,
        "membership": membership,
        "terms": campaign.terms,
        "form": settings_form or CampaignSettingsForm(instance=campaign),
        "members": selectors.campaign_members(campaign=campaign),
        "roles": Membership.Role.choices,
        "invitation_url": invitation_url(request, campaign),
    }
    return render(request, "campaigns/settings.html", context, status=status)


@login_required
def campaign_settings(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    if request.method != "POST":
        return settings_page(request, campaign, membership)
    # A bound form on a fresh copy: a refused change leaves the campaign object (and the page header) as it was.
    form = CampaignSettingsForm(request.POST, instance=selectors.campaign_fresh_copy(campaign=campaign))
    if form.is_valid():
        try:
            campaign_services.campaign_update(campaign=campaign, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, "Settings saved.")
            return redirect("campaign_settings", campaign_id=campaign.pk)
    return settings_page(request, campaign, membership, settings_form=form, status=UNPROCESSABLE)
