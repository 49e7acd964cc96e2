"""How bench_web.py serves and loads its pages: gunicorn in a session of its own (stopped whatever happens), `wrk`
when installed or a small threaded Python load generator, and the Redis key prefix of a run deleted after it."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONNECTIONS = 4
REDIS_URL = "redis://127.0.0.1:6379/0"
ACCEPT_ENCODING = "gzip, deflate, br"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(port: int, path: str, cookie: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Cookie": cookie})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - 127.0.0.1 only
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def wait_until_up(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn stopped while starting; see its log above")
        try:
            if fetch(port, "/bench/plain", "")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer within 30 s")


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _milliseconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * _UNITS[unit]


def load_with_wrk(port: int, path: str, cookie: str, seconds: int, connections: int = CONNECTIONS) -> dict:
    command = [
        shutil.which("wrk"),
        "-t2",
        f"-c{connections}",
        f"-d{seconds}s",
        "--latency",
        # A phone waits 10 s before it gives up, not wrk's 2 s: a queue at 100 connections is slow, not an error.
        "--timeout",
        "10s",
        "-H",
        f"Cookie: {cookie}",
        # As a phone's browser asks: a compressed page (what is sent and kept is the gzip of it).
        "-H",
        f"Accept-Encoding: {ACCEPT_ENCODING}",
        f"http://127.0.0.1:{port}{path}",
    ]
    output = subprocess.run(command, capture_output=True, text=True, check=True, timeout=seconds + 30).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: (.*)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": _milliseconds(re.search(r"\s50%\s+(\S+)", output).group(1)),
        "p99": _milliseconds(re.search(r"\s99%\s+(\S+)", output).group(1)),
        "errors": int(errors.group(1)) if errors else 0,
        "note": socket_errors.group(1) if socket_errors else "",
        "socket_errors": sum(int(n) for n in re.findall(r"\d+", socket_errors.group(1)))
        if socket_errors
        else 0,
    }


def load_with_python(port: int, path: str, cookie: str, seconds: int, connections: int = CONNECTIONS) -> dict:
    """`connections` threads, each sending one request after another for `seconds` (gunicorn's sync workers close
    every connection, so each request opens its own)."""
    latencies: list[float] = []
    errors = socket_errors = 0
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def worker() -> None:
        nonlocal errors, socket_errors
        mine, failed, sockets = [], 0, 0
        while time.monotonic() < stop:
            started = time.perf_counter()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                connection.request(
                    "GET", path, headers={"Cookie": cookie, "Accept-Encoding": ACCEPT_ENCODING}
                )
                response = connection.getresponse()
                response.read()
                failed += response.status >= 400
            except OSError:
                failed += 1
                sockets += 1
            finally:
                connection.close()
            mine.append((time.perf_counter() - started) * 1000)
        with lock:
            latencies.extend(mine)
            errors += failed
            socket_errors += sockets

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    latencies.sort()

    def percentile(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))]

    return {
        "rps": len(latencies) / elapsed,
        "p50": percentile(0.50),
        "p99": percentile(0.99),
        "errors": errors,
        "note": "",
        "socket_errors": socket_errors,
    }


def start_gunicorn(port: int, log, env: dict[str, str]) -> subprocess.Popen:
    """gunicorn with 2 sync workers in a session of its own, so stopping its group stops every worker."""
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--workers", "2"]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--no-control-socket"]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop_gunicorn(server: subprocess.Popen) -> None:
    """SIGTERM to gunicorn's whole group, SIGKILL after 10 s: no worker outlives the bench."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def flush_redis(prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}:*"))
    if keys:
        client.delete(*keys)


def serve(env: dict[str, str], work, name: str):
    """gunicorn with `env` on a free port while `work(port, log_name)` runs; stopped whatever happens."""
    port = free_port()
    # gunicorn's own output, kept (and its path printed) only when something went wrong.
    log = tempfile.NamedTemporaryFile("w", prefix=f"bench_web_{name}_", suffix=".log", delete=False)  # noqa: SIM115
    server = start_gunicorn(port, log, env)
    failed = True
    try:
        wait_until_up(port, server)
        result = work(port, log.name)
        failed = False
    finally:
        stop_gunicorn(server)
        log.close()
        if failed:
            print(f"gunicorn's log: {log.name}", file=sys.stderr)
        else:
            os.unlink(log.name)
    return result


def redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except Exception:
        return False
