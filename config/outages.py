"""What the ledger answers when its database or its shared cache cannot be reached: a 503 page, never a 500.

A lost connection is an outage, not a bug. Django turns an exception raised anywhere in the middleware chain into
a response at the layer that raised it, and sends `got_request_exception` from inside that `except` block, before
it builds the response (with DEBUG on, its technical 500 page; with DEBUG off, handler500). So:

- `note_lost_connection` (connected to that signal by config/apps.py) marks the request when the exception being
  handled is a lost connection, whatever the mode;
- `config.middleware.DatabaseOutageMiddleware`, outermost, answers a marked request with `outage_response()`, so
  `make run` (DEBUG on) says 503 as production does;
- `server_error`, the project's handler500, answers 503 too when the exception at hand is a lost connection: the
  net for an exception raised outside the chain the middleware wraps. Anything else stays a 500.

The shared cache (Redis) holds the sessions and is asked by every page: a Redis that cannot be reached is an
outage too, answered the same way.
"""

import sys

import redis.exceptions
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseServerError
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

# Marks a response given because the database could not be reached (DatabaseOutageMiddleware retries on it).
UNAVAILABLE = "database_unavailable"
# Marks a request during which a lost connection was caught by some layer of the middleware chain.
LOST_CONNECTION = "lost_connection"


def is_lost_connection(error: BaseException | None) -> bool:
    """A database or cache that cannot be reached or dropped the connection, as opposed to a bug (IntegrityError)."""
    return isinstance(
        error,
        OperationalError | InterfaceError | redis.exceptions.ConnectionError | redis.exceptions.TimeoutError,
    )


def outage_response() -> HttpResponse:
    """The 503 page, rendered without the request: its context processors would read the session from the very
    database that is gone."""
    response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = "30"
    response["Cache-Control"] = "no-store"
    setattr(response, UNAVAILABLE, True)
    return response


def note_lost_connection(sender, request=None, **kwargs) -> None:
    """`got_request_exception`: sent from inside the `except` block that caught the exception, so it is at hand."""
    if request is not None and is_lost_connection(sys.exc_info()[1]):
        setattr(request, LOST_CONNECTION, True)


@requires_csrf_token
def server_error(request, template_name: str = "500.html") -> HttpResponse:
    if is_lost_connection(sys.exc_info()[1]):
        return outage_response()
    # Django's own default handler500, minus the request context (which may need the database too).
    try:
        return HttpResponseServerError(loader.render_to_string(template_name))
    except loader.TemplateDoesNotExist:
        return HttpResponseServerError("<h1>Server Error (500)</h1>", content_type="text/html")
