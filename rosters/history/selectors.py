"""What the history pages read: the feed's page and links, the filter's choices, a warband's games, the as-of
view, and the campaign a read-only link opens. Views call these and render."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlencode

from django.conf import settings
from django.db import connection

from campaigns.models import Campaign, Game
from rosters.history.entries import HistoryFilter, HistoryPage
from rosters.history.feed import PAGE_SIZE, history_page
from rosters.history.game_changes import game_changes
from rosters.history.snapshot import roster_as_of
from rosters.models import Fighter, Warband

LATEST = 8  # the few newest changes on the campaign page and the fighter's card

# -- the feed's filter --------------------------------------------------------------------------------------------


# The filter's lists in plain SQL: a campaign's fighters number in the hundreds, and the ORM spent more building
# their rows than PostgreSQL reading them. Ordered as `filter_fighters` offers them (tests/history/test_selectors).
_FILTER_ROWS_SQL = """
    SELECT w.id, w.name, f.id, f.name
    FROM rosters_warband w LEFT JOIN rosters_fighter f ON f.warband_id = w.id
    WHERE w.campaign_id = %s
    ORDER BY w.name, w.id, f.name, f.id"""


def filter_warbands_and_fighters(
    *, campaign
) -> tuple[list[tuple[int, str]], list[tuple[int, str, int, str]]]:
    """The (id, name) of the campaign's warbands and `filter_fighters` of the whole campaign, in one query: the
    warbands with their fighters joined, each in the order the filter offers them."""
    with connection.cursor() as db:
        db.execute(_FILTER_ROWS_SQL, [campaign.pk])
        rows = db.fetchall()
    warbands: dict[int, str] = {}
    fighters = []
    for warband_id, warband_name, fighter_id, fighter_name in rows:
        warbands.setdefault(warband_id, warband_name)
        if fighter_id is not None:
            fighters.append((fighter_id, fighter_name, warband_id, warband_name))
    return list(warbands.items()), fighters


def filter_fighters(*, campaign, warband=None) -> list[tuple[int, str, int, str]]:
    """(id, name, warband id, warband name) of the fighters the filter offers, grouped by warband."""
    fighters = Fighter.objects.order_by("warband__name", "warband_id", "name", "id")
    fighters = (
        fighters.filter(warband=warband)
        if warband is not None
        else fighters.filter(warband__campaign=campaign)
    )
    return list(fighters.values_list("id", "name", "warband_id", "warband__name"))


def game_id_by_number(*, campaign, number: int) -> int | None:
    return Game.objects.filter(campaign=campaign, number=number).values_list("id", flat=True).first()


# -- the feed -----------------------------------------------------------------------------------------------------


@cache
def markup_version() -> str:
    """A digest of the history's template, the form field's (the filter box's fields are written by it) and the
    site's time zone (the lines' times are shown in it), part of the key of the feed's cached groups and filter
    box, so a changed markup never meets parts cached from the old one."""
    from django.template.loader import get_template

    templates = ("rosters/history_parts.html", "forms/field.html")
    source = "".join(get_template(name).template.source for name in templates) + settings.TIME_ZONE
    return hashlib.blake2b(source.encode(), digest_size=8).hexdigest()


def join(url: str, query: str, **more) -> str:
    extra = urlencode(more)
    parts = "&".join(p for p in (query, extra) if p)
    return f"{url}?{parts}" if parts else url


@dataclass
class Feed:
    """One answer of the feed: a page of entries and the links around it.

    `mode` says what the page is: "page" (newest or older), "new" (what happened since the poll's cursor),
    "overflow" (more happened than one page holds: the newest page again, to replace the feed) or "nothing"."""

    mode: str
    page: HistoryPage
    more_url: str | None = None
    poll_url: str | None = None

    def context(self, *, url: str, query: str, before: str | None, csv_base: str | None) -> dict:
        context = {"page": self.page, "more_url": self.more_url, "poll_url": self.poll_url}
        if self.mode == "page":
            context.update(
                before=before,
                newest_url=join(url, query),
                csv_url=join(csv_base, query) if csv_base else None,
            )
        return context


def _poll(*, campaign, filters: HistoryFilter, url: str, query: str, after: str) -> Feed:
    page = history_page(campaign=campaign, filters=filters, after=after)
    if page.overflow:
        page = history_page(campaign=campaign, filters=filters)
        return Feed(
            "overflow",
            page,
            more_url=join(url, query, before=page.older) if page.older else None,
            poll_url=join(url, query, after=page.newest) if page.newest else None,
        )
    if not page.entries:
        return Feed("nothing", page)
    return Feed("new", page, poll_url=join(url, query, after=page.newest))


def feed(
    *,
    campaign,
    filters: HistoryFilter,
    url: str,
    query: str,
    before: str | None = None,
    after: str | None = None,
    short: bool = False,
) -> Feed:
    """The feed's page: older than `before`, newer than `after` (polling), or the newest (`short`: a few only).
    Raises `BadCursor` for a cursor not made by the feed."""
    if after:
        return _poll(campaign=campaign, filters=filters, url=url, query=query, after=after)
    limit = LATEST if short else PAGE_SIZE
    page = history_page(campaign=campaign, filters=filters, before=before or None, limit=limit)
    return Feed(
        "page",
        page,
        more_url=join(url, query, before=page.older) if page.older else None,
        poll_url=join(url, query, after=page.newest) if page.newest and not before else None,
    )


def latest(*, campaign, limit: int = 15) -> HistoryPage:
    return history_page(campaign=campaign, limit=limit)


# -- a warband's games and the as-of view ---------------------------------------------------------------------


def warband_games(*, warband, status: bool = True) -> list[tuple]:
    """(id, number, played_on[, status]) of the warband's games, newest first: the as-of links of its timeline."""
    columns = ("id", "number", "played_on", "status") if status else ("id", "number", "played_on")
    return list(Game.objects.filter(players__warband=warband).order_by("-number").values_list(*columns))


def campaign_game(*, campaign_id: int, game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id, campaign_id=campaign_id).first()


def as_of_page(*, warband, game, membership=None, links: str = "member") -> dict:
    """The roster as of the game, what the game changed, and the games before and after it."""
    campaign = warband.campaign
    as_of = roster_as_of(warband=warband, game=game)
    changes = game_changes(warband=warband, game=game, moment=as_of.moment, campaign=campaign)
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


# -- read-only links ----------------------------------------------------------------------------------------------


def shared_campaign(*, token: str) -> Campaign | None:
    """The campaign a read-only link opens; None once it is revoked or replaced."""
    return Campaign.objects.filter(share_token=token).first()


def shared_warband(*, campaign, warband_id: int) -> Warband | None:
    return (
        Warband.objects.filter(pk=warband_id, campaign=campaign).select_related("campaign", "owner").first()
    )
