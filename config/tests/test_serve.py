"""`make run` (config/serve.py): production's settings on one host, with no Redis and nothing to configure.

The first tests read the launcher's parts. The others start the launcher itself, as `make run` does, on a free port
with the suite's database (committed: the servers are other processes) and a data folder of the test's own: a
page with DEBUG off, static files from WhiteNoise, and two servers on one host agreeing on every kept page.
"""

from __future__ import annotations

import gzip
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from config import serve
from config.database import database_url

ROOT = Path(__file__).resolve().parents[2]
# What the test settings put in this process's environment and a fresh clone would not have (config/settings_test.py).
NOT_ON_A_FRESH_CLONE = {
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DJANGO_SETTINGS_MODULE",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "REDIS_URL",
}
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
STYLESHEET = re.compile(r'<link rel="stylesheet" href="(/static/[^"]+\.css)"')
EVERY_INTERFACE = "0.0.0.0"  # noqa: S104 - what `make run HOST=0.0.0.0` binds


def test_it_answers_to_this_machine_only_unless_every_interface_is_bound():
    assert serve.allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost", "[::1]"]
    assert serve.allowed_hosts("192.168.1.20") == ["127.0.0.1", "localhost", "[::1]", "192.168.1.20"]


def test_host_0_0_0_0_lets_the_phones_at_the_table_in_by_every_network_address(monkeypatch):
    monkeypatch.setattr(serve, "network_addresses", lambda: ["192.168.1.20", "10.0.0.7"])
    monkeypatch.setattr(socket, "gethostname", lambda: "laptop")
    hosts = serve.allowed_hosts(EVERY_INTERFACE, ["ledger.example.org"])
    assert hosts == [
        "ledger.example.org",
        "127.0.0.1",
        "localhost",
        "[::1]",
        "192.168.1.20",
        "10.0.0.7",
        "laptop",
        "laptop.local",
    ]


def test_it_prints_the_address_the_phones_open(monkeypatch):
    monkeypatch.setattr(serve, "preferred_address", lambda: "192.168.1.20")
    monkeypatch.setattr(serve, "network_addresses", lambda: ["10.0.0.7", "192.168.1.20"])
    shown = serve.announce(EVERY_INTERFACE, 8000)
    assert "open http://192.168.1.20:8000/" in shown.splitlines()[0]
    assert "(or http://10.0.0.7:8000/)" in shown
    assert "make run HOST=0.0.0.0" in serve.announce("127.0.0.1", 8000)


def test_the_network_addresses_are_no_loopback():
    for address in serve.network_addresses():
        assert address not in {"127.0.0.1", "[::1]"}


def test_the_secret_key_is_made_once_and_kept_for_its_owner_only(tmp_path):
    key = serve.local_secret_key(tmp_path / "data")
    assert len(key) >= 50
    assert serve.local_secret_key(tmp_path / "data") == key
    assert (tmp_path / "data" / "secret_key").stat().st_mode & 0o777 == 0o600
    assert list((tmp_path / "data").iterdir()) == [tmp_path / "data" / "secret_key"]


def test_gunicorn_runs_threaded_workers_without_a_control_socket():
    command = serve.gunicorn_command(EVERY_INTERFACE, 8000, workers=2, threads=4)
    assert command[1:4] == ["-m", "gunicorn", "config.wsgi:application"]
    assert command[command.index("--bind") + 1] == "0.0.0.0:8000"
    assert command[command.index("--worker-class") + 1] == "gthread"
    assert command[command.index("--workers") + 1] == "2"
    assert command[command.index("--threads") + 1] == "4"
    assert "--no-control-socket" in command


def test_gunicorn_closes_each_connection_so_every_process_takes_its_share():
    """A kept-open connection stays with the process that accepted it, often the same one for a whole burst
    (config/serve.py, `gunicorn_command`): closed after each answer, as the deployed sync workers do."""
    command = serve.gunicorn_command("127.0.0.1", 8000, workers=2, threads=4)
    assert command[command.index("--keep-alive") + 1] == "0"


