"""Small helpers the roster views share."""

import functools

from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme

# Invalid input answers 422 with the form and its messages; base.html tells htmx to swap 422 responses in.
UNPROCESSABLE = 422


def add_errors(form, error: ValidationError) -> None:
    """A service's refusal shown on the form, as a message above its fields."""
    for message in error.messages:
        form.add_error(None, message)


def back_url(request, fallback: str) -> str:
    """The page the form was opened from (a `next` naming a page of this site), else `fallback`."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def redirect_back(request, fallback: str):
    """Back to the page the form was on (a `next` field naming a page of this site), else to `fallback`."""
    return redirect(back_url(request, fallback))


def cacheable(*, query: tuple[str, ...] = (), scope: str | None = None):
    """A GET view whose 200 answer config/page_cache.py may keep for the user, under the tokens of what it shows
    (config/page_versions.py): the page shows nothing but their campaigns and account, and `query` names every GET
    parameter it reads (an answer to any other is never kept). `scope` names the URL argument of the one campaign,
    warband or fighter the page shows ("campaign_id", "warband_id", "fighter_id"): the page is kept under that
    one's token (and a warband's or fighter's page under its campaign's too), which a write to it replaces without
    touching the members' other pages. A page without a `scope` shows every campaign of its user (the dashboard),
    and is kept under its user's dashboard token, which a write to any of their campaigns replaces. The
    kept pages are all rosters' (the roster, the campaign page, a fighter's card, the history feed, the dashboard)
    and combat's statistics, and no app may import config: so the mark lives here, and the page cache reads it
    from the request (and, before the view runs, from the view itself)."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            request.page_cache_query = frozenset(query)
            return view(request, *args, **kwargs)

        # Copied onto the decorators stacked above by their functools.wraps.
        wrapped.page_cache_query = frozenset(query)
        wrapped.page_cache_scope = scope
        return wrapped

    return decorate
