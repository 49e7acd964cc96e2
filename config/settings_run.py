"""Settings of `make run` (config/serve.py): production's, served over plain HTTP on one host with no Redis.

DEBUG is off whatever the environment says (`make dev` is the mode with DEBUG). What production reads from the
environment, this mode finds on the host, and the environment still wins where it says something:

- SECRET_KEY: made on the first start and kept in `.data/secret_key` (config/serve.py), so a fresh clone needs no
  `.env`, and a restart keeps every session valid;
- ALLOWED_HOSTS: this machine's own names; config/serve.py adds its network addresses when it binds 0.0.0.0;
- plain HTTP on the table's network: no redirect to HTTPS, no HSTS, and cookies not marked Secure, which a phone
  would never send back to an http:// address (CSRF still checks each form's Origin against the address opened);
- e-mail (password resets) printed on the server's console rather than sent through an SMTP server it lacks;
- one cache for every process: files under `.data/cache` (config/cache.py's HostFileCache, Django's file cache
  with a cheaper write and an `add` that never overwrites). gunicorn runs several processes, and a
  page one of them kept must be replaced when a write on another changes it (config/page_versions.py), so each
  process's own memory, whose copies would disagree and serve stale pages, is never used. With it the page
  cache, the tracker's cached poll and `cached_db` sessions work as deployed with Redis. `REDIS_URL`, when set,
  is used instead.
"""

import os

from config.serve import local_secret_key, run_data_dir

RUN_DATA_DIR = run_data_dir()
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", local_secret_key(RUN_DATA_DIR))
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("SESSION_COOKIE_SECURE", "false")
os.environ.setdefault("CSRF_COOKIE_SECURE", "false")
os.environ.setdefault("SECURE_HSTS_SECONDS", "0")
os.environ.setdefault("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")

from config.cache import TIMEOUT_SECONDS  # noqa: E402
from config.settings import *  # noqa: E402,F403
from config.settings import REDIS_URL  # noqa: E402

# Files rather than rows of a cache table: a read is one small file read, no query, and every process of the host
# sees the same files. config/cache.py's HostFileCache spreads them over 256 folders, so a write lists only its own
# folder to keep it under its share of MAX_ENTRIES (a third of that folder dropped when full): the cost of a write
# does not grow with the limit. A dropped page or token only costs the next read a render, never a stale page.
FILE_CACHE_ENTRIES = 10_000

if REDIS_URL is None:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.HostFileCache",
            "LOCATION": str(RUN_DATA_DIR / "cache"),
            "TIMEOUT": TIMEOUT_SECONDS,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX") or "wl",
            "OPTIONS": {"MAX_ENTRIES": FILE_CACHE_ENTRIES, "CULL_FREQUENCY": 3},
        }
    }
    CACHE_IS_SHARED = True
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
