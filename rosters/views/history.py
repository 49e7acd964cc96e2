"""History pages: the campaign feed, a warband's and a fighter's timeline, the roster as of a game, the CSV.

Every page here reads `rosters.history` and renders; the feed's htmx parts are partials of
`templates/rosters/history_parts.html`:

- `?before=<cursor>` with htmx: the next older page, swapped in place of the "Older changes" link;
- `?after=<cursor>` with htmx: what happened since, prepended (204 when nothing did) — the feed polls this;
- a filter change with htmx: the feed alone;
- `?part=latest` / `?part=timeline`: the few newest changes, for the campaign page and the fighter's card.
Without JavaScript the same URLs are plain pages.
"""

from __future__ import annotations

import csv
from urllib.parse import urlencode

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET
from django_htmx.http import reswap, retarget

from campaigns.access import get_campaign_for_user
from campaigns.models import Game
from rosters import history
from rosters.access import get_fighter_for_user, get_warband_for_user
from rosters.models import Fighter, Warband
from rosters.widgets import FastSelect

POLL_SECONDS = 10
LATEST = 8


class HistoryFilterForm(forms.Form):
    """The feed's filters, with choices from the campaign (a value from elsewhere is refused, not trusted). A game
    is chosen by its number: campaigns run to hundreds of games, too many for a list."""

    warband = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, widget=FastSelect)
    fighter = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, widget=FastSelect)
    game = forms.IntegerField(
        required=False, min_value=1, max_value=1_000_000, label="Game number", widget=forms.NumberInput
    )
    kind = forms.ChoiceField(required=False, label="Kind of change", widget=FastSelect)

    def __init__(self, data, *, campaign, warband=None, fighter=None):
        super().__init__(data)
        terms = campaign.terms
        self.campaign = campaign
        self.fixed_warband, self.fixed_fighter = warband, fighter
        self.fighter_warbands: dict[int, int] = {}
        self.fields["warband"].label = terms.warband_title
        self.fields["game"].widget.attrs.update(placeholder="Every game", inputmode="numeric")
        if warband is not None or fighter is not None:
            del self.fields["warband"]
        else:
            rows = Warband.objects.filter(campaign=campaign).order_by("name", "id").values_list("id", "name")
            self.fields["warband"].choices = [("", f"Every {terms.warband}"), *rows]
        if fighter is not None:
            del self.fields["fighter"]
        else:
            fighters = Fighter.objects.order_by("warband__name", "warband_id", "name", "id")
            if warband is not None:
                fighters = fighters.filter(warband=warband)
            else:
                fighters = fighters.filter(warband__campaign=campaign)
            groups: dict[str, list] = {}
            for pk, name, warband_id, warband_name in fighters.values_list(
                "id", "name", "warband_id", "warband__name"
            ):
                groups.setdefault(warband_name, []).append((pk, name))
                self.fighter_warbands[pk] = warband_id
            choices = list(groups.items()) if warband is None else next(iter(groups.values()), [])
            self.fields["fighter"].choices = [("", "Every fighter"), *choices]
        self.fields["kind"].choices = [("", "Every change"), *history.kind_choices(terms)]

    def clean_game(self):
        number = self.cleaned_data.get("game")
        if number is None:
            self.game_id = None
            return None
        self.game_id = (
            Game.objects.filter(campaign=self.campaign, number=number).values_list("id", flat=True).first()
        )
        if self.game_id is None:
            raise forms.ValidationError(f"There is no Game {number} in this campaign.")
        return number

    def clean(self):
        data = super().clean()
        warband_id, fighter_id = data.get("warband"), data.get("fighter")
        if warband_id and fighter_id and self.fighter_warbands.get(fighter_id) != warband_id:
            self.add_error("fighter", "That fighter is not in the chosen warband.")
        return data

    def history_filter(self, campaign) -> history.HistoryFilter:
        data = self.cleaned_data
        return history.HistoryFilter(
            campaign_id=campaign.pk,
            warband_id=self.fixed_warband.pk if self.fixed_warband else data.get("warband"),
            fighter_id=self.fixed_fighter.pk if self.fixed_fighter else data.get("fighter"),
            game_id=getattr(self, "game_id", None),
            kind=data.get("kind") or None,
        )

    def querystring(self) -> str:
        """The chosen filters, to carry into the older-page and polling links."""
        if not self.is_valid():
            return ""
        return urlencode({k: v for k, v in self.cleaned_data.items() if v not in (None, "")})

    @property
    def is_filtered(self) -> bool:
        return bool(self.querystring())


def _join(url: str, query: str, **more) -> str:
    extra = urlencode(more)
    parts = "&".join(p for p in (query, extra) if p)
    return f"{url}?{parts}" if parts else url


