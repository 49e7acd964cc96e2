"""What makes the site installable and readable offline: the web app manifest, the service worker at
the site's root, and the page it shows offline for a page this phone never opened.

Project-wide, like /healthz: no app owns them, and none reads the database.
"""

from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

# The site's own colours (static/css/ledger.css: `--bg` light; the icon's ground). Dark mode's are on base.html's
# `theme-color` meta tags, which follow prefers-color-scheme; a manifest holds one of each.
THEME_COLOUR = "#2b2118"
BACKGROUND_COLOUR = "#f7f5f0"
# Chromium's installability asks for a 192 px and a 512 px icon; a maskable one fills the shapes phones crop to.
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
WORKER_FILE = "sw.js"


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request):
    """The web app manifest: name, icons by their static (hashed) names, standalone, starting at the dashboard."""
    start = reverse("dashboard")
    data = {
        "name": "Warband Ledger",
        "short_name": "Ledger",
        "description": "Skirmish wargame campaigns at the table: rosters, a live tracker, the post-battle sequence.",
        "id": start,
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@never_cache
def service_worker(request):
    """static/sw.js from the site's root, so its scope is every page (a worker controls only the paths under its
    own URL); never cached, so a new version reaches the phones on their next visit."""
    path = finders.find(WORKER_FILE)
    if path is None:
        raise Http404("No service worker.")
    with open(path, "rb") as worker:
        response = HttpResponse(worker.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=0, public=True)
def offline(request):
    """What the service worker shows, with no connection, for a page this phone has not opened before."""
    return render(request, "offline.html")
