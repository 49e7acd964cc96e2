"""Settings for the test suite: the same as production but quick and self-contained."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("SESSION_COOKIE_SECURE", "false")
os.environ.setdefault("CSRF_COOKIE_SECURE", "false")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from config.cache import cache_config  # noqa: E402
from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Hashed static names 404 under live_server (docs/development.md); tests serve the files as they are.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
SECURE_HSTS_SECONDS = 0
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# The whole suite signs up and resets from 127.0.0.1 in one process; config/tests/test_throttling.py sets the
# real limits back for the tests of the throttle itself.
SIGNUPS_PER_HOUR = 1000
PASSWORD_RESETS_PER_HOUR = 1000

# The suite's cache is each process's own memory, whatever REDIS_URL the shell exports (a developer's, docker
# compose's): tests must not share keys with a running site or with another run, and the page-cache tests assert
# what a process without a shared cache does. Tests of the shared cache take this machine's Redis under a key
# prefix of their own (config/tests/shared_cache.py).
REDIS_URL = None
CACHES = {"default": cache_config(None, key_prefix="wl")}
CACHE_IS_SHARED = False
SESSION_ENGINE = "django.contrib.sessions.backends.db"
