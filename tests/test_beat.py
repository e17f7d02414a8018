"""Beat re-enqueues messages left pending by itself: their rescue does not wait on the worker that failed them."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.db import connection
from django.utils import timezone

from conversations.models import Message
from tests.conftest import Persona, wait_until
from tests.stack import WorkerProcess, database_url

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def queue(transactional_db: None) -> str:
    return f"beat-{os.getpid()}-{os.urandom(3).hex()}"


@pytest.fixture
def beat(queue: str, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "DATABASE_URL": database_url(connection.settings_dict), "CELERY_QUEUE": queue,
           "EXTRACTION_SWEEP_INTERVAL_SECONDS": "1", "EXTRACTION_SWEEP_AFTER_SECONDS": "60"}  # fmt: skip
    log = open(ROOT / "var" / "test-beat.log", "ab")  # noqa: SIM115 (the child writes to it)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "memory_site", "beat", "--loglevel", "INFO",
         "--schedule", str(tmp_path / "celerybeat-schedule")],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    log.close()
    yield proc
    proc.terminate()
    proc.wait(timeout=30)


def test_beat_requeues_stale_messages_with_no_worker_running(
    alice: Persona, queue: str, beat: subprocess.Popen[bytes]
) -> None:
    """A message accepted long ago and never extracted (its task was lost with a stalled or killed worker)."""
    broker = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"])
    from memory_site.celery import app

    previous = app.conf.task_default_queue
    app.conf.task_default_queue = f"{queue}-nobody"  # the ingest's own task goes where nobody listens: lost
    try:
        job = alice.ingest("I have a parrot named Kiwi.", wait=False).json()["job_id"]
    finally:
        app.conf.task_default_queue = previous
    Message.objects.filter(job_id=job).update(received_at=timezone.now() - dt.timedelta(minutes=5))

    def extraction_queued() -> bool:  # beat sent it, with no worker anywhere
        return any(b"facts.tasks.messages_extract_task" in item for item in broker.lrange(queue, 0, -1))

    assert wait_until(extraction_queued, timeout=60)
    worker = WorkerProcess(queue=queue, broker=os.environ["CELERY_BROKER_URL"],
                           db_url=database_url(connection.settings_dict),
                           log_path=ROOT / "var" / "test-beat-worker.log").start()  # fmt: skip
    try:
        assert wait_until(lambda: alice.client.get(f"/api/v1/jobs/{job}").json()["state"] == "done", timeout=120)
    finally:
        worker.stop()
    broker.delete(f"{queue}-nobody")
