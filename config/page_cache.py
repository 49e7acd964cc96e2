"""Whole pages answered from the shared cache: a page read again, with nothing changed, costs one
round trip to Redis and one small query (whether its user may still load it).

The views that may be kept say so (`rosters.views.common.cacheable`): the roster, the campaign page, a
fighter's card, the history feed, the statistics, the dashboard. Their 200 answer is kept, compressed, for the session that asked,
under the tokens read *before* the view ran (config/page_versions.py says which, and who replaces them).
The next GET of the same address with the same headers is answered from one `get_many` of:

- the session, as Django's `cached_db` sessions keep it: it must still be there, name the same user with the same
  auth hash, and hold exactly what it held when the page was kept (so a message waiting to be shown, or anything
  else a page might read from it, sends the request down the full path);
- the kept page, keyed on the session, the CSRF cookie (its forms carry that browser's token), the address, the
  htmx headers, whether gzip is accepted and the build (templates and code);
- the user's page generation (and the site's), the first named by the `wl_member` cookie a page that may be kept
  sets: only a hint of which key to read, checked against the session's user, never trusted for access;
- the token of the campaign, warband or fighter the address names (`cacheable`'s `scope`), or of the user's
  dashboard, which a board action or a write to the campaign replaces (config/page_versions.py);
- for a roster or a fighter's card, the token of every page of its campaign (`within_key`), which a write to the
  campaign replaces: the page holds which campaign's it was kept under, and this process's guess of it
  (`guessed_campaign`) is fetched with the rest; without one (a fresh worker), it costs one more round trip.

(That is five or six keys in one `get_many`.) When all of them match, one indexed query reads the user's access state
(`page_versions.access_state`: the account exists and is active, its password, each campaign with their role) and
the page is served only if it is what it was when the page was rendered, read before the view ran: a user
deactivated, deleted, removed or demoted by a write that told no one (a queryset update, SQL) is sent down the
full path, which answers as a fresh load does. That query is the price of never serving a page to a user who
could not load it now; Redis alone cannot know what the database was told behind Django's back. The full path of
a page that may be kept reads the state once more, before its view runs (`may_be_kept`).

The tracker's poll is answered here too, before the rest of the chain, when
its 204 can be told from the cache alone (combat/selectors/tracker_poll.py).

Anything that does not match takes the full path, which then keeps its answer again. An answer is only kept when
nothing about it is the request's own: no cookie set but the CSRF token the browser already has, the session not
changed, every GET parameter one the view reads. A kept page lives PAGE_SECONDS at most.

It sits inside GZipMiddleware, WhiteNoise, CSP and SecurityMiddleware, whose headers every answer still gets, and
outside the session, CSRF and auth middleware, which a kept answer does not need.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.cached_db import KEY_PREFIX as SESSION_KEY_PREFIX
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

from combat.selectors import tracker_poll
from config import page_versions
from config.middleware import keep_private

PAGE_SECONDS = 10 * 60
MEMBER_COOKIE = "wl_member"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# The request headers a page may read: htmx's (which part to send) and whether it may be compressed.
VARY_HEADERS = (
    "HTTP_HX_REQUEST",
    "HTTP_HX_TARGET",
    "HTTP_HX_TRIGGER",
    "HTTP_HX_TRIGGER_NAME",
    "HTTP_HX_BOOSTED",
    "HTTP_HX_HISTORY_RESTORE_REQUEST",
    "HTTP_HX_CURRENT_URL",
)
_SESSION_KEY = re.compile(r"[a-z0-9]{32}")
_CACHED_SESSIONS = "django.contrib.sessions.backends.cached_db"
_GZIP = re.compile(r"\bgzip\b")
# Headers a kept answer is given again; cookies never are.
_NOT_KEPT = frozenset({"set-cookie", "content-length"})
POLL_SUFFIX = "/tracker/board/"


@functools.cache
def build() -> str:
    """A digest of the code and templates, so a kept page never outlives the release that rendered it."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(settings.BASE_DIR)
    for top in ("config", "campaigns", "rosters", "combat", "templates"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix in {".py", ".html", ".json"} and "tests" not in path.parts:
                digest.update(path.read_bytes())
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.exists():
        digest.update(manifest.read_bytes())
    return digest.hexdigest()


def session_digest(data: dict) -> str:
    return hashlib.blake2b(json.dumps(data, sort_keys=True, default=str).encode(), digest_size=16).hexdigest()


class _Lookup:
    """The keys one GET may be answered from, or None from `of` when it cannot be."""

    def __init__(self, request: HttpRequest, session_key: str, member: str, scope: tuple[str, str | None]):
        self.member = member
        self.gzip = bool(_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
        csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
        parts = [build(), session_key, csrf, request.get_full_path(), str(self.gzip)]
        parts += [request.META.get(header, "") for header in VARY_HEADERS]
        name = hashlib.blake2b("\n".join(parts).encode(), digest_size=16).hexdigest()
        self.page_key = f"page:{name}"
        self.session_key = SESSION_KEY_PREFIX + session_key
        kind, pk = scope
        # The tokens the page is kept under (config/page_versions.py): its user's, the site's and its own scope's
        # (the campaign, warband or fighter its address names; the dashboard's of its user)...
        own = page_versions.scope_key(kind, pk) if pk is not None else page_versions.scope_key(kind, member)
        self.keys = [page_versions.generation_key(member), page_versions.SITE_KEY, own]
        # ...and, for a warband's or a fighter's page, the token of every page of its campaign (`within_key`),
        # whose campaign the address does not name: read from the database before the view renders, and kept with
        # the page; to answer a kept page, this process's guess of it is fetched with the rest.
        self.parent = (kind, pk) if kind in WITHIN_A_CAMPAIGN else None
        self.campaign: int | None = None
        # The tokens as read before the view renders (key: value), or None when one could not be read.
        self.tokens: dict[str, str] | None = None
        self._found: dict[str, str] = {}
        # The user's access state as read before the view renders (page_versions.access_state).
        self.access: str | None = None

    @classmethod
    def of(cls, request: HttpRequest) -> _Lookup | None:
        if request.method != "GET" or settings.SESSION_ENGINE != _CACHED_SESSIONS:
            return None
        session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
        member = request.COOKIES.get(MEMBER_COOKIE, "")
        if not _SESSION_KEY.fullmatch(session_key) or not member.isdigit():
            return None
        if settings.CSRF_COOKIE_NAME not in request.COOKIES or "messages" in request.COOKIES:
            return None
        scope = page_scope(request)
        if scope is None:
            return None
        return cls(request, session_key, member, scope)

    def _within_guess(self) -> list[str]:
        if self.parent is None:
            return []
        campaign = page_versions.guessed_campaign(*self.parent)
        return [page_versions.within_key(campaign)] if campaign is not None else []

    def answer(self) -> HttpResponse | None:
        """The kept page when everything it was kept under still holds; else None."""
        asked = [*self.keys, *self._within_guess()]
        found = cache.get_many([self.session_key, self.page_key, *asked])
        self._found = {key: found[key] for key in asked if key in found}
        page, session = found.get(self.page_key), found.get(self.session_key)
        if page is None or session is None:
            return None
        if not (
            page["user"] == self.member == str(session.get(SESSION_KEY))
            and page["auth"] == session.get(HASH_SESSION_KEY)
            and page["session"] == session_digest(session)
        ):
            return None
        kept_under = page["tokens"]
        if not set(self.keys) <= kept_under.keys():
            return None
        unread = [key for key in kept_under if key not in asked]
        if unread:  # this process had no guess (or a wrong one) of the page's campaign: one more round trip
            self._found.update(cache.get_many(unread))
            if self.parent is not None and page["campaign"] is not None:
                page_versions.remember_campaign(*self.parent, page["campaign"])
        # The campaign the database said the page's warband or fighter is in, when it was kept: a warband never
        # changes campaign, so the page rendered again is kept under the same one without asking again.
        self.campaign = page["campaign"]
        if any(self._found.get(key) != value for key, value in kept_under.items()):
            return None
        self.access = page_versions.access_state(self.member)
        if self.access is None or page["access"] != self.access:
            return None
        response = HttpResponse(page["body"], status=page["status"])
        for name, value in page["headers"]:
            response[name] = value
        response["Content-Length"] = str(len(page["body"]))
        return response

    def read_before_rendering(self) -> None:
        """The user's access state and the tokens the page will be kept under, read before the view renders (see
        config/page_versions.py); the page's campaign from the database (with the access state, in one query) or
        from the kept page of this address found stale (the database's word when it was kept), never from the
        guess."""
        if self.parent is not None and self.campaign is None:
            self.access, self.campaign = page_versions.access_state_and_campaign(self.member, *self.parent)
        elif self.access is None:
            self.access = page_versions.access_state(self.member)
        keys = list(self.keys)
        if self.parent is not None:
            if self.campaign is None:  # no such warband or fighter: the view answers 404, which is not kept
                return
            keys.append(page_versions.within_key(self.campaign))
        if all(self._found.get(key) is not None for key in keys):  # read already, with the kept page
            self.tokens = {key: self._found[key] for key in keys}
            return
        values = page_versions.generations(self.member, *keys[2:])
        if None not in values:
            self.tokens = dict(zip(keys, values, strict=True))

    def keep(self, request: HttpRequest, response: HttpResponse) -> None:
        allowed = getattr(request, "page_cache_query", None)
        user = getattr(request, "user", None)
        if allowed is None or self.tokens is None or self.access is None:
            return
        if response.status_code != 200 or response.streaming:
            return
        if user is None or not user.is_authenticated or str(user.pk) != self.member:
            return
        if not set(request.GET) <= allowed or response.has_header("Content-Encoding"):
            return
        session = request.session
        if session.modified or not _only_csrf_renewed(request, response):
            return
        if self.gzip:
            _compress(response)
        cache.set(
            self.page_key,
            {
                "tokens": self.tokens,
                "campaign": self.campaign,
                "user": self.member,
                "auth": session.get(HASH_SESSION_KEY),
                "access": self.access,
                "session": session_digest(dict(session.items())),
                "status": response.status_code,
                "headers": [(k, v) for k, v in response.items() if k.lower() not in _NOT_KEPT],
                "body": response.content,
            },
            timeout=PAGE_SECONDS,
        )


def _only_csrf_renewed(request: HttpRequest, response: HttpResponse) -> bool:
    """No cookie is set but the CSRF one, renewed with the value the browser sent (its forms' tokens match it)."""
    for name, morsel in response.cookies.items():
        if name != settings.CSRF_COOKIE_NAME or morsel.value != request.COOKIES.get(name):
            return False
    return True


def _compress(response: HttpResponse) -> None:
    """As GZipMiddleware would (with its random padding against BREACH), once, for every answer kept."""
    response.content = compress_string(response.content, max_random_bytes=100)
    response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(response.content))
    patch_vary_headers(response, ("Accept-Encoding",))


def _member_cookie(request: HttpRequest, response: HttpResponse) -> None:
    """The hint of whose generation to read, set for a logged-in user on a page that may be kept."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and request.COOKIES.get(MEMBER_COOKIE) != str(user.pk):
        response.set_cookie(
            MEMBER_COOKIE,
            str(user.pk),
            max_age=settings.SESSION_COOKIE_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )


class PageCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not page_versions.enabled():
            return self.get_response(request)
        if request.path_info.endswith(POLL_SUFFIX):
            unchanged = _board_unchanged(request)
            if unchanged is not None:
                return unchanged
        if request.method not in SAFE_METHODS:
            with page_versions.listening() as heard:
                response = self.get_response(request)
            _after_write(request, told=bool(heard))
            return response
        lookup = _Lookup.of(request)
        if lookup is not None:
            kept = lookup.answer()
            if kept is not None:
                return kept
            lookup.read_before_rendering()  # see config/page_versions.py
        response = self.get_response(request)
        if getattr(request, "page_cache_query", None) is not None:
            if lookup is not None:
                lookup.keep(request, response)
            _member_cookie(request, response)
        return response


def may_be_kept(request: HttpRequest) -> bool:
    """Whether the view the address leads to is one whose answer may be kept (`rosters.views.common.cacheable`)."""
    return page_scope(request) is not None


# The pages whose address names a warband or a fighter, not its campaign: kept under the campaign's `within_key`
# too, which every write to the campaign but a board action replaces.
WITHIN_A_CAMPAIGN = frozenset({"warband", "fighter"})


def page_scope(request: HttpRequest) -> tuple[str, str | None] | None:
    """The scope the page at this address is kept under: ("campaign", id), ("warband", id) or ("fighter", id) as
    `cacheable`'s `scope` names the URL argument, ("dashboard", None) for the page that names none (its user's
    dashboard); None when its answer may not be kept at all."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if getattr(match.func, "page_cache_query", None) is None:
        return None
    scope = getattr(match.func, "page_cache_scope", None)
    if scope is None:
        return (page_versions.DASHBOARD, None)
    if scope not in match.kwargs:  # an address that does not name what the page is kept under: never kept
        return None
    return (scope.removesuffix("_id"), str(match.kwargs[scope]))