def history_response(
    request,
    *,
    campaign,
    template: str,
    url: str,
    context: dict,
    warband=None,
    fighter=None,
    links: str = "member",
):
    """The feed on a page: filters, one keyset page, its htmx parts. Shared by the campaign, warband, fighter and
    read-only share pages; `links` says which links the sentences' headings may carry ("member" or "share")."""
    form = HistoryFilterForm(request.GET, campaign=campaign, warband=warband, fighter=fighter)
    context = {
        **context,
        "campaign": campaign,
        "terms": campaign.terms,
        "filter_form": form,
        "history_url": url,
        "links": links,
        "poll_seconds": POLL_SECONDS,
        "page": history.HistoryPage(entries=[], older=None, newest=None),
    }
    if not form.is_valid():
        # A filter from a hand-edited link, or a game number the campaign does not have: said, nothing shown.
        # htmx swaps a 422 in (base.html), so the message replaces the feed where the player is looking.
        if request.htmx and request.htmx.target == "history-feed":
            return render(request, "rosters/history_parts.html#history-feed", context, status=422)
        return render(request, template, context, status=400)
    filters = form.history_filter(campaign)
    query = form.querystring()
    part = request.GET.get("part")
    try:
        if request.GET.get("after"):
            return _poll(request, campaign, filters, url, query, context)
        limit = LATEST if part in ("latest", "timeline") else history.PAGE_SIZE
        page = history.history_page(
            campaign=campaign, filters=filters, before=request.GET.get("before") or None, limit=limit
        )
    except history.BadCursor as error:
        context["error"] = str(error)
        return render(request, template, context, status=400)
    before = request.GET.get("before")
    context.update(
        page=page,
        before=before,
        more_url=_join(url, query, before=page.older) if page.older else None,
        poll_url=_join(url, query, after=page.newest) if page.newest and not before else None,
        newest_url=_join(url, query),
        csv_url=_join(context["csv_base"], query) if context.get("csv_base") else None,
    )
    if part == "latest":
        return render(request, "rosters/history_parts.html#history-latest", context)
    if part == "timeline":
        return render(request, "rosters/history_parts.html#fighter-timeline", context)
    if request.htmx and before:
        return render(request, "rosters/history_parts.html#history-older", context)
    if request.htmx and request.htmx.target == "history-feed":
        return render(request, "rosters/history_parts.html#history-feed", context)
    return render(request, template, context)


def _poll(request, campaign, filters, url, query, context):
    page = history.history_page(campaign=campaign, filters=filters, after=request.GET["after"])
    if page.overflow:
        # More happened than one page holds: show the newest page again rather than leave a gap.
        page = history.history_page(campaign=campaign, filters=filters)
        context.update(
            page=page,
            more_url=_join(url, query, before=page.older) if page.older else None,
            poll_url=_join(url, query, after=page.newest) if page.newest else None,
        )
        response = render(request, "rosters/history_parts.html#history-feed", context)
        return reswap(retarget(response, "#history-feed"), "outerHTML")
    if not page.entries:
        return HttpResponse(status=204)
    context.update(page=page, poll_url=_join(url, query, after=page.newest))
    return render(request, "rosters/history_parts.html#history-new", context)


# -- pages ------------------------------------------------------------------------------------------------------


@require_GET
@login_required
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
    games = list(
        Game.objects.filter(players__warband=warband)
        .order_by("-number")
        .values_list("id", "number", "played_on", "status")
    )
    return history_response(
        request,
        campaign=warband.campaign,
        warband=warband,
        template="rosters/history_warband.html",
        url=reverse("warband_history", args=[warband.pk]),
        context={"membership": membership, "warband": warband, "games": games},
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
    game = Game.objects.filter(pk=game_id, campaign_id=warband.campaign_id).first()
    if game is None:
        raise Http404("No such game in this campaign.")
    return render(
        request, "rosters/as_of.html", as_of_context(warband=warband, game=game, membership=membership)
    )


def as_of_context(*, warband, game, membership=None, links: str = "member") -> dict:
    campaign = warband.campaign
    as_of = history.roster_as_of(warband=warband, game=game)
    changes = history.game_changes(warband=warband, game=game, moment=as_of.moment, campaign=campaign)
    games = list(
        Game.objects.filter(players__warband=warband).order_by("number").values_list("id", "number", "status")
    )
    position = next((i for i, (pk, _n, _s) in enumerate(games) if pk == game.pk), None)
    previous_game = games[position - 1] if position else None
    next_game = games[position + 1] if position is not None and position + 1 < len(games) else None
    return {
        "campaign": campaign,
        "terms": campaign.terms,
        "warband": warband,
        "game": game,
        "membership": membership,
        "as_of": as_of,
        "snapshot": as_of.snapshot,
        "changes": changes,
        "previous_game": previous_game,
        "next_game": next_game,
        "links": links,
    }


# -- CSV --------------------------------------------------------------------------------------------------------

CSV_COLUMNS = ["When", "Game", "Warband", "Fighter", "Kind", "Change", "Who", "Action", "Reason", "Sentence"]


class _Echo:
    def write(self, value):
        return value


def _cell(value) -> str:
    # A spreadsheet runs a cell that starts with = + - @ as a formula: names are players' input, keep them text.
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def history_csv_rows(campaign, filters: history.HistoryFilter):
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_COLUMNS)
    for entry in history.iter_history(campaign=campaign, filters=filters):
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
