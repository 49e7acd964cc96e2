"""Which cache the processes share: Django's Redis backend when `REDIS_URL` is set, else local memory.

Redis is what a deployment of more than one web process uses (docker-compose.yml), so a fragment one worker
renders is served by the others and a session read by any of them comes from memory. `make run` and the test
suite need no Redis: one process, its own memory. The two behave alike for every key the apps use, since none of
them can be stale (config/settings.py says why).
"""

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

# An hour: the board's version and the fragments are rewritten whenever they change, so the timeout only bounds
# what an idle campaign keeps in memory.
TIMEOUT_SECONDS = 60 * 60


def cache_config(redis_url: str | None, *, key_prefix: str = "wl") -> dict:
    if redis_url is None:
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "warband-ledger",
            "TIMEOUT": TIMEOUT_SECONDS,
            "KEY_PREFIX": key_prefix,
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    if urlsplit(redis_url).scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"REDIS_URL must be a Redis URL such as redis://redis:6379/0; got {redis_url!r}."
        )
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": redis_url,
        "TIMEOUT": TIMEOUT_SECONDS,
        "KEY_PREFIX": key_prefix,
        # A Redis that does not answer fails the request quickly (a 503, config/outages.py), never hangs it.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
