"""Which cache the processes share: Django's Redis backend when `REDIS_URL` is set, else local memory (`make run`
shares files instead: `HostFileCache`, config/settings_run.py); and the one way to forget everything in it.

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

import contextlib
import fcntl
import glob
import os
import pickle
import random
import re
import tempfile
import time
import zlib
from hashlib import md5
from urllib.parse import urlsplit

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.core.exceptions import ImproperlyConfigured

REDIS_BACKEND = "config.cache.SharedClientRedisCache"
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


class _OneClientPerPool(RedisCacheClient):
    """Django's Redis client, keeping one `redis.Redis` per connection pool. Django's builds a new one around the
    pool on every cache call, which costs more than the GET it sends (about 120 us against 90 measured here), and
    a page makes several calls. A `redis.Redis` may be shared by threads: each command borrows a connection from
    the pool and gives it back."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            # The pools live as long as this object, so a pool's id names it for the process's life.
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class SharedClientRedisCache(RedisCache):
    """Django's Redis cache backend, with a client reused across calls (`_OneClientPerPool`)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _OneClientPerPool


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


class HostFileCache(FileBasedCache):
    """Django's file cache as `make run`'s processes share it (config/settings_run.py): the same files, read the
    same way (one small file a key, its expiry then its zlib-compressed pickle), with three changes.

    - The files are spread over 256 folders by their name's first two hex digits, and a write culls only its own
      folder. Django's lists the whole folder before every write to count the entries, which cost 1.3 ms a write
      for each thousand files kept (4 ms at 3,000) and deleted a third of them at once when full; here a write lists
      one folder of about MAX_ENTRIES / 256 files and culls a third of that folder when it is full.
    - `add` writes only where no entry is: the new file is linked in place, which fails if another process's file
      is there. Django's checks first and writes after, so a reader adding what it read from the database could
      overwrite a newer value a writer set in between: the tracker's poll (combat/selectors/tracker_poll.py) then
      said "unchanged" to a phone at the older version.
    - `incr` runs under a lock of its folder and keeps the entry's expiry, so two requests counting one throttle
      (config/throttling.py) both count; Django's reads and writes unlocked and gives the entry a new timeout.

    A dropped entry only costs the next read a render or a query (config/page_versions.py): never a stale page.
    """

    FOLDERS = 256
    LOCK_NAME = ".lock"

    def _key_to_file(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        name = md5(key.encode(), usedforsecurity=False).hexdigest()
        return os.path.join(self._dir, name[:2], name + self.cache_suffix)

    def _draft(self, fname: str, timeout, value, *, expiry: float | None | object = DEFAULT_TIMEOUT) -> str:
        """The entry written to a temporary file beside `fname` (its folder made when missing), expiring after
        `timeout` or at `expiry` when given; its path."""
        folder = os.path.dirname(fname)
        try:
            fd, draft = tempfile.mkstemp(dir=folder)
        except FileNotFoundError:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            fd, draft = tempfile.mkstemp(dir=folder)
        try:
            with open(fd, "wb") as file:
                if expiry is DEFAULT_TIMEOUT:
                    self._write_content(file, timeout, value)
                else:
                    file.write(pickle.dumps(expiry, self.pickle_protocol))
                    file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol)))
        except BaseException:
            os.remove(draft)
            raise
        return draft

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fname = self._key_to_file(key, version)
        draft = self._draft(fname, timeout, value)
        self._cull_folder(os.path.dirname(fname))
        os.replace(draft, fname)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fname = self._key_to_file(key, version)
        if self._still_there(fname):  # the usual answer, read without writing anything
            return False
        draft = self._draft(fname, timeout, value)
        try:
            for _ in range(2):  # once more when the entry found had expired (and was deleted on reading it)
                try:
                    os.link(draft, fname)
                except FileExistsError:
                    if self._still_there(fname):
                        return False
                else:
                    self._cull_folder(os.path.dirname(fname), keep=os.path.basename(fname))
                    return True
            return False
        finally:
            os.remove(draft)

    def _still_there(self, fname: str) -> bool:
        try:
            with open(fname, "rb") as file:
                return not self._is_expired(file)
        except FileNotFoundError:
            return False

    def incr(self, key, delta=1, version=None):
        fname = self._key_to_file(key, version)
        with self._locked(os.path.dirname(fname)):
            try:
                with open(fname, "rb") as file:
                    # This site's own file, in a folder only its user may read, as Django's backend reads it.
                    expiry = pickle.load(file)  # noqa: S301
                    value = pickle.loads(zlib.decompress(file.read()))  # noqa: S301
            except (FileNotFoundError, EOFError):
                raise ValueError(f"Key '{key}' not found") from None
            if expiry is not None and expiry < time.time():
                raise ValueError(f"Key '{key}' not found")
            value += delta
            os.replace(self._draft(fname, None, value, expiry=expiry), fname)
        return value

    @contextlib.contextmanager
    def _locked(self, folder: str):
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with open(os.path.join(folder, self.LOCK_NAME), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _cull_folder(self, folder: str, keep: str = "") -> None:
        """A third of the folder's entries (all with CULL_FREQUENCY 0) deleted at random when it holds its share of
        MAX_ENTRIES, as Django culls the whole cache; never `keep`, the entry just added."""
        try:
            names = [name for name in os.listdir(folder) if name.endswith(self.cache_suffix) and name != keep]
        except FileNotFoundError:
            return
        if len(names) < max(1, self._max_entries // self.FOLDERS):
            return
        if self._cull_frequency:
            names = random.sample(names, max(1, len(names) // self._cull_frequency))
        for name in names:
            self._delete(os.path.join(folder, name))

    def _list_cache_files(self):
        """Every entry (for `clear`), and those of Django's own flat layout an older `make run` left."""
        return [
            os.path.join(self._dir, name)
            for pattern in (f"*{self.cache_suffix}", f"??/*{self.cache_suffix}")
            for name in glob.glob(pattern, root_dir=self._dir)
        ]
