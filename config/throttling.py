"""Throttling for the account forms django-axes does not watch: sign-up and password reset; and login's address
limit.

Login and the admin login are django-axes' (config/settings.py, AXES_*): it locks a username at one address after
`LOGIN_FAILURE_LIMIT` wrong passwords, so a player who mistypes locks only themselves there, not the gaming club
behind the same address, nor themselves at home. One address trying many usernames is stopped by a much higher
limit counted over axes' own records (`LOGIN_ADDRESS_FAILURE_LIMIT` failures within the cool-off, in
`LoginThrottleBackend`), which then locks every username at that address until the cool-off ends. Here a fixed window per hour and per
key: the client's address for both, and the e-mail address too for a password reset, so neither one address
trying many e-mails nor many addresses trying one e-mail gets far. The counts live in the cache: with the
per-process cache of the settings each web process counts on its own (the limit is per process), which slows
a script down as much as the issue asks; a shared cache (CACHES) makes it exact.

It lives in config/ with the rest of the site's guard (the settings name its login backend and client address,
config/urls_accounts.py puts the throttle in front of the account views): no app calls it.
"""

import functools
import hashlib
import time
from collections.abc import Callable, Iterable

from axes.attempts import get_cool_off_threshold
from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.shortcuts import render

WINDOW_SECONDS = 60 * 60
TOO_MANY_REQUESTS = 429


def client_ip(request) -> str:
    """The client's address: REMOTE_ADDR, or behind the TLS proxy the last address it put in X-Forwarded-For
    (the proxy appends the address it saw; anything before it came from the client and may be made up)."""
    if settings.THROTTLE_TRUST_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR", "")


def _cache_key(scope: str, key: str, window: int) -> str:
    digest = hashlib.sha256(key.lower().encode()).hexdigest()[:32]
    return f"throttle:{scope.replace(' ', '-')}:{window}:{digest}"


def clock() -> int:
    """The clock the windows are counted on, in whole seconds (a test holds it still to compare two askers)."""
    return int(time.time())


def over_limit(scope: str, keys: Iterable[str], *, limit: int) -> int | None:
    """Count one attempt against every key; the minutes left in the window when any key is past `limit`."""
    now = clock()
    window = now // WINDOW_SECONDS
    exceeded = False
    for key in keys:
        name = _cache_key(scope, key, window)
        cache.add(name, 0, timeout=WINDOW_SECONDS)
        try:
            count = cache.incr(name)
        except ValueError:  # evicted between add and incr: count this attempt as the first
            cache.set(name, 1, timeout=WINDOW_SECONDS)
            count = 1
        exceeded = exceeded or count > limit
    if not exceeded:
        return None
    return max(1, ((window + 1) * WINDOW_SECONDS - now + 59) // 60)


def throttled(scope: str, *, limit_setting: str, fields: tuple[str, ...] = ()) -> Callable:
    """A view decorator: POSTs past the limit (per address, and per value of each of `fields`) get a 429 page
    that says how long to wait; the view does not run."""

    def decorator(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST":
                keys = [f"ip:{client_ip(request)}"]
                keys += [f"{field}:{request.POST[field]}" for field in fields if request.POST.get(field)]
                minutes = over_limit(scope, keys, limit=getattr(settings, limit_setting))
                if minutes is not None:
                    context = {"what": scope, "minutes": minutes}
                    return render(request, "registration/throttled.html", context, status=TOO_MANY_REQUESTS)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' check before every login through a page (the site's and the admin's). A call with no request
    (a management command, a script, `authenticate()` in a test) has no address to throttle: axes would refuse it
    outright, so it is left to Django's own backend."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            # As axes refuses a locked-out login: its signal handler records nothing more, its middleware answers
            # with the lock-out page (AXES_LOCKOUT_TEMPLATE).
            request.axes_locked_out = True
            raise AxesBackendPermissionDenied("Too many failed logins from this address.")
        return super().authenticate(request, username=username, password=password, **kwargs)


def address_failures(request) -> int:
    """Failed logins from the request's address within the cool-off, over every username (axes' records)."""
    AxesProxyHandler.update_request(request)  # axes' own reading of the address and the time
    attempts = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=get_cool_off_threshold(request)
    )
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
