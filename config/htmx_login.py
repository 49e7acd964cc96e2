"""An htmx request whose session has expired goes to the login page as a whole page.

`login_required` answers any anonymous request with a 302 to the login page. htmx follows a 302 inside its own
request and would swap the login form into the card or the board it was refreshing. This middleware, placed after
django-htmx's (so `request.htmx` is set), turns that redirect into `HX-Redirect`: htmx then loads the login page as
a page. Its `next` is the page the browser shows (htmx's `HX-Current-URL`, when it is on this site), not the
fragment's address, so logging in again leads back to the page and not to a bare partial.
"""

from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect


class HtmxLoginRedirectMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or response.status_code not in (301, 302, 303, 307):
            return response
        login_path = resolve_url(settings.LOGIN_URL)
        if urlsplit(response.get("Location", "")).path != login_path:
            return response
        return HttpResponseClientRedirect(f"{login_path}?{urlencode({REDIRECT_FIELD_NAME: _next(request)})}")


def _next(request: HttpRequest) -> str:
    """The page the browser is on when it is this site's, else the address htmx asked for."""
    page = request.htmx.current_url_abs_path
    if page and url_has_allowed_host_and_scheme(page, allowed_hosts={request.get_host()}):
        return page
    return request.get_full_path()
