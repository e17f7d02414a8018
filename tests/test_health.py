"""Health: /healthz answers the status alone; /admin/health/ gives operators every check; extraction is watched."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from facts.embedding import get_embedder, set_embedder
from memory_site.celery import app
from memory_site.models import WorkerHeartbeat
from tests.conftest import Persona, wait_until
from tests.stack import WorkerProcess, database_url

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def staff_client(db: None) -> APIClient:
    user = get_user_model().objects.create_user("operator", password="x", is_staff=True)
    client = APIClient()
    client.force_login(user)
    return client


class CountingEmbedder:
    """Stands in for a billed embedding endpoint: counts the texts it is asked to embed."""

    model_name = "counting"
    dimensions = 384

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [[1.0] + [0.0] * 383 for _ in texts]


@pytest.fixture
def counting_embedder() -> Iterator[CountingEmbedder]:
    previous = get_embedder()
    embedder = CountingEmbedder()
    set_embedder(embedder)  # type: ignore[arg-type]
    yield embedder
    set_embedder(previous)


@pytest.mark.django_db
def test_the_public_answer_is_the_status_alone(anon_client: APIClient, settings: Any) -> None:
    """Even degraded: no error text, no transport, provider or model name."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = anon_client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "degraded"}
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.django_db
def test_details_are_for_staff_only(anon_client: APIClient, alice: Persona, staff_client: APIClient) -> None:
    assert anon_client.get("/admin/health/").status_code == 302  # to the admin login
    assert alice.client.get("/admin/health/").status_code == 302  # an API key is no staff session
    plain = get_user_model().objects.create_user("someone", password="x")
    client = APIClient()
    client.force_login(plain)
    assert client.get("/admin/health/").status_code == 302
    body = staff_client.get("/admin/health/").json()
    assert body["database"]["ok"] and body["database"]["pgvector"]
    assert body["broker"]["ok"] and body["broker"]["transport"]
    assert body["embedder"]["dimensions"] == 384
    assert set(body["extraction"]) >= {"workers_alive", "oldest_waiting_message_seconds", "last_task_finished_seconds"}


@pytest.mark.django_db
def test_details_tell_which_part_is_down(staff_client: APIClient, settings: Any) -> None:
    settings.EMBEDDINGS_DISABLED = True
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = staff_client.get("/admin/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["embedder"]["ok"] is False and "disabled" in body["embedder"]["error"]
    assert body["broker"]["ok"] is False and body["broker"]["error"]
    assert body["database"]["ok"] is True


@pytest.mark.django_db
def test_the_public_check_embeds_at_most_once_a_minute(
    anon_client: APIClient, staff_client: APIClient, counting_embedder: CountingEmbedder
) -> None:
    """An embedding can be a billed call: a load balancer polling /healthz must not pay one per hit."""
    for _ in range(5):
        anon_client.get("/healthz")
    assert counting_embedder.calls == 1
    staff_client.get("/admin/health/")  # operators get a fresh check
    assert counting_embedder.calls == 2


@pytest.mark.django_db
def test_a_failing_embedder_degrades_health(staff_client: APIClient, settings: Any) -> None:
    settings.EMBEDDINGS_DISABLED = True
    assert APIClient().get("/healthz").status_code == 503
    assert staff_client.get("/admin/health/").json()["embedder"]["ok"] is False


# --- the worker, as /healthz sees it ------------------------------------------------------------------------


@pytest.fixture
def own_queue(settings: Any) -> Iterator[str]:
    """Tasks of this test go to a queue of its own (and /healthz watches that queue), not to the session worker."""
    queue = f"health-{os.getpid()}-{os.urandom(3).hex()}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    settings.WORKER_HEARTBEAT_SECONDS = 1.0
    yield queue
    app.conf.task_default_queue = previous


@pytest.fixture
def worker_factory(transactional_db: None, own_queue: str) -> Iterator[Any]:
    started: list[WorkerProcess] = []

    def start(consume: str = "") -> WorkerProcess:
        worker = WorkerProcess(
            queue=own_queue, consume=consume, broker=os.environ["CELERY_BROKER_URL"],
            db_url=database_url(connection.settings_dict), log_path=ROOT / "var" / "test-health-worker.log",
            env={"WORKER_HEARTBEAT_SECONDS": "1"},
        ).start()  # fmt: skip
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def _healthz() -> int:
    return int(APIClient().get("/healthz").status_code)


def _alive(queue: str) -> bool:
    return WorkerHeartbeat.objects.filter(queue=queue).exists()


def test_healthz_turns_503_when_the_worker_is_stopped_with_work_pending(
    worker_factory: Any, own_queue: str, alice: Persona, staff_client: APIClient, settings: Any
) -> None:
    settings.EXTRACTION_STALLED_AFTER_SECONDS = 5
    worker = worker_factory()
    assert wait_until(lambda: _alive(own_queue), timeout=120)
    job = alice.ingest("I have a dog named Rex.", wait=False).json()["job_id"]
    assert wait_until(lambda: alice.client.get(f"/api/v1/jobs/{job}").json()["state"] == "done", timeout=120)
    assert _healthz() == 200

    worker.stop()
    waiting = alice.ingest("I play the cello.", wait=False).json()["job_id"]
    assert wait_until(lambda: _healthz() == 503, timeout=30)
    extraction = staff_client.get("/admin/health/").json()["extraction"]
    assert extraction["workers_alive"] == 0 and extraction["oldest_waiting_message_seconds"] is not None

    worker_factory()  # back: it takes the waiting message, and health recovers
    assert wait_until(lambda: alice.client.get(f"/api/v1/jobs/{waiting}").json()["state"] == "done", timeout=120)
    assert wait_until(lambda: _healthz() == 200, timeout=60)


def test_healthz_turns_503_when_a_live_worker_takes_no_task(
    worker_factory: Any, own_queue: str, alice: Persona, staff_client: APIClient, settings: Any
) -> None:
    """Alive but stalled (it consumes nothing of our queue, as the filesystem broker's worker once did): a message
    waits longer than EXTRACTION_STALLED_AFTER_SECONDS while no task finishes."""
    settings.EXTRACTION_STALLED_AFTER_SECONDS = 2
    worker_factory(consume=f"{own_queue}-elsewhere")
    assert wait_until(lambda: _alive(own_queue), timeout=120)
    assert alice.ingest("I moved to Lisbon.", wait=False).status_code == 202
    assert wait_until(lambda: _healthz() == 503, timeout=30)
    extraction = staff_client.get("/admin/health/").json()["extraction"]
    assert extraction["workers_alive"] == 1 and extraction["stalled"] is True
    # Stalled means waiting longer than the threshold; the figure is rounded to 0.1 s (2.04 s reads 2.0).
    assert extraction["oldest_waiting_message_seconds"] >= 2
