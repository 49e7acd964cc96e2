"""The embedded PostgreSQL's lifecycle: see whether it runs, start it, stop it, delete its data.

`config/database.py` starts the server (pgserver, `cleanup_mode=None`) and leaves it running after the process
that started it ends, so the next command finds it with its data. Stopping it is this module's job:

    python -m config.embedded_db status .data       which embedded servers run on a folder
    python -m config.embedded_db start .data/postgres  start it (or find it running) and print its URL
    python -m config.embedded_db stop .data         `make stop`: stop them, keep the data
    python -m config.embedded_db clean .data        `make clean-data`: stop them, wait, then delete the folder

A folder means every server whose data folder is that folder or lies inside it, so `.data` covers
`.data/postgres`. Servers are found by their command line (`postgres -D <folder>`), not only by the folder's
`postmaster.pid`: a server whose folder was deleted under it (a `make clean-data` that deleted it first did that) is found and stopped too.

A server is stopped with PostgreSQL's own `pg_ctl stop -m fast`, run as the user the server runs under
(pgserver runs it as its own `pgserver` user when started by root); when pg_ctl cannot do it (its folder is gone),
the postmaster gets SIGINT, which is what pg_ctl's fast mode sends. Every stop waits for the process to exit.
No function here imports Django, so `make stop` works whatever the settings.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

# Seconds a fast shutdown may take before the server is told to quit at once (SIGQUIT), then killed.
FAST_SHUTDOWN_SECONDS = 30
QUIT_SECONDS = 5


@dataclass(frozen=True)
class Server:
    """One running postmaster of the embedded PostgreSQL."""

    pid: int
    data_dir: Path
    user: str

    def __str__(self) -> str:
        return f"PostgreSQL (pid {self.pid}, user {self.user}) on {self.data_dir}"


def _is_inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _data_dir_of(process: psutil.Process) -> Path | None:
    """The folder after `-D` on a postgres command line, made absolute against the process's own directory."""
    try:
        if process.name() != "postgres" or process.status() == psutil.STATUS_ZOMBIE:
            return None
        command = process.cmdline()
        if "-D" not in command[:-1]:
            return None
        data_dir = Path(command[command.index("-D") + 1])
        if not data_dir.is_absolute():
            data_dir = Path(process.cwd()) / data_dir
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None
    return Path(os.path.realpath(data_dir))


def servers(folder: str | Path) -> list[Server]:
    """The postmasters whose data folder is `folder` or inside it (the folder may be gone already)."""
    folder = Path(os.path.realpath(folder))
    found = []
    for process in psutil.process_iter():
        data_dir = _data_dir_of(process)
        if data_dir is None or not _is_inside(data_dir, folder):
            continue
        try:
            found.append(Server(pid=process.pid, data_dir=data_dir, user=process.username()))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def status(folder: str | Path) -> str:
    running = servers(folder)
    if not running:
        return f"No embedded PostgreSQL runs on {folder}."
    return "\n".join(f"Running: {server}" for server in running)


def _pg_ctl() -> Path | None:
    """pgserver's own pg_ctl, when pgserver is installed (found without importing it)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or spec.origin is None:
        return None
    pg_ctl = Path(spec.origin).parent / "pginstall" / "bin" / "pg_ctl"
    return pg_ctl if pg_ctl.exists() else None


def _as_user(user: str) -> dict:
    """Run a command as `user` when we are root and the server is someone else's (pgserver's own user)."""
    if os.geteuid() == 0 and user != "root":
        return {"user": user, "cwd": "/"}
    return {}


def _pg_ctl_stop(server: Server) -> bool:
    """PostgreSQL's own fast shutdown; False when pg_ctl is missing or cannot do it (the folder is gone)."""
    pg_ctl = _pg_ctl()
    if pg_ctl is None or not (server.data_dir / "postmaster.pid").exists():
        return False
    command = [str(pg_ctl), "-D", str(server.data_dir), "stop", "-m", "fast", "-w"]
    command += ["-t", str(FAST_SHUTDOWN_SECONDS)]
    try:
        result = subprocess.run(  # noqa: S603 - pgserver's own binary, arguments built here
            command,
            capture_output=True,
            text=True,
            timeout=FAST_SHUTDOWN_SECONDS + 5,
            **_as_user(server.user),
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return result.returncode == 0


def _exited(process: psutil.Process, seconds: float) -> bool:
    """True once the process is gone or a zombie (it has exited and closed everything; only its parent, often
    pid 1, has still to reap it), checked for up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def _wait_for_exit(server: Server) -> str:
    """Wait until the postmaster is gone: after its fast shutdown, then SIGQUIT, then SIGKILL if need be."""
    try:
        process = psutil.Process(server.pid)
    except psutil.NoSuchProcess:
        return "stopped"
    for sig, seconds, how in (
        (None, FAST_SHUTDOWN_SECONDS, "stopped"),
        (signal.SIGQUIT, QUIT_SECONDS, "stopped at once (SIGQUIT)"),
        (signal.SIGKILL, QUIT_SECONDS, "killed"),
    ):
        try:
            if sig is not None:
                process.send_signal(sig)
        except psutil.NoSuchProcess:
            return how
        if _exited(process, seconds):
            return how
    raise RuntimeError(f"{server} did not exit, even after SIGKILL")


def stop_server(server: Server) -> str:
    """Stop one server and wait for it to exit; says how it went."""
    try:
        if not _pg_ctl_stop(server):
            with contextlib.suppress(psutil.NoSuchProcess):
                psutil.Process(server.pid).send_signal(signal.SIGINT)  # pg_ctl's fast shutdown, sent by hand
        return f"Stopped {server}: {_wait_for_exit(server)}."
    except psutil.AccessDenied as error:
        raise RuntimeError(f"{server} is not ours to stop: run this as {server.user} or root") from error


def stop(folder: str | Path) -> list[str]:
    """Stop every embedded server on `folder` and keep the data; one line per thing done."""
    running = servers(folder)
    if not running:
        return [f"No embedded PostgreSQL runs on {folder}: nothing to stop."]
    return [stop_server(server) for server in running]


def clean(folder: str | Path) -> list[str]:
    """Stop every embedded server on `folder`, wait for them to exit, then delete the folder."""
    said = stop(folder)
    leftover = servers(folder)
    if leftover:  # never delete a folder under a running server
        raise RuntimeError(f"{leftover[0]} still runs; {folder} is kept")
    folder = Path(folder)
    if folder.exists():
        shutil.rmtree(folder)
        said.append(f"Deleted {folder}.")
    else:
        said.append(f"{folder} does not exist: nothing to delete.")
    return said


def start(data_dir: str | Path) -> str:
    """Start the embedded server on `data_dir` (or find it running), as `make run` does; its URL."""
    from config.database import embedded_database_url

    return embedded_database_url(Path(data_dir).resolve())


COMMANDS = {"status": status, "start": start, "stop": stop, "clean": clean}


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in COMMANDS:
        print(f"usage: python -m config.embedded_db {{{','.join(COMMANDS)}}} FOLDER", file=sys.stderr)
        return 2
    command, folder = argv
    try:
        said = COMMANDS[command](folder)
    except Exception as error:  # a message for the person at the terminal, not a traceback
        print(f"{command} {folder}: {error}", file=sys.stderr)
        return 1
    print(said if isinstance(said, str) else "\n".join(said))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
