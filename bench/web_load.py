"""How bench_web.py serves and loads its pages: gunicorn in a session of its own (stopped whatever happens), as
deployed or as `make run` starts it; `wrk` when installed or a small threaded Python load generator, on a page's
cache-hit path or its render path; the wait for a server to drain between loads; and the Redis key prefix of a run
deleted after it.

The render path: every request carries a CSRF cookie no request sent before, so no kept page matches it
(config/page_cache.py keys a kept page on that cookie, which its forms' tokens come from) and the page is rendered
in full, and kept, as the first read after a write is. Everything else about the request is the cache-hit path's:
the same session, the same member, the same address.
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
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

from support import redis_url

ROOT = Path(__file__).resolve().parents[1]
CONNECTIONS = 4
REDIS_URL = redis_url()
ACCEPT_ENCODING = "gzip, deflate, br"
# Deployed as the bench measures it: gunicorn's sync workers (config/settings.py, docker's image).
DEPLOYED_WORKERS = 2
# A server has drained once DRAIN_PROBES rounds of probes in a row answer within this many times the idle time.
DRAIN_PROBES, DRAIN_SLACK, DRAIN_SECONDS = 2, 3.0, 120
# wrk's render path: each request a CSRF cookie of its own (32 letters and digits, as Django's secret is):
# the run's nonce, the wrk thread and the request's number.
FRESH_SCRIPT = """
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end
function init(args)
  nonce, cookie, encoding, sent = args[1], args[2], args[3], 0
end
function request()
  sent = sent + 1
  local token = string.format("%s%04d%020d", nonce, thread_id, sent)
  return wrk.format(nil, nil, {["Cookie"] = cookie .. "; csrftoken=" .. token, ["Accept-Encoding"] = encoding})
end
"""


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


def wait_until_up(port: int, server: subprocess.Popen, timeout: int = 30) -> None:
    """Until the bare view answers (`make run` collects the static files first: it may take longer)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn stopped while starting; see its log above")
        try:
            if fetch(port, "/bench/plain", "")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within {timeout} s")


def _probe(port: int, probes: int) -> float:
    """The slowest of `probes` bare requests sent at once, in seconds."""
    times = [0.0] * probes

    def one(index: int) -> None:
        started = time.perf_counter()
        try:
            fetch(port, "/bench/plain", "")
        except OSError:
            times[index] = float("inf")
            return
        times[index] = time.perf_counter() - started

    threads = [threading.Thread(target=one, args=(index,)) for index in range(probes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return max(times)


def idle_time(port: int, probes: int) -> float:
    """The bare view's time with nothing else to do: the median of a few probes (seconds)."""
    return sorted(_probe(port, probes) for _ in range(9))[4]


def wait_until_drained(port: int, probes: int, idle: float) -> float:
    """Until `probes` bare requests at once (one per worker or thread) answer about as fast as when the server is
    idle, DRAIN_PROBES times in a row: a load's queue (requests wrk sent before it stopped, which sync workers still
    serve) no longer holds the workers when the next load starts (docs/development.md). The seconds waited."""
    started = time.perf_counter()
    limit, calm = max(idle * DRAIN_SLACK, idle + 0.005), 0
    while calm < DRAIN_PROBES and time.perf_counter() - started < DRAIN_SECONDS:
        calm = calm + 1 if _probe(port, probes) <= limit else 0
        if calm < DRAIN_PROBES:
            time.sleep(0.05)
    return time.perf_counter() - started


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _milliseconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * _UNITS[unit]


def fresh_csrf() -> str:
    return secrets.token_hex(16)


def load_with_wrk(
    port: int, path: str, cookie: str, seconds: int, connections: int = CONNECTIONS, *, fresh: bool = False
) -> dict:
    """`cookie` as every request's, or with `fresh` each request's own CSRF cookie added to it (the render path)."""
    command = [
        shutil.which("wrk"),
        "-t2",
        f"-c{connections}",
        f"-d{seconds}s",
        "--latency",
        # A phone waits 10 s before it gives up, not wrk's 2 s: a queue at 100 connections is slow, not an error.
        "--timeout",
        "10s",
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", prefix="bench_web_") as script:
        if fresh:
            script.write(FRESH_SCRIPT)
            script.flush()
            command += ["--script", script.name, f"http://127.0.0.1:{port}{path}", "--"]
            command += [secrets.token_hex(4), cookie, ACCEPT_ENCODING]
        else:
            # As a phone's browser asks: a compressed page (what is sent and kept is the gzip of it).
            command += ["-H", f"Cookie: {cookie}", "-H", f"Accept-Encoding: {ACCEPT_ENCODING}"]
            command += [f"http://127.0.0.1:{port}{path}"]
        output = subprocess.run(
            command, capture_output=True, text=True, check=True, timeout=seconds + 30
        ).stdout
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


def load_with_python(
    port: int, path: str, cookie: str, seconds: int, connections: int = CONNECTIONS, *, fresh: bool = False
) -> dict:
    """`connections` threads, each sending one request after another for `seconds` (gunicorn's sync workers close
    every connection, so each request opens its own); with `fresh`, each request's own CSRF cookie."""
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
                sent = f"{cookie}; csrftoken={fresh_csrf()}" if fresh else cookie
                connection.request("GET", path, headers={"Cookie": sent, "Accept-Encoding": ACCEPT_ENCODING})
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


def deployed_command(port: int) -> list[str]:
    """gunicorn as deployed: DEPLOYED_WORKERS sync workers."""
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--workers",
        str(DEPLOYED_WORKERS),
    ]
    return command + ["--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--no-control-socket"]


def make_run_command(port: int) -> list[str]:
    """What `make run` starts (config/serve.py), with its own defaults, on 127.0.0.1."""
    return [sys.executable, "-m", "config.serve", "--host", "127.0.0.1", "--port", str(port)]


def start_gunicorn(port: int, log, env: dict[str, str], command=deployed_command) -> subprocess.Popen:
    """gunicorn in a session of its own, so stopping its group stops every worker. `env` is laid over this
    process's environment; a name it maps to None is left out (a REDIS_URL the configuration must not have)."""
    environment = {**os.environ, **env}
    return subprocess.Popen(
        command(port),
        cwd=ROOT,
        env={name: value for name, value in environment.items() if value is not None},
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
    """Delete the keys of a run's own prefix, only those, from the Redis the run used."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}:*"))
    if keys:
        client.delete(*keys)


def serve(env: dict[str, str], work, name: str, command=deployed_command):
    """gunicorn with `env` on a free port while `work(port, log_name)` runs; stopped whatever happens."""
    port = free_port()
    # gunicorn's own output, kept (and its path printed) only when something went wrong.
    log = tempfile.NamedTemporaryFile("w", prefix=f"bench_web_{name}_", suffix=".log", delete=False)  # noqa: SIM115
    server = start_gunicorn(port, log, env, command)
    failed = True
    try:
        wait_until_up(port, server, timeout=120 if command is make_run_command else 30)
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
