"""Faults mid-ingest on `make run`'s stack: every accepted message is extracted exactly once once things settle.

Each test runs `manage.py serve` (tests/stack.py) on the test database (or its own embedded PostgreSQL), posts
fact-bearing turns for several users through HTTP (202 Accepted), breaks one part while extraction runs, and
reconciles: every stored message done, each with its facts, no fact made twice (every turn states a fact no
other turn states, so a second extraction of a turn would show as a merge: a fact with two mentions).
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from conversations.services import api_key_create, tenant_get_or_create
from tests.conftest import wait_until
from tests.stack import ServeStack, alive, database_url, own_directory

pytestmark = [pytest.mark.stack, pytest.mark.timeout(600)]

USERS = 6
REQUESTS = 30
TURNS = 20  # per request: 600 turns in all


def turn(n: int) -> str:
    """A turn stating one fact no other turn states (a name and a number of its own), in English or Chinese."""
    if n % 3 == 2:
        return f"我养了一只叫团子{n}号的猫，它每天早上七点叫醒我。"
    return f"I adopted a cat named Pixel{n} and she sleeps on the {('red', 'blue', 'green')[n % 3]} sofa."


def post_turns(stack: ServeStack, key: str, *, requests: int = REQUESTS, first: int = 0) -> list[str]:
    """Post `requests` x TURNS turns, the users interleaved; return the job ids (every answer is 202)."""
    jobs = []
    for r in range(requests):
        body = {"session_id": f"s{first + r}", "messages": [
            {"role": "user", "content": turn((first + r) * TURNS + t)} for t in range(TURNS)]}  # fmt: skip
        status, answer = stack.request("POST", f"/api/v1/users/user{r % USERS}/messages", body, key=key)
        assert status == 202, (status, answer)
        jobs.append(answer["job_id"])
    return jobs


RECONCILE_SQL = """
SELECT
  (SELECT count(*) FROM conversations_message),
  (SELECT count(*) FROM conversations_message WHERE extraction_state <> 'done'),
  (SELECT count(*) FROM conversations_message m
     WHERE NOT EXISTS (SELECT 1 FROM facts_factsource s WHERE s.message_id = m.id)),
  (SELECT count(*) FROM facts_fact),
  (SELECT count(*) FROM facts_fact WHERE mention_count > 1),
  (SELECT count(*) FROM facts_factsource),
  (SELECT count(*) FROM conversations_message WHERE extraction_attempts > 1)
"""


def reconcile(cursor: Any) -> dict[str, int]:
    cursor.execute(RECONCILE_SQL)
    row = cursor.fetchone()
    keys = ("messages", "not_done", "without_facts", "facts", "facts_mentioned_twice", "sources", "claimed_again")
    return dict(zip(keys, (int(v) for v in row), strict=True))


def settled(read: Any, expected_messages: int, timeout: float) -> dict[str, int]:
    """Poll the database until every expected message is done; return the last reconciliation."""
    last: dict[str, int] = {}

    def done() -> bool:
        nonlocal last
        last = read()
        return last["messages"] >= expected_messages and last["not_done"] == 0

    wait_until(done, timeout=timeout, interval=1.0)
    return last


def assert_exactly_once(result: dict[str, int], expected_messages: int) -> None:
    assert result["messages"] == expected_messages, result
    assert result["not_done"] == 0, result  # none left pending, running or failed
    assert result["without_facts"] == 0, result  # every turn's fact was written
    assert result["facts_mentioned_twice"] == 0, result  # no turn extracted twice
    assert result["sources"] == result["facts"], result


def assert_faults_hit_extraction(result: dict[str, int]) -> None:
    """Some messages were claimed a second time: the fault did interrupt extractions under way."""
    assert result["claimed_again"] > 0, result


def _read_test_database() -> dict[str, int]:
    with connection.cursor() as cursor:
        return reconcile(cursor)


def _kill_pool_processes(stack: ServeStack, times: int, every: float) -> list[int]:
    """SIGKILL one pool process of the worker `times` times, `every` seconds apart, as the OOM killer would."""
    killed = []
    for _ in range(times):
        assert wait_until(lambda: bool(stack.pool_processes()), timeout=60)
        pid = stack.pool_processes()[0]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)
        time.sleep(every)  # the spacing of the faults, not a wait for a result
    return killed


@pytest.fixture
def stack_factory(transactional_db: None, tmp_path: Path) -> Iterator[Any]:
    """`serve` on the test database; the broker is `make run`'s embedded one unless `broker` is given."""
    stacks: list[ServeStack] = []

    def start(broker: str | None = None, **env: str) -> tuple[ServeStack, str]:
        stack = ServeStack(var_dir=tmp_path / f"var{len(stacks)}", env={
            "DATABASE_URL": database_url(connection.settings_dict), "CELERY_BROKER_URL": broker,
            "CELERY_QUEUE": f"faults-{os.getpid()}-{os.urandom(3).hex()}", "API_RATE_LIMIT": "1000000/min",
            **env,
        }).start()  # fmt: skip
        stacks.append(stack)
        _, key = api_key_create(tenant=tenant_get_or_create(name="faults"), name="faults")
        stack.wait_healthy()
        return stack, key

    yield start
    for stack in stacks:
        stack.stop()


