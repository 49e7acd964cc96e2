"""The Docker HEALTHCHECK passes with the production settings of `.env.example`.

It failed twice over: 400 (the container's own address is not in ALLOWED_HOSTS), then a 301 to https that plain
gunicorn cannot serve. Here gunicorn runs the production settings from `.env.example` (only DATABASE_URL points at
the suite's database) and the Dockerfile's own HEALTHCHECK command is run against it.
"""

import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from config.database import database_url

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.django_db

CONTAINER_PORT = "8000"


def example_environment() -> dict:
    env = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    return env


def healthcheck_command() -> list[str]:
    dockerfile = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    match = re.search(r"^HEALTHCHECK .*?CMD (.+)$", dockerfile, flags=re.MULTILINE)
    assert match, "the Dockerfile has no HEALTHCHECK ... CMD"
    return shlex.split(match.group(1))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def production_gunicorn():
    port = free_port()
    env = {
        "PATH": "/usr/bin:/bin",
        **example_environment(),
        "DATABASE_URL": database_url(connection.settings_dict),
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None, server.stderr.read().decode()
            time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_example_settings_are_production_settings():
    env = example_environment()
    assert env["DEBUG"] == "false"
    assert env["SECURE_SSL_REDIRECT"] == "true"
    assert "127.0.0.1" not in env["ALLOWED_HOSTS"]


def test_the_dockerfile_healthcheck_passes_against_the_example_production_settings(production_gunicorn):
    command = [
        part.replace(f"127.0.0.1:{CONTAINER_PORT}", f"127.0.0.1:{production_gunicorn}")
        for part in healthcheck_command()
    ]
    assert command[0] == "python"
    result = subprocess.run(
        [sys.executable, *command[1:]], capture_output=True, text=True, timeout=30, check=False
    )
    assert result.returncode == 0, result.stderr


def test_other_pages_still_refuse_a_foreign_host_and_redirect_to_https(production_gunicorn):
    import http.client

    plain = http.client.HTTPConnection("127.0.0.1", production_gunicorn, timeout=10)
    plain.request("GET", "/accounts/login/", headers={"Host": "ledger.example.org"})
    assert plain.getresponse().status == 301  # SECURE_SSL_REDIRECT, as the example asks
    plain = http.client.HTTPConnection("127.0.0.1", production_gunicorn, timeout=10)
    plain.request("GET", "/accounts/login/")
    assert plain.getresponse().status == 400  # 127.0.0.1 is not an allowed host
