"""Campaign pages of the `campaigns` app: create a campaign, and its settings page (organiser only).

The campaign page itself (`/campaigns/<id>/`) shows warbands, so it lives in `rosters` (ARCHITECTURE.md). The
settings page's forms post to their own views: members (views/members.py), the invitation link
(views/invitations.py) and the house Trauma Table (below, moving to `combat` in issue 10); each re-renders the
page through `settings_page` when it refuses.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import selectors
from campaigns.access import get_campaign_for_user
from campaigns.forms import CampaignForm, CampaignSettingsForm, TraumaTableFormSet
from campaigns.models import Membership
from campaigns.services import campaigns as campaign_services
from campaigns.services import trauma_table as trauma_table_services
from campaigns.trauma_tables import d66_range, default_title

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


def _trauma_table_context(campaign, table_formset) -> dict:
    """The settings page's Trauma Table section (moving to `combat` with the house-table editor)."""
    house = campaign.house_trauma_table
    if table_formset is None and house:
        table_formset = TraumaTableFormSet(initial=house, prefix="rows")
    rows = selectors.trauma_table_rows(campaign=campaign)
    return {
        "table_rows": [{**row, "rolls": d66_range(row)} for row in rows],
        "table_formset": table_formset,
        "default_title": default_title(),
    }


def settings_page(request, campaign, membership, *, status=200, settings_form=None, table_formset=None):
    """The settings page, with a refused form bound (and its status) when a post did not go through."""
    context = {
        "campaign": campaign,
        "membership": membership,
        "terms": campaign.terms,
        "form": settings_form or CampaignSettingsForm(instance=campaign),
        "members": selectors.campaign_members(campaign=campaign),
        "roles": Membership.Role.choices,
        "invitation_url": invitation_url(request, campaign),
        **_trauma_table_context(campaign, table_formset),
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


@login_required
@require_POST
def campaign_trauma_table(request, campaign_id: int):
    """Copy the default table to edit it, save the edited rows, or go back to the default."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    action = request.POST.get("action")
    anchor = reverse("campaign_settings", args=[campaign.pk]) + "#trauma-table"
    if action == "copy":
        from campaigns.trauma_tables import default_rows

        trauma_table_services.campaign_set_trauma_table(
            campaign=campaign, rows=default_rows(), by=request.user
        )
        messages.success(request, "The default Trauma Table is copied: edit your campaign's own rows below.")
        return redirect(anchor)
    if action == "default":
        trauma_table_services.campaign_set_trauma_table(campaign=campaign, rows=None, by=request.user)
        messages.success(request, "The campaign rolls on the default Trauma Table again.")
        return redirect(anchor)
    if action != "save":
        return settings_page(request, campaign, membership, status=400)
    formset = TraumaTableFormSet(request.POST, prefix="rows")
    if formset.is_valid():
        try:
            trauma_table_services.campaign_set_trauma_table(
                campaign=campaign, rows=formset.rows, by=request.user
            )
        except (
            ValidationError
        ) as error:  # the formset checked the same rules; kept for a race with another tab
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, "The campaign's Trauma Table is saved.")
            return redirect(anchor)
    return settings_page(request, campaign, membership, table_formset=formset, status=UNPROCESSABLE)
