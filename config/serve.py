"""`make run`: this machine serves its campaign as production does, with nothing to configure.

    python -m config.serve [--host 127.0.0.1] [--port 8000] [--workers 2] [--threads 4]

gunicorn (threaded workers) with DEBUG off, the static files collected and served by WhiteNoise, on the embedded
PostgreSQL (or `DATABASE_URL`), under `config.settings_run`: a page cache and sessions every process shares with no
Redis (Django's file cache under `.data/cache`). Before gunicorn starts, this process:

- finds the database once (starting the embedded server when it is not running) and hands its URL to gunicorn,
  so the workers only connect;
- collects the static files (hashed, minified and compressed, as the Docker image does);
- empties the page cache: a server started after `manage.py restore` then keeps nothing of the data before;
- works out the names the site answers to: this machine's own, and with `--host 0.0.0.0` its network addresses,
  so the phones at the table can open it; it prints the address to open.

Then gunicorn replaces this process, so Ctrl-C stops the server as it stops gunicorn. The secret key is made on the
first start and kept in `.data/secret_key` (`RUN_DATA_DIR` names another folder), so a fresh clone needs no `.env`
and a restart logs nobody out.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import secrets
import socket
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SETTINGS = "config.settings_run"
LOCAL_NAMES = ["127.0.0.1", "localhost", "[::1]"]
# Every address of every interface: what `--host 0.0.0.0` listens on.
ANY_ADDRESS = {"0.0.0.0", "::", "[::]"}  # noqa: S104 - the user asks for it with HOST=0.0.0.0
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 4


def run_data_dir() -> Path:
    """Where `make run` keeps its secret key and its cache: `.data/` beside the embedded PostgreSQL's data."""
    return Path(os.environ.get("RUN_DATA_DIR") or BASE_DIR / ".data")


def local_secret_key(folder: Path) -> str:
    """This installation's secret key, made on the first start and kept readable by its owner only.

    Written to a new file and linked in place, so two processes starting at once agree on one key: the second
    finds the first's file and reads it.
    """
    path = folder / "secret_key"
    with contextlib.suppress(FileNotFoundError):
        key = path.read_text().strip()
        if key:
            return key
    folder.mkdir(parents=True, exist_ok=True)
    draft = folder / f".secret_key.{os.getpid()}"
    draft.write_text(secrets.token_urlsafe(50) + "\n")
    draft.chmod(0o600)
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return path.read_text().strip()


def network_addresses() -> list[str]:
    """This machine's addresses on its networks (no loopback, no link-local IPv6), IPv4 first."""
    import psutil

    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            try:
                ip = ipaddress.ip_address(address.address.split("%")[0])
            except ValueError:
                continue
            if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and ip not in found:
                found.append(ip)
    found.sort(key=lambda ip: (ip.version, ip.packed))
    return [str(ip) if ip.version == 4 else f"[{ip}]" for ip in found]


def preferred_address() -> str | None:
    """The address other machines reach this one by: the one its default route leaves from (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, only chosen a route for
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback else address


def allowed_hosts(host: str, extra: list[str] | None = None) -> list[str]:
    """The names the site answers to: `extra` (ALLOWED_HOSTS from the environment), this machine's own names, the
    address bound, and with every interface bound each network address and the host's name (`name.local` too,
    which phones find by mDNS)."""
    names = list(extra or []) + LOCAL_NAMES
    if host in ANY_ADDRESS:
        hostname = socket.gethostname()
        names += network_addresses() + [hostname, f"{hostname}.local"]
    elif host not in names:
        names.append(f"[{host}]" if ":" in host else host)
    return list(dict.fromkeys(name for name in names if name))


def addresses_to_open(host: str, port: int) -> list[str]:
    """The addresses a browser opens, the one phones should use first."""
    if host not in ANY_ADDRESS:
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    preferred = preferred_address()
    others = [address for address in network_addresses() if address != preferred]
    return [f"http://{address}:{port}/" for address in filter(None, [preferred, *others])]


def gunicorn_command(host: str, port: int, *, workers: int, threads: int) -> list[str]:
    """gunicorn's threaded workers: a phone that sends slowly over Wi-Fi holds one thread, not a whole process.

    Each connection is closed after its answer (`--keep-alive 0`), as the deployed sync workers do. A connection
    kept open stays with the process that accepted it, and the process awake first accepts a whole burst: a few
    phones (or a browser's parallel connections) then all wait on one process, which runs one request at a time
    for Python, while the other sits idle. Measured with 4 connections: all on one process in about half of the
    loads, at half the throughput. Closed, every request is accepted again by whichever process is free. Little is
    lost: gunicorn keeps an idle connection 2 seconds, and a phone polls every 2, so most polls opened a new
    connection anyway."""
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        bind,
        "--workers",
        str(workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(threads),
        "--keep-alive",
        "0",
        # No control socket under ~/.gunicorn (gunicorn 27 makes one by default; docs/development.md).
        "--no-control-socket",
        "--log-level",
        "warning",
    ]


def announce(host: str, port: int) -> str:
    addresses = addresses_to_open(host, port)
    if host not in ANY_ADDRESS:
        lines = [f"Warband Ledger: open {addresses[0]} on this computer."]
        lines.append("To let the phones at the table join, run `make run HOST=0.0.0.0`.")
    elif addresses:
        lines = [
            f"Warband Ledger: on the phones at the table (same Wi-Fi as this computer), open {addresses[0]}"
        ]
        lines += [f"  (or {address})" for address in addresses[1:]]
        lines.append(f"On this computer: http://127.0.0.1:{port}/")
    else:
        lines = [f"Warband Ledger: no network address found; open http://127.0.0.1:{port}/ on this computer."]
    return "\n".join(
        lines + ["Ctrl-C stops the server (the embedded PostgreSQL keeps running: `make stop`)."]
    )


def prepare() -> str:
    """Django set up as the workers will be: the static files collected, the cache emptied; the database's URL."""
    import django
    from django.core.management import call_command
    from django.db import connection

    from config.cache import forget_everything
    from config.database import database_url

    django.setup()
    call_command("collectstatic", interactive=False, verbosity=0)
    forget_everything()  # this site's keys only, should REDIS_URL name a Redis others use
    url = os.environ.get("DATABASE_URL") or database_url(connection.settings_dict)
    connection.close()
    return url


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m config.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="0.0.0.0 lets other machines on the network in")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="gunicorn processes")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS, help="threads per process")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    extra = [name.strip() for name in os.environ.get("ALLOWED_HOSTS", "").split(",") if name.strip()]
    os.environ["ALLOWED_HOSTS"] = ",".join(allowed_hosts(args.host, extra))
    os.environ["DATABASE_URL"] = prepare()
    print(announce(args.host, args.port), flush=True)
    command = gunicorn_command(args.host, args.port, workers=args.workers, threads=args.threads)
    os.execv(command[0], command)  # noqa: S606 - gunicorn from this virtualenv, with the arguments above


if __name__ == "__main__":
    main()