# Only the redelivery of a killed task can rescue its messages within these tests' time: the sweeper waits longer.
NO_SWEEP = {"EXTRACTION_SWEEP_AFTER_SECONDS": "3600"}


def test_pool_processes_killed_on_the_embedded_broker(stack_factory: Any) -> None:
    """The issue's fault: on the filesystem broker the worker never took another task after this."""
    stack, key = stack_factory(**NO_SWEEP)
    post_turns(stack, key)
    _kill_pool_processes(stack, times=3, every=2.0)
    result = settled(_read_test_database, REQUESTS * TURNS, timeout=360)
    assert_exactly_once(result, REQUESTS * TURNS)
    assert_faults_hit_extraction(result)
    assert stack.healthz() == 200


def test_pool_processes_killed_on_redis(stack_factory: Any) -> None:
    stack, key = stack_factory(broker=os.environ["CELERY_BROKER_URL"], **NO_SWEEP)
    post_turns(stack, key)
    _kill_pool_processes(stack, times=3, every=2.0)
    result = settled(_read_test_database, REQUESTS * TURNS, timeout=360)
    assert_exactly_once(result, REQUESTS * TURNS)
    assert_faults_hit_extraction(result)


# The worker's own queue position is lost with it (its unacked tasks return only after the broker's visibility
# timeout): beat's sweep finds what it left, after EXTRACTION_SWEEP_AFTER_SECONDS.
SWEEP_SOON = {"EXTRACTION_SWEEP_AFTER_SECONDS": "20", "EXTRACTION_SWEEP_INTERVAL_SECONDS": "5"}


def test_the_worker_killed_is_started_again(stack_factory: Any) -> None:
    stack, key = stack_factory(**SWEEP_SOON)
    post_turns(stack, key)
    assert wait_until(lambda: bool(stack.pool_processes()), timeout=60)
    worker = stack.child(" worker ")
    assert worker is not None
    os.kill(worker, signal.SIGKILL)
    assert wait_until(lambda: stack.child(" worker ") not in {None, worker}, timeout=60)
    result = settled(_read_test_database, REQUESTS * TURNS, timeout=360)
    assert_exactly_once(result, REQUESTS * TURNS)
    assert_faults_hit_extraction(result)


def test_the_broker_killed_mid_ingest(stack_factory: Any) -> None:
    """`make run`'s embedded broker dies with tasks queued: `serve` starts it again, its append-only file brings
    back the queue (all but its last second), the sweep the rest; the service takes new turns again."""
    stack, key = stack_factory(**SWEEP_SOON)
    post_turns(stack, key)
    pid_file = stack.var_dir / "valkey" / "valkey.pid"
    broker = int(pid_file.read_text())
    os.kill(broker, signal.SIGKILL)
    assert wait_until(lambda: not alive(broker), timeout=30)
    assert wait_until(lambda: pid_file.exists() and alive(int(pid_file.read_text())), timeout=60)
    post_turns(stack, key, requests=6, first=REQUESTS)
    expected = (REQUESTS + 6) * TURNS
    assert_exactly_once(settled(_read_test_database, expected, timeout=360), expected)


def test_the_database_restarted_mid_ingest(monkeypatch: pytest.MonkeyPatch) -> None:
    """`make run`'s embedded PostgreSQL stops while the worker writes: `serve` starts it again, the tasks that
    failed meanwhile retry, the sweep finds the rest."""
    with own_directory("db-restart") as directory:
        _database_restarted(directory, monkeypatch)


def _database_restarted(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import psycopg

    from memory_site import embedded_db

    pgdata = directory / "pgdata"
    stack = ServeStack(var_dir=directory / "var", env={
        "DATABASE_URL": None, "CELERY_BROKER_URL": None, "MEMORY_SITE_PGDATA": str(pgdata),
        "API_RATE_LIMIT": "1000000/min", **SWEEP_SOON}).start()  # fmt: skip
    try:
        stack.wait_healthy()
        key = json.loads((stack.var_dir / "demo_credentials.json").read_text())["api_key"]
        post_turns(stack, key)
        assert wait_until(lambda: bool(stack.pool_processes()), timeout=60)
        monkeypatch.setenv("MEMORY_SITE_PGDATA", str(pgdata))
        old = int((pgdata / "postmaster.pid").read_text().split()[0])
        embedded_db.stop()  # pg_ctl stop: every connection of the web, worker and beat is cut
        assert not alive(old)
        assert wait_until(embedded_db.is_running, timeout=60)  # started again by `serve`

        def read() -> dict[str, int]:
            try:
                socket_dir = (pgdata / "postmaster.pid").read_text().splitlines()[4]
                with psycopg.connect(host=socket_dir, dbname="postgres", user="postgres") as conn:
                    return reconcile(conn.cursor())
            except (OSError, IndexError, psycopg.OperationalError):  # stopped, or starting again
                return {"messages": 0, "not_done": -1}

        assert_exactly_once(settled(read, REQUESTS * TURNS, timeout=360), REQUESTS * TURNS)
        assert stack.healthz() == 200
    finally:
        stack.stop()
