"""Settings for tests that run against the one Redis of this machine (127.0.0.1:6379, docs/development.md), as deployed.

Every use gets a key prefix of its own, and only that prefix's keys are deleted at the end: other engineers' runs
and benches share the server. Each `as_process()` block starts Django's cache connections afresh, as another
gunicorn worker or host would hold its own, so what one block wrote is only seen by the next through Redis.
"""

from __future__ import annotations

import contextlib
import secrets
import socket

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings

from config.cache import cache_config

REDIS_URL = "redis://127.0.0.1:6379/0"


class SharedRedis:
    def __init__(self) -> None:
        self.prefix = f"wl-test-{secrets.token_hex(6)}"
        self.settings = {
            "CACHES": {"default": cache_config(REDIS_URL, key_prefix=self.prefix)},
            "CACHE_IS_SHARED": True,
            "SESSION_ENGINE": "django.contrib.sessions.backends.cached_db",
        }

    @contextlib.contextmanager
    def as_process(self):
        """Settings as in a deployment with Redis; the cache connections of this block are its own."""
        with override_settings(**self.settings):  # setting CACHES drops the connections made before
            yield caches["default"]
            caches["default"].close()

    def stored_keys(self) -> list[bytes]:
        return list(redis.Redis.from_url(REDIS_URL).scan_iter(match=f"{self.prefix}:*"))

    def flush(self) -> None:
        keys = self.stored_keys()
        if keys:
            redis.Redis.from_url(REDIS_URL).delete(*keys)


def shared_redis_or_skip() -> SharedRedis:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.exceptions.ConnectionError:
        pytest.skip(f"no Redis on {REDIS_URL} (docs/development.md: these machines run one)")
    return SharedRedis()


def dead_redis_settings() -> dict:
    """Settings as with Redis, pointed at a port of this machine nothing listens on: a Redis that is down, without
    stopping the one every engineer shares."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return {
        "CACHES": {"default": cache_config(f"redis://127.0.0.1:{port}/0", key_prefix="wl-test-dead")},
        "CACHE_IS_SHARED": True,
        "SESSION_ENGINE": "django.contrib.sessions.backends.cached_db",
    }
