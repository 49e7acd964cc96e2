"""The campaign's dice log at `/campaigns/<id>/dice/`: every roll, readable by every member, and a
warband's roll history at `/warbands/<id>/dice/`: the same log, only that warband's rolls."""

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaigns.access import get_campaign_for_user
from combat.forms.dice_log import DiceLogFilterForm
from combat.selectors.dice_log import BadDiceCursor, DiceLogPage, dice_log_page
from rosters.access import get_warband_for_user

PAGE = "combat/dice_log.html"


def _links(url: str, form: DiceLogFilterForm, page: DiceLogPage) -> dict:
    """The older page's link (the filters kept) and the newest page's."""
    query = form.querystring()
    more = urlencode({"before": page.older}) if page.older else ""
    return {
        "more_url": f"{url}?{'&'.join(p for p in (query, more) if p)}" if page.older else None,
        "newest_url": f"{url}?{query}" if query else url,
    }


def _template(request, before: str | None) -> str:
    """htmx asks for the older rolls (appended) or the filtered log (swapped in); else the whole page."""
    if request.htmx and before:
        return f"{PAGE}#dice-log-older"
    if request.htmx and request.htmx.target == "dice-log":
        return f"{PAGE}#dice-log"
    return PAGE


def _dice_log(request, *, campaign, membership, url: str, warband=None):
    """The log's page for the campaign, or for one warband of it: filters checked, then one page of rolls."""
    form = DiceLogFilterForm(request.GET, campaign=campaign, warband=warband)
    context = {"campaign": campaign, "membership": membership, "terms": campaign.terms, "form": form}
    context.update(log_url=url, warband=warband, page=DiceLogPage(rolls=[], older=None))
    context["campaign_log_url"] = reverse("campaign_dice_log", args=[campaign.pk])
    if not form.is_valid():
        # htmx swaps a 422 in (base.html): the message takes the log's place where the player is looking.
        if request.htmx and request.htmx.target == "dice-log":
            return render(request, f"{PAGE}#dice-log", context, status=422)
        return render(request, PAGE, context, status=400)
    before = request.GET.get("before") or None
    warband_id = warband.pk if warband is not None else form.cleaned_data["warband"]
    filters = {"game_id": form.game_id, "warband_id": warband_id, "status": form.cleaned_data["status"]}
    try:
        page = dice_log_page(campaign=campaign, before=before, **filters)
    except BadDiceCursor as error:
        return render(request, PAGE, {**context, "error": str(error)}, status=400)
    context.update(page=page, before=before, **_links(url, form, page))
    return render(request, _template(request, before), context)


@require_GET
@login_required
def campaign_dice_log(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    return _dice_log(request, campaign=campaign, membership=membership, url=url)


@require_GET
@login_required
def warband_dice_log(request, warband_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id)
    url = reverse("warband_dice_log", args=[warband.pk])
    return _dice_log(request, campaign=warband.campaign, membership=membership, url=url, warband=warband)