def _board_unchanged(request: HttpRequest) -> HttpResponse | None:
    """The tracker's poll, every 2 seconds from every phone at the table: its 204 answered here, from the cache
    alone (combat/selectors/tracker_poll.py), before any other middleware runs; anything else goes to the view."""
    if request.method != "GET":
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if match.url_name != "tracker_board":
        return None
    if not tracker_poll.board_unchanged(
        session_key=request.COOKIES.get(settings.SESSION_COOKIE_NAME),
        game_id=match.kwargs["game_id"],
        version=request.GET.get("version"),
    ):
        return None
    response = HttpResponse(status=204)
    # Read from the session in the cache, not through request.session: the answer depends on the cookie, and is
    # that session's alone, as every answer to a logged-in user (config/middleware.py).
    patch_vary_headers(response, ["Cookie"])
    return keep_private(response)


def _after_write(request: HttpRequest, *, told: bool) -> None:
    """After a write through the admin, everyone's pages are read again. After any other write request that told
    config/page_versions.py nothing of what it touched (no history context named a campaign or a game, no user
    was saved: a form refused, a logout, a write no service owns), its sender's own pages are: the net under the
    replacements the writes themselves make."""
    match = getattr(request, "resolver_match", None)
    if match is not None and "admin" in match.namespaces:
        page_versions.everything_changed()
    user = getattr(request, "user", None)
    if not told and user is not None and user.is_authenticated:
        page_versions.users_changed(user.pk)
