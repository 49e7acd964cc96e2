"""`/healthz`, for load balancers and Docker's HEALTHCHECK: 200 only when the instance can answer a logged-in page.

A logged-in page needs the database and, where the deployment shares a cache (`REDIS_URL`, CACHE_IS_SHARED), Redis:
it holds the sessions and every page asks it first, so a Redis that cannot be reached makes every such page a 503
(config/outages.py). Both are checked; the answer names each one's state. Without a shared cache, the cache is the
process's own memory, which cannot be down, and is not named.
"""

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.outages import is_lost_connection

PROBE_KEY = "healthz"


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return "unreachable"
    return "ok"


def _cache() -> str:
    try:
        cache.get(PROBE_KEY)
    except Exception as error:  # noqa: BLE001 - any failure of the cache fails the check; a bug is named too
        return "unreachable" if is_lost_connection(error) else f"failing: {type(error).__name__}"
    return "ok"


@require_GET
@never_cache
def healthz(request):
    """200 when the database (and the shared cache, if there is one) answers, 503 naming what does not."""
    checks = {"database": _database()}
    if settings.CACHE_IS_SHARED:
        checks["cache"] = _cache()
    healthy = all(state == "ok" for state in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
