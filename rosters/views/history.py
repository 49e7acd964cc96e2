"""History pages: the campaign feed, a warband's and a fighter's timeline, the roster as of a game, the CSV.

Every page here calls `rosters.history.selectors` and renders; the feed's htmx parts are partials of
`templates/rosters/history_parts.html`:

- `?before=<cursor>` with htmx: the next older page, swapped in place of the "Older changes" link;
- `?after=<cursor>` with htmx: what happened since, prepended (204 when nothing did) — the feed polls this;
- a filter change with htmx: the feed alone;
- `?part=latest` / `?part=timeline`: the few newest changes, for the campaign page and the fighter's card.
Without JavaScript the same URLs are plain pages.
"""

from __future__ import annotations

import csv

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET
from django_htmx.http import reswap, retarget

from campaigns.access import get_campaign_for_user
from rosters.access import get_fighter_for_user, get_warband_for_user
from rosters.history import selectors
from rosters.history.entries import HistoryFilter, HistoryPage
from rosters.history.feed import iter_history
from rosters.history.forms import HistoryFilterForm
from rosters.history.sources import BadCursor
from rosters.views.common import cacheable

POLL_SECONDS = 10
PARTS = "rosters/history_parts.html"
SHORT_PARTS = {"latest": f"{PARTS}#history-latest", "timeline": f"{PARTS}#fighter-timeline"}


def _feed_template(request, feed: selectors.Feed, template: str, before: str | None) -> str:
    """The page, or the part of it an htmx request or a `part=` asks for."""
    part = request.GET.get("part")
    if feed.mode == "new":
        return f"{PARTS}#history-new"
    if feed.mode == "overflow":
        return f"{PARTS}#history-feed"
    if part in SHORT_PARTS:
        return SHORT_PARTS[part]
    if request.htmx and before:
        return f"{PARTS}#history-older"
    if request.htmx and request.htmx.target == "history-feed":
        return f"{PARTS}#history-feed"
    return template


def _page_context(context: dict, *, campaign, form, url: str, links: str) -> dict:
    empty = HistoryPage(entries=[], older=None, newest=None)
    return {
        **context,
        "campaign": campaign,
        "terms": campaign.terms,
        "filter_form": form,
        "history_url": url,
        "links": links,
        "poll_seconds": POLL_SECONDS,
        "page": empty,
        "history_markup": selectors.markup_version(),
    }


def _refused(request, template: str, context: dict):
    # A filter from a hand-edited link, or a game number the campaign does not have: said, nothing shown.
    # htmx swaps a 422 in (base.html), so the message replaces the feed where the player is looking.
    if request.htmx and request.htmx.target == "history-feed":
        return render(request, f"{PARTS}#history-feed", context, status=422)
    return render(request, template, context, status=400)


def _read_feed(request, *, campaign, form, url: str) -> selectors.Feed:
    return selectors.feed(
        campaign=campaign,
        filters=form.history_filter(campaign),
        url=url,
        query=form.querystring(),
        before=request.GET.get("before"),
        after=request.GET.get("after"),
        short=request.GET.get("part") in SHORT_PARTS,
    )


def history_response(
    request, *, campaign, template: str, url: str, context: dict, links: str = "member", **fixed
):
    """The feed on a page: filters, one keyset page, its htmx parts. Shared by the campaign, warband, fighter and
    read-only share pages (`fixed`: the `warband` or `fighter` a timeline is about); `links` says which links the
    sentences' headings may carry ("member" or "share")."""
    form = HistoryFilterForm(request.GET, campaign=campaign, **fixed)
    context = _page_context(context, campaign=campaign, form=form, url=url, links=links)
    if not form.is_valid():
        return _refused(request, template, context)
    try:
        feed = _read_feed(request, campaign=campaign, form=form, url=url)
    except BadCursor as error:
        return render(request, template, {**context, "error": str(error)}, status=400)
    if feed.mode == "nothing":
        return HttpResponse(status=204)
    before = request.GET.get("before")
    context.update(
        feed.context(url=url, query=form.querystring(), before=before, csv_base=context.get("csv_base"))
    )
    response = render(request, _feed_template(request, feed, template, before), context)
    # More happened than one page holds: the newest page again replaces the feed rather than leave a gap.
    return reswap(retarget(response, "#history-feed"), "outerHTML") if feed.mode == "overflow" else response


# -- pages ------------------------------------------------------------------------------------------------------


@require_GET
@login_required
@cacheable(query=("warband", "fighter", "game", "kind", "part", "before"), scope="campaign_id")
def campaign_history(request, campaign_id: int):
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    return history_response(
        request,
        campaign=campaign,
        template="rosters/history.html",
        url=reverse("campaign_history", args=[campaign.pk]),
        context={
            "membership": membership,
            "csv_base": reverse("campaign_history_csv", args=[campaign.pk]),
        },
    )


@require_GET
@login_required
def warband_history(request, warband_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id)
    return history_response(
        request,
        campaign=warband.campaign,
        warband=warband,
        template="rosters/history_warband.html",
        url=reverse("warband_history", args=[warband.pk]),
        context={
            "membership": membership,
            "warband": warband,
            "games": selectors.warband_games(warband=warband),
        },
    )


@require_GET
@login_required
def fighter_history(request, fighter_id: int):
    fighter, membership = get_fighter_for_user(request.user, fighter_id)
    return history_response(
        request,
        campaign=fighter.warband.campaign,
        fighter=fighter,
        template="rosters/history_fighter.html",
        url=reverse("fighter_history", args=[fighter.pk]),
        context={"membership": membership, "fighter": fighter, "warband": fighter.warband},
    )


@require_GET
@login_required
def warband_as_of(request, warband_id: int, game_id: int):
    warband, membership = get_warband_for_user(request.user, warband_id)
    game = selectors.campaign_game(campaign_id=warband.campaign_id, game_id=game_id)
    if game is None:
        raise Http404("No such game in this campaign.")
    context = selectors.as_of_page(warband=warband, game=game, membership=membership)
    return render(request, "rosters/as_of.html", context)


# -- CSV --------------------------------------------------------------------------------------------------------

CSV_COLUMNS = ["When", "Game", "Warband", "Fighter", "Kind", "Change", "Who", "Action", "Reason", "Sentence"]


class _Echo:
    def write(self, value):
        return value


def _cell(value) -> str:
    # A spreadsheet runs a cell that starts with = + - @ as a formula: names are players' input, keep them text.
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def history_csv_rows(campaign, filters: HistoryFilter):
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_COLUMNS)
    for entry in iter_history(campaign=campaign, filters=filters):
        for change in entry.changes:
            yield writer.writerow(
                [
                    _cell(v)
                    for v in (
                        timezone.localtime(entry.at).isoformat(),
                        entry.game.title if entry.game else "",
                        entry.warband_name or "",
                        entry.fighter_name or "",
                        change.kind,
                        change.text,
                        entry.who or "",
                        entry.action or "",
                        entry.reason or "",
                        change.told,
                    )
                ]
            )


@require_GET
@login_required
def campaign_history_csv(request, campaign_id: int):
    """The whole history (or its filtered part) as CSV, streamed page by page so it never sits in memory."""
    campaign, _membership = get_campaign_for_user(request.user, campaign_id)
    form = HistoryFilterForm(request.GET, campaign=campaign)
    if not form.is_valid():
        return HttpResponse(
            "Those filters are not valid for this campaign.", status=400, content_type="text/plain"
        )
    response = StreamingHttpResponse(
        history_csv_rows(campaign, form.history_filter(campaign)),
        content_type="text/csv; charset=utf-8",
    )
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-history-{stamp}.csv"'
    return response