# --- the launcher itself, as `make run` starts it --------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Phone:
    """One browser (its cookies) against one server; answers decompressed when asked compressed."""

    def __init__(self, port: int, jar: http.cookiejar.CookieJar | None = None):
        self.base = f"http://127.0.0.1:{port}"
        self.jar = jar if jar is not None else http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def open(self, path: str, data: dict | None = None, headers: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, headers=headers or {})  # noqa: S310
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def cookie(self, name: str) -> str:
        return next(cookie.value for cookie in self.jar if cookie.name == name)

    def log_in(self, username: str, password: str) -> None:
        _, _, page = self.open("/accounts/login/")
        token = CSRF_FIELD.search(page.decode()).group(1)
        status, _, _ = self.open(
            "/accounts/login/", {"csrfmiddlewaretoken": token, "username": username, "password": password}
        )
        assert status == 200
        assert self.cookie("sessionid")


def gunzip(headers: dict, body: bytes) -> str:
    return (gzip.decompress(body) if headers.get("Content-Encoding") == "gzip" else body).decode()


@pytest.fixture
def launch(tmp_path):
    """Start `python -m config.serve` as `make run` does; every server is stopped at the end."""
    servers = []
    env = {name: value for name, value in os.environ.items() if name not in NOT_ON_A_FRESH_CLONE}
    env.update(DATABASE_URL=database_url(connection.settings_dict), RUN_DATA_DIR=str(tmp_path / "data"))

    def start() -> int:
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "config.serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--threads",
            "2",
        ]
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        servers.append(server)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert server.poll() is None, server.stdout.read().decode()
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    return port
            time.sleep(0.2)
        raise AssertionError("`python -m config.serve` did not answer within 120 s")

    yield start
    for server in servers:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@pytest.fixture
def pat(player, password):
    """The player with a password the server's own hashers read (the suite hashes with MD5, which they do not)."""
    hasher = PBKDF2PasswordHasher()
    player.password = hasher.encode(password, hasher.salt(), iterations=1000)
    player.save(update_fields=["password"])
    return player


@pytest.mark.django_db(transaction=True)
def test_it_serves_pages_with_debug_off_and_static_files_from_whitenoise(launch, tmp_path):
    phone = Phone(launch())
    status, _, page = phone.open("/accounts/login/")
    assert status == 200
    status, _, missing = phone.open("/no-such-page/")
    assert status == 404
    assert b"Django tried these URL patterns" not in missing  # DEBUG's technical page
    stylesheet = STYLESHEET.search(page.decode()).group(1)
    assert re.search(r"\.[0-9a-f]{12}\.css$", stylesheet)  # collected and hashed, as in the Docker image
    status, headers, _ = phone.open(stylesheet, headers={"Accept-Encoding": "br, gzip"})
    assert status == 200
    assert headers["Content-Encoding"] == "br"  # WhiteNoise's compressed copy
    assert "immutable" in headers["Cache-Control"]
    assert (tmp_path / "data" / "secret_key").exists()  # made on the first start: no .env needed


@pytest.mark.django_db(transaction=True)
def test_two_servers_on_one_host_agree_on_every_kept_page(
    launch, pat, password, campaign, warband, make_fighter, tmp_path
):
    """A page kept by one process is served by another, and a write through either is never followed by the old
    page: one cache every process shares (config/settings_run.py). A kept answer is the very bytes kept; a render
    differs, since GZipMiddleware pads each compressed page with random bytes."""
    fighter = make_fighter(warband, "Brother Anselm", xp=4)
    one, other = launch(), launch()
    a = Phone(one)
    a.log_in(pat.username, password)
    b = Phone(other, a.jar)  # the same browser, sent to the other server
    page, gz = f"/fighters/{fighter.pk}/", {"Accept-Encoding": "gzip"}
    a.open(page, headers=gz)  # sets the cookie that says whose page it is
    _, headers, kept = a.open(page, headers=gz)
    assert "<dt>XP</dt><dd>4" in gunzip(headers, kept)
    assert a.open(page, headers=gz)[2] == kept
    assert b.open(page, headers=gz)[2] == kept  # the other process serves what the first kept

    status, _, _ = b.open(
        f"/fighters/{fighter.pk}/xp/", {"delta": 1, "csrfmiddlewaretoken": b.cookie("csrftoken")}
    )
    assert status == 200  # after the redirect to the roster

    _, headers, after = a.open(page, headers=gz)
    assert after != kept
    assert "<dt>XP</dt><dd>5" in gunzip(headers, after)
    # Kept as config/settings_run.py says: config/cache.py's HostFileCache, its files in folders of two hex digits.
    cache = tmp_path / "data" / "cache"
    assert any(
        re.fullmatch(r"[0-9a-f]{2}", folder.name) and any(folder.glob("*.djcache"))
        for folder in cache.iterdir()
    )
