"""What the ledger answers when its database cannot be reached: a 503 page, never a 500.

`server_error` is the project's handler500. Django calls it from inside the `except` block that caught the
exception, so the exception is still at hand: a lost connection answers 503 with `templates/503.html`; anything
else stays a 500, because a bug is not an outage. The shared cache (Redis) holds the sessions and is
asked by every page: a Redis that cannot be reached is an outage too, answered the same way.
"""

import sys

import redis.exceptions
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseServerError
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

# Marks a response given because the database could not be reached (DatabaseOutageMiddleware retries on it).
UNAVAILABLE = "database_unavailable"


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


@requires_csrf_token
def server_error(request, template_name: str = "500.html") -> HttpResponse:
    if is_lost_connection(sys.exc_info()[1]):
        return outage_response()
    # Django's own default handler500, minus the request context (which may need the database too).
    try:
        return HttpResponseServerError(loader.render_to_string(template_name))
    except loader.TemplateDoesNotExist:
        return HttpResponseServerError("<h1>Server Error (500)</h1>", content_type="text/html")
