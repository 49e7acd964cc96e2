"""Campaign pages of the `campaigns` app: create a campaign, its settings (organiser only), join by invitation.

The campaign page itself (`/campaigns/<id>/`) shows warbands, so it lives in `rosters` (ARCHITECTURE.md).

The settings page shows which Trauma Table the campaign rolls on and links to its editor, which is combat's
(combat/views/trauma_table.py): the engine that says what a Trauma Table is lives there.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import selectors, services
from campaigns.access import get_campaign_for_user
from campaigns.forms import CampaignForm, CampaignSettingsForm
from campaigns.models import Campaign, Membership

UNPROCESSABLE = 422


def _add_errors(form, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


@login_required
def campaign_create(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                campaign = services.campaign_create(by=request.user, **form.cleaned_data)
            except ValidationError as error:
                _add_errors(form, error)
            else:
                messages.success(
                    request, f"{campaign.name} is ready. Share the invitation link below with your group."
                )
                return redirect("campaign_detail", campaign_id=campaign.pk)
        return render(request, "campaigns/campaign_new.html", {"form": form}, status=UNPROCESSABLE)
    return render(request, "campaigns/campaign_new.html", {"form": form})


def invitation_url(request, campaign: Campaign) -> str:
    return request.build_absolute_uri(reverse("campaign_join", args=[campaign.invitation_code]))


def _settings_page(request, campaign, membership, *, status=200, settings_form=None):
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
        return _settings_page(request, campaign, membership)
    # A bound form on a fresh copy: a refused change leaves the campaign object (and the page header) as it was.
    form = CampaignSettingsForm(request.POST, instance=Campaign.objects.get(pk=campaign.pk))
    if form.is_valid():
        try:
            services.campaign_update(campaign=campaign, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            _add_errors(form, error)
        else:
            messages.success(request, "Settings saved.")
            return redirect("campaign_settings", campaign_id=campaign.pk)
    return _settings_page(request, campaign, membership, settings_form=form, status=UNPROCESSABLE)


@login_required
@require_POST
def campaign_rotate_invitation(request, campaign_id: int):
    campaign, _ = get_campaign_for_user(request.user, campaign_id, manage=True)
    services.campaign_rotate_invitation(campaign=campaign, by=request.user)
    messages.success(request, "New invitation link made; the old one no longer works.")
    return redirect(reverse("campaign_settings", args=[campaign.pk]) + "#invitation")


@login_required
@require_POST
def campaign_member(request, campaign_id: int, membership_id: int):
    """Change a member's role, or take them out of the campaign."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    member = get_object_or_404(
        Membership.objects.select_related("user", "campaign"), pk=membership_id, campaign=campaign
    )
    try:
        if "remove" in request.POST:
            services.membership_remove(membership=member, by=request.user)
            messages.success(request, f"{member.user} is no longer in {campaign.name}.")
        else:
            role = request.POST.get("role")
            if role not in Membership.Role.values:
                raise ValidationError("Choose organiser, player or spectator.")
            services.membership_set_role(membership=member, role=role, by=request.user)
            messages.success(request, f"{member.user} is now {Membership.Role(role).label}.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return _settings_page(request, campaign, membership, status=UNPROCESSABLE)
    if member.user_id == request.user.pk and "remove" in request.POST:
        return redirect("dashboard")
    return redirect(reverse("campaign_settings", args=[campaign.pk]) + "#members")


@login_required
def campaign_join(request, code: str):
    """An invitation link: a page that says which campaign it is, and a button to join it as a player."""
    campaign = selectors.campaign_for_invitation(code=code)
    if campaign is None:
        raise Http404("This invitation link is not valid any more. Ask the organiser for a new one.")
    membership = Membership.objects.filter(campaign=campaign, user=request.user).first()
    if membership is not None:
        messages.info(request, f"You are already in {campaign.name}.")
        return redirect("campaign_detail", campaign_id=campaign.pk)
    if request.method == "POST":
        try:
            services.campaign_join(code=code, user=request.user)
        except ValidationError as error:
            return render(
                request,
                "campaigns/join.html",
                {"campaign": campaign, "errors": error.messages, "terms": campaign.terms},
                status=UNPROCESSABLE,
            )
        messages.success(request, f"Welcome to {campaign.name}! Add your warband to get started.")
        return redirect("campaign_detail", campaign_id=campaign.pk)
    organisers = [
        m.user for m in selectors.campaign_members(campaign=campaign) if m.role == Membership.Role.ORGANISER
    ]
    return render(
        request,
        "campaigns/join.html",
        {"campaign": campaign, "organisers": organisers, "terms": campaign.terms},
    )
