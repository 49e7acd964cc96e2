from django.contrib import admin
from django.urls import include, path

from config import pwa, views
from config.env import env_bool

# A lost database answers 503, anything else 500 (config/outages.py).
handler500 = "config.outages.server_error"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # Installable, and readable offline: the worker must be served from the root to control every page.
    path("manifest.webmanifest", pwa.manifest, name="web_manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("admin/", admin.site.urls),
    path("accounts/", include("config.urls_accounts")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("campaigns.urls")),
    path("", include("rosters.urls")),
    path("", include("combat.urls")),
]

# `make bench` only (bench/bench_web.py sets BENCH_VIEWS=true): trivial plain-text views of the same app, with the
# same middleware, that the pages' speed is compared with (one loads the session and user). Never on otherwise.
if env_bool("BENCH_VIEWS", default=False):
    from rosters.views import bench

    urlpatterns += [path("bench/plain", bench.plain), path("bench/authenticated", bench.authenticated)]
