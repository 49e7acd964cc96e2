"""A campaign's members, from its settings page (organiser only): change a member's role, or remove them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns import selectors
from campaigns.access import get_campaign_for_user
from campaigns.forms import MemberForm
from campaigns.models import Membership
from campaigns.services import members as member_services
from campaigns.views.campaigns import UNPROCESSABLE, settings_page


def _refused(request, campaign, membership, reasons: list[str]):
    messages.error(request, " ".join(reasons))
    return settings_page(request, campaign, membership, status=UNPROCESSABLE)


def _change(member: Membership, form: MemberForm, *, by) -> str:
    """Do what the form asks; the sentence that says it was done."""
    if form.cleaned_data["remove"]:
        member_services.membership_remove(membership=member, by=by)
        return f"{member.user} is no longer in {member.campaign.name}."
    role = form.cleaned_data["role"]
    member_services.membership_set_role(membership=member, role=role, by=by)
    return f"{member.user} is now {Membership.Role(role).label}."


@login_required
@require_POST
def campaign_member(request, campaign_id: int, membership_id: int):
    """Change a member's role, or take them out of the campaign (`remove`)."""
    campaign, membership = get_campaign_for_user(request.user, campaign_id, manage=True)
    member = selectors.campaign_member(campaign=campaign, membership_id=membership_id)
    if member is None:
        raise Http404("No such member in this campaign.")
    form = MemberForm(request.POST)
    if not form.is_valid():
        return _refused(request, campaign, membership, [e for errors in form.errors.values() for e in errors])
    try:
        messages.success(request, _change(member, form, by=request.user))
    except ValidationError as error:  # the campaign keeps an organiser (campaigns/errors.py)
        return _refused(request, campaign, membership, error.messages)
    if member.user_id == request.user.pk and form.cleaned_data["remove"]:
        return redirect("dashboard")
    return redirect(reverse("campaign_settings", args=[campaign.pk]) + "#members")
