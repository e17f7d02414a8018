"""Shared fixtures: personas (alice and bob in tenant A, carol in tenant B), API clients, a real worker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from conversations.models import Tenant
from conversations.services import api_key_create, tenant_get_or_create
from tests.stack import database_url

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Persona:
    name: str
    tenant: Tenant
    key: str
    client: APIClient

    def url(self, path: str, user: str | None = None) -> str:
        return f"/api/v1/users/{user or self.name}/{path}"

    def post(self, path: str, data: Any = None, user: str | None = None, **kw: Any) -> Any:
        return self.client.post(self.url(path, user), data, format="json", **kw)

    def get(self, path: str, user: str | None = None, **kw: Any) -> Any:
        return self.client.get(self.url(path, user), **kw)

    def ingest(self, *contents: str, wait: bool = True, session: str = "s1", **extra: Any) -> Any:
        messages = [{"role": "user", "content": c, **extra} for c in contents]
        suffix = "?wait=true" if wait else ""
        return self.post(f"messages{suffix}", {"session_id": session, "messages": messages})

    def search(self, query: str, **kw: Any) -> Any:
        return self.post("search", {"query": query, **kw})


def _persona(name: str, tenant_name: str) -> Persona:
    tenant = tenant_get_or_create(name=tenant_name)
    _, raw = api_key_create(tenant=tenant, name=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return Persona(name=name, tenant=tenant, key=raw, client=client)


@pytest.fixture
def alice(db: None) -> Persona:
    return _persona("alice", "tenant-a")


@pytest.fixture
def bob(db: None) -> Persona:
    return _persona("bob", "tenant-a")


@pytest.fixture
def carol(db: None) -> Persona:
    return _persona("carol", "tenant-b")


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


def _database_url() -> str:
    return database_url(connection.settings_dict)


# Settings of the live worker that tests rely on: webhooks go to receivers on 127.0.0.1, retried within a second,
# and an endpoint failing 3 times in a row is disabled.
WORKER_SETTINGS = {
    "WEBHOOKS_ALLOW_PRIVATE_TARGETS": "1",
    "WEBHOOK_RETRY_DELAYS": "0.3,0.3,0.3,0.3,0.3",
    "WEBHOOK_DISABLE_AFTER_FAILURES": "3",
}

# The session's live worker, once a test has started it: later transactional tests commit, so their on-commit
# tasks reach it too, and it must be idle before pytest-django flushes the tables (a TRUNCATE next to a task's
# SELECT ... FOR UPDATE deadlocks).
_LIVE_WORKER: dict[str, str] = {}


def _wait_worker_idle(timeout: float = 60.0) -> None:
    from memory_site.celery import app

    queue, broker = _LIVE_WORKER["queue"], _LIVE_WORKER["broker"]
    client = None
    if broker.startswith("redis://"):
        import redis

        client = redis.Redis.from_url(broker)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        queued = int(client.llen(queue)) if client is not None else 0
        inspect = app.control.inspect(timeout=0.5)
        busy = [*((inspect.active() or {}).values()), *((inspect.reserved() or {}).values())]
        if queued == 0 and not any(busy):
            return
        time.sleep(0.1)


@pytest.fixture(autouse=True)
def _rate_limits_counted_per_test(settings: Any) -> None:
    """Each test counts its rate limits (in the shared Redis cache) under its own prefix: every test's client has
    the same address, and one test's failed authentications must not throttle the next."""
    import uuid

    settings.CACHES = {**settings.CACHES, "throttle": {**settings.CACHES["throttle"], "KEY_PREFIX": uuid.uuid4().hex}}


@pytest.fixture(autouse=True)
def _live_worker_idle_before_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    marker = request.node.get_closest_marker("django_db")
    transactional = "transactional_db" in request.fixturenames or bool(marker and marker.kwargs.get("transaction"))
    if transactional:
        request.getfixturevalue("_django_db_helper")  # set up before this fixture: its flush runs after our wait
    yield
    if transactional:
        # This test's buffered access records go now, while their rows exist. Left to the batch timer (1 s), one
        # search's record reached the live worker during the next test, for a subject already truncated, next to
        # that test's own flush: the likely cause of a rare teardown error in the real-worker access test.
        from facts.retrieval.access import flush_access_records

        flush_access_records()
    if transactional and _LIVE_WORKER:
        _wait_worker_idle()


@pytest.fixture(scope="session", autouse=True)
def _loader_thread_disconnects_at_the_end(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Search reads a large subject into memory on a loader thread, with its own (persistent) database connection:
    close it before the test database is dropped."""
    yield
    from facts.retrieval.vector_cache import close_loader_connection

    with django_db_blocker.unblock():
        close_loader_connection()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: None, django_db_blocker: Any) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker process on the real broker, against the test database."""
    broker = os.environ.get("CELERY_BROKER_URL")
    if not broker:
        pytest.fail("CELERY_BROKER_URL must point at a real broker for worker tests (make test sets it)")
    with django_db_blocker.unblock():
        db_url = _database_url()
    if broker.startswith("redis://"):
        import redis

        redis.Redis.from_url(broker).flushdb()
    # A queue of this session's own, so a stray worker from another run cannot take these tasks.
    from memory_site.celery import app

    queue = f"test-{os.getpid()}"
    app.conf.task_default_queue = queue
    env = {**os.environ, "DATABASE_URL": db_url, "CELERY_BROKER_URL": broker, "CELERY_QUEUE": queue, **WORKER_SETTINGS}
    log = open(ROOT / "var" / "test-worker.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "memory_site", "worker", "--loglevel", "INFO", "--concurrency", "2",
         "--pool", "prefork", "--hostname", f"test-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited early, see {log.name}")
        replies = app.control.ping(timeout=1.0)
        if replies:
            break
    else:
        proc.terminate()
        raise RuntimeError("worker did not answer a ping in time")
    _LIVE_WORKER.update(queue=queue, broker=broker)
    yield proc
    _LIVE_WORKER.clear()
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    log.close()


def wait_until(predicate: Callable[[], bool], timeout: float = 60.0, interval: float = 0.1) -> bool:
    """Poll a condition (a state the worker reaches), not a sleep-based timing assertion."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
