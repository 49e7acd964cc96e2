"""What templates/base.html shows on every page alike: its links and its static files' addresses, worked out once
per process rather than by `{% url %}` and `{% static %}` at every page (about half of drawing base.html).

They depend only on the URLconf, the settings and the script prefix the site is served under, so they are kept
per prefix and forgotten when a setting changes (a test's override_settings), as Django forgets its own.

They are worked out when a template first reads them, never before: the error pages (templates/400.html) are drawn
through the same context processors, and a request for a host this site does not serve must be refused without
reading the static files' manifest (it may not exist yet, and a missing entry raises).
"""

import functools

from django.core.signals import setting_changed
from django.templatetags.static import PrefixNode, static
from django.urls import get_script_prefix, reverse
from django.utils.functional import SimpleLazyObject

# base.html's links, by URL name.
LINKS = (
    "dashboard",
    "account",
    "logout",
    "login",
    "signup",
    "web_manifest",
    "service_worker",
    "offline",
    "rules",
)
# base.html's stylesheet and scripts.
STATIC_FILES = {"stylesheet": "css/ledger.css", "htmx": "vendor/htmx/htmx.min.js", "script": "js/ledger.js"}


@functools.cache
def _site(prefix: str) -> dict[str, str]:
    site = {name: reverse(name) for name in LINKS}
    site.update({name: static(path) for name, path in STATIC_FILES.items()})
    site["static_prefix"] = PrefixNode.handle_simple("STATIC_URL")
    return site


def site_links(request) -> dict:
    """`site_links`: base.html's links and static addresses, as `{% url %}` and `{% static %}` would write them."""
    prefix = get_script_prefix()
    return {"site_links": SimpleLazyObject(lambda: _site(prefix))}


def _forget(**kwargs) -> None:
    _site.cache_clear()


setting_changed.connect(_forget, dispatch_uid="context_processors.site")
