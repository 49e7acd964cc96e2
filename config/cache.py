"""Which cache the processes share: Django's Redis backend when `REDIS_URL` is set, else local memory; and the one
way to forget everything in it.

Redis is what a deployment of more than one web process uses (docker-compose.yml), so a fragment one worker
renders is served by the others and a session read by any of them comes from memory. `make run` and the test
suite need no Redis: one process, its own memory. The two behave alike for every key the apps use, since none of
them can be stale (config/settings.py says why).

None can be stale *while the database only moves forward*. A restore (`manage.py restore`, config/backups.py)
moves it back: the sessions the cache holds belong to the world before it, a kept page, a page generation or a
scope token (config/page_versions.py, which lists every key the site keeps and what makes it stale) to rows that
are gone, the tracker's board versions and readers (combat/access_cache.py,
combat/selectors/tracker_poll.py) to boards that were elsewhere, and the campaign page's fragment versions come
from a sequence the restore sets back, so numbers already used would name fragments of the old rows again. So the
restore calls `forget_everything`: every key under this site's prefix is deleted, whoever owns it, including any
key added after this was written. Only this site's keys: a Redis shared with other sites (or, in the tests, other
engineers' runs) keeps theirs, which Django's own `cache.clear()` (Redis's FLUSHDB) would not.
"""

import re
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

REDIS_BACKEND = "django.core.cache.backends.redis.RedisCache"
# Keys deleted per UNLINK while scanning, so a large cache is emptied without one huge command.
FORGET_BATCH = 500

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
        "BACKEND": REDIS_BACKEND,
        "LOCATION": redis_url,
        "TIMEOUT": TIMEOUT_SECONDS,
        "KEY_PREFIX": key_prefix,
        # A Redis that does not answer fails the request quickly (a 503, config/outages.py), never hangs it.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }


def forget_everything() -> int:
    """Delete every key this site keeps in the default cache (the sessions' too: SESSION_CACHE_ALIAS is it), and
    say how many. On Redis, the keys under the site's prefix on the server Django writes to; in local memory,
    this process's own (other processes' memory is out of reach: they must be restarted)."""
    from django.conf import settings
    from django.core.cache import cache

    config = settings.CACHES["default"]
    if config["BACKEND"] != REDIS_BACKEND:
        cache.clear()
        return 0
    import redis

    location = config["LOCATION"]
    leader = re.split("[;,]", location)[0] if isinstance(location, str) else location[0]
    client = redis.Redis.from_url(leader, **config.get("OPTIONS", {}))
    # Django's key function: "<prefix>:<version>:<key>"; every version of every key of this prefix.
    pattern = re.sub(r"([*?\[\]\\])", r"\\\1", config.get("KEY_PREFIX", "")) + ":*"
    forgotten, batch = 0, []
    try:
        for key in client.scan_iter(match=pattern, count=FORGET_BATCH):
            batch.append(key)
            if len(batch) == FORGET_BATCH:
                forgotten += client.unlink(*batch)
                batch = []
        if batch:
            forgotten += client.unlink(*batch)
    finally:
        client.close()
    return forgotten
