"""`make stop` and `make clean-data` stop the embedded PostgreSQL before anything else; benchmarks stop the one they
started.

Each test starts a real embedded server (pgserver) in a subprocess, on a temporary folder of its own, never on
the checkout's `.data`, and runs the Make step as a user would. Whatever happens, the fixture stops every server
it started and deletes the folder.
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
import psycopg
import pytest

from config import database, embedded_db

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

pytest.importorskip("pgserver", reason="the embedded PostgreSQL (pgserver) has no wheel for this platform")


def postgres_processes_of(folder: Path) -> list[int]:
    """Every postgres process whose command line names a path inside `folder` (checked apart from the module)."""
    pids = []
    for process in psutil.process_iter(["name", "cmdline"]):
        command = " ".join(process.info["cmdline"] or [])
        if process.info["name"] == "postgres" and str(folder) in command:
            pids.append(process.pid)
    return pids


def short_folder() -> Path:
    """A temporary folder with a short path (a Unix socket's path must stay under 108 characters)."""
    return Path(tempfile.mkdtemp(prefix="wl-db-", dir="/tmp"))


@pytest.fixture(scope="module")
def initialised():
    """A data folder made by pgserver's initdb once, stopped: each test starts on its own copy (initdb is the
    slow part)."""
    top = short_folder()
    start(top / "postgres")
    embedded_db.stop(top)
    yield top / "postgres"
    embedded_db.stop(top)
    shutil.rmtree(top, ignore_errors=True)


@pytest.fixture
def data(initialised):
    """`.data` in a temporary folder, holding a copy of an initialised `postgres` folder (owner kept)."""
    top = short_folder()
    (top / ".data").mkdir()
    subprocess.run(["cp", "-a", str(initialised), str(top / ".data" / "postgres")], check=True)
    yield top / ".data"
    embedded_db.stop(top)
    shutil.rmtree(top, ignore_errors=True)


def start(data_dir: Path) -> str:
    """Start the embedded server as `make run` does, in a process that then ends; the server's URL."""
    result = subprocess.run(
        [sys.executable, "-m", "config.embedded_db", "start", str(data_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def make(target: str, data: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", "-s", target, f"DATA={data}", f"BIN={BIN}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=90,
    )


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@needs_make
def test_clean_data_stops_the_server_before_it_deletes_the_folder(data):
    start(data / "postgres")
    assert postgres_processes_of(data), "the embedded server did not start"

    result = make("clean-data", data)

    assert result.returncode == 0, result.stderr
    assert "Stopped PostgreSQL" in result.stdout
    assert f"Deleted {data}." in result.stdout
    assert postgres_processes_of(data) == []
    assert not data.exists()


@needs_make
def test_stop_keeps_the_data_and_the_next_start_serves_it(data):
    url = start(data / "postgres")
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("CREATE TABLE kept (note text)")
        connection.execute("INSERT INTO kept VALUES ('written before make stop')")

    result = make("stop", data)

    assert result.returncode == 0, result.stderr
    assert "Stopped PostgreSQL" in result.stdout
    assert postgres_processes_of(data) == []
    assert (data / "postgres" / "PG_VERSION").exists()

    url = start(data / "postgres")
    with psycopg.connect(url) as connection:
        assert connection.execute("SELECT note FROM kept").fetchall() == [("written before make stop",)]


@needs_make
def test_both_steps_are_harmless_when_no_server_runs_or_the_folder_is_absent(data):
    shutil.rmtree(data)
    stopped = make("stop", data)
    cleaned = make("clean-data", data)

    assert stopped.returncode == 0, stopped.stderr
    assert "nothing to stop" in stopped.stdout
    assert cleaned.returncode == 0, cleaned.stderr
    assert "nothing to delete" in cleaned.stdout

    (data / "postgres").mkdir(parents=True)
    cleaned = make("clean-data", data)
    assert cleaned.returncode == 0, cleaned.stderr
    assert not data.exists()


def test_a_server_whose_folder_was_deleted_under_it_is_found_and_stopped(data):
    """The state an early `make clean-data` left behind: `.data` deleted, its PostgreSQL still running on nothing."""
    start(data / "postgres")
    shutil.rmtree(data)
    assert postgres_processes_of(data), "deleting the folder does not stop the server"

    said = embedded_db.clean(data)

    assert any(line.startswith("Stopped PostgreSQL") for line in said)
    assert postgres_processes_of(data) == []


def test_status_names_the_running_server(data):
    assert embedded_db.status(data) == f"No embedded PostgreSQL runs on {data}."
    start(data / "postgres")

    assert embedded_db.status(data).startswith("Running: PostgreSQL (pid ")
    assert [server.data_dir for server in embedded_db.servers(data)] == [data / "postgres"]


def test_a_process_that_starts_the_server_knows_it_must_stop_it(data, monkeypatch):
    """What the test suite's end (conftest.py) and the benchmarks read, to stop only a server they started."""
    monkeypatch.setattr(database, "STARTED_HERE", set())

    database.embedded_database_url(data / "postgres")

    assert sorted(database.STARTED_HERE) == [data / "postgres"]
    assert [server.data_dir for server in embedded_db.servers(data)] == [data / "postgres"]


def test_a_server_another_process_started_is_not_ours_to_stop(data, monkeypatch):
    monkeypatch.setattr(database, "STARTED_HERE", set())
    start(data / "postgres")  # as `make run` would

    database.embedded_database_url(data / "postgres")

    assert not database.STARTED_HERE


def bench_uses_the_embedded_server(top: Path) -> subprocess.CompletedProcess:
    """A benchmark process that finds no other PostgreSQL: bench/support.py falls back to `<top>/.data/postgres`."""
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, 'bench'); import support; "
        f"support.ROOT = Path({str(top)!r}); print(support._embedded_server_url())"
    )
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )


def test_a_bench_stops_the_embedded_server_it_started(data):
    result = bench_uses_the_embedded_server(data.parent)

    assert result.returncode == 0, result.stderr
    assert "Stopped PostgreSQL" in result.stdout
    assert postgres_processes_of(data) == []
    assert (data / "postgres" / "PG_VERSION").exists()


def test_a_bench_leaves_running_a_server_it_found_running(data):
    start(data / "postgres")  # `make run`'s

    result = bench_uses_the_embedded_server(data.parent)

    assert result.returncode == 0, result.stderr
    assert "Stopped" not in result.stdout
    assert postgres_processes_of(data)
