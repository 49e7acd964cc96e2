"""Outages answered, never crashed: a lost database or Redis gives a short 503 page, never a 500, in every mode.

Django turns an exception raised anywhere in the middleware chain into a response before the next middleware out
sees it (each one is wrapped by `convert_exception_to_response`), so pghistory's middleware reading the session
user of a logged-in request fails before any view's own error handling runs. The pieces:

- `HealthCheckMiddleware`, first in the chain, answers `/healthz` itself: no session, no user, no host check and
  no HTTPS redirect, so Docker's HEALTHCHECK on `http://127.0.0.1:8000/healthz` gets the database's real state
  whatever cookies or Host header come with it.
- `DatabaseOutageMiddleware`, outermost, answers 503 with `templates/503.html` when some layer inside it caught a
  lost connection (config/outages.py marks the request from Django's `got_request_exception`, sent before DEBUG's
  technical 500 page or handler500 is built): so the 503 holds with DEBUG on (`make run`) as with it off. It
  retries a safe request (GET, HEAD) once on a fresh connection when the first attempt lost its connection: a
  connection killed mid-request costs a reader nothing. A write is not retried (it is one transaction, rolled
  back whole by the server when its connection dies), so it answers 503.
- `config.outages.server_error` (handler500) answers 503 too, for an exception raised outside what the middleware
  wraps.
- `PrivateCacheMiddleware` marks every answer to a logged-in user `Cache-Control: private, no-store` unless the view
  set its own: a roster, an export or a history CSV is that user's, and no shared proxy nor the browser's disk may
  keep it (a phone lent to a friend, a club's shared laptop). The service worker's copies for offline reading are
  its own (static/sw.js puts them in its cache itself); static files never reach this far (WhiteNoise answers
  them, with their own long-lived headers); a view that says its own (`never_cache`, the manifest's and the
  offline page's `cache_control`) keeps it. A page kept by config/page_cache.py was kept with this header, so it
  is served with it again.
"""

import logging

from django.db import connections
from django.http import HttpRequest, HttpResponse

from config import views
from config.outages import LOST_CONNECTION, UNAVAILABLE, outage_response

logger = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEALTHZ_PATH = "/healthz"
PRIVATE = "private, no-store"


def _drop_broken_connections() -> None:
    # A connection whose server end was terminated is useless: close it so the retry opens a new one.
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


class HealthCheckMiddleware:
    """Answers `/healthz` before any other middleware can touch the session, the host or the scheme."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTHZ_PATH:
            return views.healthz(request)
        return self.get_response(request)


class DatabaseOutageMiddleware:
    """503 for a request that lost its database or cache, in every mode; one retry on a fresh connection for a
    safe one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self._answer(request)
        if getattr(response, UNAVAILABLE, False) and request.method in SAFE_METHODS:
            logger.warning(
                "Database connection lost during %s %s; retrying once", request.method, request.path
            )
            _drop_broken_connections()
            response = self._answer(request)
        return response

    def _answer(self, request: HttpRequest) -> HttpResponse:
        setattr(request, LOST_CONNECTION, False)
        response = self.get_response(request)
        if getattr(request, LOST_CONNECTION, False) and not getattr(response, UNAVAILABLE, False):
            # With DEBUG on, Django answered with its technical 500 page; the outage is still an outage.
            return outage_response()
        return response


def keep_private(response: HttpResponse) -> HttpResponse:
    """`Cache-Control: private, no-store`, unless the response already says its own."""
    if not response.has_header("Cache-Control"):
        response["Cache-Control"] = PRIVATE
    return response


class PrivateCacheMiddleware:
    """Every answer to a logged-in user is theirs alone: no cache but theirs keeps it, and not on disk."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.has_header("Cache-Control"):
            return response  # the view's own word, read before the user is (which may cost a query)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            keep_private(response)
        return response
