"""The campaign's statistics at `/campaigns/<id>/stats/`: the campaign in figures and charts, readable by every
member, and kept in the page cache like the campaign page (it shows nothing but the campaign)."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.access import get_campaign_for_user
from combat.selectors.campaign_stats import campaign_stats
from rosters.views.common import cacheable


@login_required
@require_GET
@cacheable(scope="campaign_id")
def campaign_stats_page(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    context = {
        "campaign": campaign,
        "membership": membership,
        "terms": campaign.terms,
        "stats": campaign_stats(campaign=campaign),
    }
    return render(request, "combat/campaign_stats.html", context)
