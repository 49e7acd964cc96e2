"""Where the database is: `DATABASE_URL` when set, otherwise an embedded PostgreSQL under `.data/postgres`.

The embedded server (the `pgserver` package) lets a new user run the project with no database server of their
own. It keeps running after the process that started it ends (`cleanup_mode=None`), so the next `make run`
finds it, with its data, and only connects. `make stop` and `make clean-data` stop it (config/embedded_db.py); a
process that runs for a limited time (the test suite, a benchmark) and had to start it stops it at its end, using
`STARTED_HERE`.

Many workers: `DATABASE_POOL_SIZE=N` gives each web process Django's psycopg connection pool of at
most N connections (min 1), instead of one persistent connection per thread. PostgreSQL then sees
processes x N connections at most, whatever the traffic: size it so that every host's processes together stay
inside `max_connections` (the README's self-hosting section has the sum). Unset or 0: no pool (`make run`, tests).
`DATABASE_BEHIND_PGBOUNCER=true` when `DATABASE_URL` points at PgBouncer in transaction mode.
"""

import logging
from pathlib import Path
from urllib.parse import quote, urlencode

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int, env_str

HOW_TO_CONFIGURE = (
    "Set DATABASE_URL to a PostgreSQL server (for example "
    "postgres://user:password@localhost:5432/warband_ledger) or start one with `docker compose up db`."
)

# The data folders whose embedded server this process started (none was running on them before it asked).
STARTED_HERE: set[Path] = set()


def embedded_database_url(data_dir: Path) -> str:
    try:
        import pgserver
    except ImportError as error:  # another platform, or a Python without pgserver wheels
        raise ImproperlyConfigured(
            f"The embedded PostgreSQL (pgserver) cannot run here ({error}). {HOW_TO_CONFIGURE}"
        ) from error
    # pgserver says "cleaning last handle" at interpreter exit, after test runners have closed their streams;
    # only its warnings matter to a user.
    logging.getLogger("pgserver").setLevel(logging.WARNING)
    from config import embedded_db  # psutil, which pgserver brings

    data_dir.parent.mkdir(parents=True, exist_ok=True)
    was_running = bool(embedded_db.servers(data_dir))
    try:
        server = pgserver.get_server(data_dir, cleanup_mode=None)
    except Exception as error:  # pgserver raises plain exceptions when initdb or pg_ctl fail
        raise ImproperlyConfigured(
            f"The embedded PostgreSQL under {data_dir} did not start ({error}). {HOW_TO_CONFIGURE}"
        ) from error
    if not was_running:
        STARTED_HERE.add(data_dir)
    return server.get_uri()


def database_config(base_dir: Path) -> dict:
    url = env_str("DATABASE_URL") or embedded_database_url(base_dir / ".data" / "postgres")
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from error
    _socket_host_as_host(config)
    if config.get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            f"DATABASE_URL must point at PostgreSQL (postgres://...); got engine {config.get('ENGINE')!r}."
        )
    if env_bool("DATABASE_BEHIND_PGBOUNCER", default=False):
        # PgBouncer in transaction mode may hand each transaction another server connection: a server-side
        # cursor (QuerySet.iterator()) would not survive that (Django's docs, "Transaction pooling").
        config["DISABLE_SERVER_SIDE_CURSORS"] = True
    pool_size = env_int("DATABASE_POOL_SIZE", 0)
    if pool_size < 0:
        raise ImproperlyConfigured(f"DATABASE_POOL_SIZE must be 0 (no pool) or more; got {pool_size}.")
    if pool_size:
        # Django's pool keeps its own connections open: persistent connections on top of it are refused.
        config["CONN_MAX_AGE"] = 0
        config["CONN_HEALTH_CHECKS"] = False
        config.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": pool_size,
            # A request that finds every connection busy waits this long, then fails as a lost database does
            # (503, config/outages.py), rather than queueing without end.
            "timeout": env_int("DATABASE_POOL_TIMEOUT", 10),
        }
    return config


def _socket_host_as_host(config: dict) -> None:
    """A socket folder given as `?host=/path` (the embedded server's URL) becomes the connection's HOST.

    dj-database-url leaves it among OPTIONS, where Django's backend passes it on but every other reader of
    HOST (pg_dump and pg_restore for backups, the tests' own connections) would find no host and fall back to
    PostgreSQL's default socket: another server, or none.
    """
    options = config.get("OPTIONS", {})
    if not config.get("HOST") and options.get("host"):
        config["HOST"] = options.pop("host")


def database_url(settings_dict: dict, *, name: str | None = None) -> str:
    """A DATABASE_URL for the server of `settings_dict` (a socket folder or a TCP host), naming database `name`
    (its own by default): what a child process (gunicorn, `manage.py restore`) is given to reach the same server.
    """
    user = quote(settings_dict.get("USER") or "", safe="")
    password = settings_dict.get("PASSWORD") or ""
    credentials = f"{user}:{quote(password, safe='')}" if password else user
    host, port = settings_dict.get("HOST") or "", settings_dict.get("PORT") or ""
    database = quote(name or settings_dict["NAME"], safe="")
    if host.startswith("/"):
        query = {"host": host, **({"port": port} if port else {})}
        return f"postgres://{credentials}@/{database}?{urlencode(query)}"
    return f"postgres://{credentials}@{host or '127.0.0.1'}:{port or 5432}/{database}"
