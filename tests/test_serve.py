"""`manage.py serve` (what `make run` runs) as an operator sees it: restarts, stops, a part that dies."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from conversations.services import api_key_create, tenant_get_or_create
from tests.conftest import wait_until
from tests.stack import ServeStack, alive, database_url, own_directory

pytestmark = [pytest.mark.stack, pytest.mark.timeout(600)]


def _pid_file(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _job_done(stack: ServeStack, key: str, user: str, text: str) -> bool:
    status, body = stack.request("POST", f"/api/v1/users/{user}/messages", {"messages": [
        {"role": "user", "content": text}]}, key=key)  # fmt: skip
    assert status == 202, (status, body)
    job = body["job_id"]
    return wait_until(lambda: stack.request("GET", f"/api/v1/jobs/{job}", key=key)[1].get("state") == "done", 120)


def test_a_stop_then_an_immediate_start_serves_with_the_database_up() -> None:
    """The new `serve` waits for the old one to stop its embedded PostgreSQL and broker, then starts fresh ones
    (it used to attach to the old PostgreSQL as it shut down, and lost it). Stopping returns once they are gone."""
    with own_directory("stop-start") as directory:
        _stop_then_start(directory / "var", directory / "pgdata")


def _stop_then_start(var: Path, pgdata: Path) -> None:
    env: dict[str, str | None] = {"DATABASE_URL": None, "CELERY_BROKER_URL": None, "MEMORY_SITE_PGDATA": str(pgdata)}
    first = ServeStack(var_dir=var, env=env).start()
    try:
        first.wait_healthy()
        old_db, old_broker = _pid_file(pgdata / "postmaster.pid"), _pid_file(var / "valkey" / "valkey.pid")
        assert old_db and old_broker
        first.stop(wait=False)
        second = ServeStack(var_dir=var, env=env).start()
        try:
            assert first.proc is not None and first.proc.wait(timeout=120) == 0
            assert not alive(old_db) and not alive(old_broker)  # gone before the old `serve` returned
            second.wait_healthy()
            assert _pid_file(pgdata / "postmaster.pid") not in {None, old_db}
            key = json.loads((var / "demo_credentials.json").read_text())["api_key"]
            assert _job_done(second, key, "alice", "I have a corgi named Bean.")  # database, broker and worker up
            assert second.healthz() == 200
            new_db, new_broker = _pid_file(pgdata / "postmaster.pid"), _pid_file(var / "valkey" / "valkey.pid")
        finally:
            second.stop()
        assert new_db and new_broker and not alive(new_db) and not alive(new_broker)
    finally:
        first.stop()


def test_a_second_serve_waits_for_the_first_to_stop_then_starts_fresh_servers() -> None:
    """Started while the first still runs (so its settings attach to the first one's PostgreSQL), the second `serve`
    waits for the first to exit, and serves on servers of its own (it used to lose its database when the first
    stopped under it)."""
    with own_directory("second-serve") as directory:
        var, pgdata = directory / "var", directory / "pgdata"
        env: dict[str, str | None] = {"DATABASE_URL": None, "CELERY_BROKER_URL": None,
                                      "MEMORY_SITE_PGDATA": str(pgdata)}  # fmt: skip
        first = ServeStack(var_dir=var, env=env).start()
        second = ServeStack(var_dir=var, env=env)
        try:
            first.wait_healthy()
            old_db = _pid_file(pgdata / "postmaster.pid")
            second.start()
            assert wait_until(lambda: "waiting for the previous `serve`" in second.log(), 120), second.log()[-2000:]
            assert second.healthz() != 200 and first.healthz() == 200
            first.stop()
            second.wait_healthy()
            assert _pid_file(pgdata / "postmaster.pid") not in {None, old_db}
            key = json.loads((var / "demo_credentials.json").read_text())["api_key"]
            assert _job_done(second, key, "alice", "I have a corgi named Bean.")
        finally:
            second.stop()
            first.stop()


@pytest.fixture
def production_stack(transactional_db: None, tmp_path: Path) -> Any:
    """`serve` with PRODUCTION on the test database and our Redis database, on a queue of its own."""
    env: dict[str, str | None] = {
        "DATABASE_URL": database_url(connection.settings_dict),
        "CELERY_QUEUE": f"serve-{os.getpid()}-{os.urandom(3).hex()}",
        "PRODUCTION": "true", "SECRET_KEY": "test-" + "x" * 50, "SECURE_SSL_REDIRECT": "false",
        "API_RATE_LIMIT": "100000/min",
    }  # fmt: skip
    stack = ServeStack(var_dir=tmp_path / "var", env=env).start()
    yield stack
    stack.stop()


def test_a_part_that_dies_is_started_again_and_production_has_no_demo_user(production_stack: ServeStack) -> None:
    stack = production_stack
    stack.wait_healthy()
    assert "no demo user" in stack.log()
    assert not (stack.var_dir / "demo_credentials.json").exists()
    assert not get_user_model().objects.filter(username="admin").exists()
    _, key = api_key_create(tenant=tenant_get_or_create(name="ops"), name="ops")

    for part in ("gunicorn", " beat ", " worker "):
        pid = stack.child(part)
        assert pid is not None, part
        os.kill(pid, signal.SIGKILL)  # as the kernel's OOM killer would
        assert wait_until(lambda p=part, old=pid: stack.child(p) not in {None, old}, timeout=60), stack.log()[-3000:]
    assert stack.log().count("restarting in") >= 3
    stack.wait_healthy()
    assert _job_done(stack, key, "bob", "I moved to Lisbon last spring.")
