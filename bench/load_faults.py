"""Load with faults: 50 concurrent clients mixing ingest, search and context against `make run`'s stack, with
pool processes and the worker killed (SIGKILL) and the broker restarted midway; then a reconciliation.

    .venv/bin/python -m bench.load_faults                   # 5 minutes, 50 clients
    .venv/bin/python -m bench.load_faults --duration 90     # a short run

The stack is `manage.py serve` as `make run` starts it (tests/stack.py): its own embedded PostgreSQL and its
default broker (the embedded Valkey) under a fresh directory, on a free loopback port; nothing else is reached.
Each client loops: an ingest (one fact-bearing turn with an external id of its own), a search or a context
request, then a short pause (--think), so the load is bounded. A refused or failed ingest is sent again with the
same external id (the API stores it once). Midway: SIGKILL to a pool process, another, then the worker process
(`serve` starts it again), then to the broker (`serve` starts it again; its append-only file and the sweeper
bring back the queue). The fault window runs from the first kill until /healthz answers 200 again after the
last, plus --grace seconds.

Reconciliation, once every stored message is extracted (or --settle-timeout passes): accepted external ids
(answered 202) against the rows stored for them (each once), messages not done, messages without a fact (each
turn states one), facts mentioned twice or stored twice (a turn extracted twice), 5xx in and outside the fault
window, p50/p95 per minute and per operation. Writes bench/results/load-faults-<name>.json and .svg.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import RESULTS_DIR, ROOT, percentile
from bench.load_chart import render_svg

sys.path.insert(0, str(ROOT))
from tests.stack import ServeStack, alive, own_directory  # noqa: E402

USERS = 20
SEARCHES = ["Which cat sleeps on the red sofa?", "What is the name of my cat?", "谁每天早上叫醒我？",
            "Where does Pixel sleep?", "我的猫叫什么名字？", "blue sofa"]  # fmt: skip


def turn(n: int) -> str:
    """A turn stating one fact no other turn states (a name and a number of its own), in English or Chinese."""
    if n % 3 == 2:
        return f"我养了一只叫团子{n}号的猫，它每天早上七点叫醒我。"
    return f"I adopted a cat named Pixel{n} and she sleeps on the {('red', 'blue', 'green')[n % 3]} sofa."


@dataclass
class Sample:
    at: float  # seconds since the load started
    op: str
    status: int
    ms: float


@dataclass
class Load:
    stack: ServeStack
    key: str
    started: float = field(default_factory=time.monotonic)
    samples: list[Sample] = field(default_factory=list)
    accepted: set[str] = field(default_factory=set)  # external ids answered 202
    sent: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)

    def call(self, op: str, method: str, path: str, body: Any) -> tuple[int, Any]:
        t0 = time.monotonic()
        status, answer = self.stack.request(method, path, body, key=self.key)
        sample = Sample(t0 - self.started, op, status, (time.monotonic() - t0) * 1000)
        with self.lock:
            self.samples.append(sample)
        return status, answer


def client(load: Load, index: int, think: float, counter: Any) -> None:
    """One client: ingest, then a search or a context request, a pause; until told to stop."""
    rng = random.Random(index)
    while not load.stop.is_set():
        user = f"user{rng.randrange(USERS)}"
        n = next(counter)
        external_id = f"turn-{n}"
        body = {"session_id": f"s{index}", "messages": [
            {"role": "user", "content": turn(n), "external_id": external_id}]}  # fmt: skip
        with load.lock:
            load.sent.add(external_id)
        for _attempt in range(3):  # a failed ingest is sent again, as a careful client would; stored once
            status, _ = load.call("ingest", "POST", f"/api/v1/users/{user}/messages", body)
            if status == 202:
                with load.lock:
                    load.accepted.add(external_id)
                break
            if load.stop.wait(1.0):
                break
        if rng.random() < 0.6:
            load.call("search", "POST", f"/api/v1/users/{user}/search", {"query": rng.choice(SEARCHES)})
        else:
            load.call("context", "POST", f"/api/v1/users/{user}/context",
                      {"query": rng.choice(SEARCHES), "token_budget": 800})  # fmt: skip
        load.stop.wait(rng.uniform(0.5, 1.5) * think)


def _wait(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def inject_faults(load: Load, events: list[dict[str, Any]]) -> tuple[float, float]:
    """Kill two pool processes, the worker, then the broker; return the fault window (seconds since start)."""
    stack = load.stack

    def note(what: str, **extra: Any) -> None:
        events.append({"at": round(time.monotonic() - load.started, 2), "event": what, **extra})

    first = time.monotonic() - load.started
    for _ in range(2):
        _wait(lambda: bool(stack.pool_processes()), 60)
        pids = stack.pool_processes()
        if pids:
            os.kill(pids[0], signal.SIGKILL)
            note("pool process killed", pid=pids[0])
        time.sleep(3.0)  # the spacing of the faults, as the OOM killer would strike
    worker = stack.child(" worker ")
    if worker:
        os.kill(worker, signal.SIGKILL)
        note("worker killed", pid=worker)
        _wait(lambda: stack.child(" worker ") not in {None, worker}, 60)
        note("worker running again")
    pid_file = stack.var_dir / "valkey" / "valkey.pid"
    broker = int(pid_file.read_text())
    os.kill(broker, signal.SIGKILL)
    note("broker killed", pid=broker)
    _wait(lambda: not alive(broker), 30)
    _wait(lambda: pid_file.exists() and int(pid_file.read_text()) != broker and alive(int(pid_file.read_text())), 90)
    note("broker running again")
    _wait(lambda: stack.healthz() == 200, 180)
    note("healthz 200")
    return first, time.monotonic() - load.started


RECONCILE_SQL = """
SELECT
  (SELECT count(*) FROM conversations_message),
  (SELECT count(DISTINCT external_id) FROM conversations_message),
  (SELECT count(*) FROM conversations_message WHERE extraction_state <> 'done'),
  (SELECT count(*) FROM conversations_message WHERE extraction_state = 'failed'),
  (SELECT count(*) FROM conversations_message m
     WHERE NOT EXISTS (SELECT 1 FROM facts_factsource s WHERE s.message_id = m.id)),
  (SELECT count(*) FROM facts_fact),
  (SELECT count(*) FROM facts_fact WHERE mention_count > 1),
  (SELECT count(*) FROM (SELECT 1 FROM facts_fact GROUP BY subject_id, normalized_text HAVING count(*) > 1) d),
  (SELECT count(*) FROM facts_factsource),
  (SELECT count(*) FROM conversations_message WHERE extraction_attempts > 1)
"""
RECONCILE_KEYS = ("messages", "distinct_external_ids", "not_done", "failed", "without_facts", "facts",
                  "facts_mentioned_twice", "facts_stored_twice", "sources", "claimed_again")  # fmt: skip


def read_database(pgdata: Path) -> dict[str, int] | None:
    import psycopg

    try:
        socket_dir = (pgdata / "postmaster.pid").read_text().splitlines()[4]
        with psycopg.connect(host=socket_dir, dbname="postgres", user="postgres", connect_timeout=5) as conn:
            row = conn.execute(RECONCILE_SQL).fetchone()
            external = {r[0] for r in conn.execute("SELECT external_id FROM conversations_message")}
    except (OSError, IndexError, psycopg.Error):
        return None
    assert row is not None
    result = dict(zip(RECONCILE_KEYS, (int(v) for v in row), strict=True))
    result["_external_ids"] = external  # type: ignore[assignment]
    return result


def settle(pgdata: Path, timeout: float) -> tuple[dict[str, Any], float]:
    """Poll until every stored message is extracted (or failed for good); return the last reading and the wait."""
    t0 = time.monotonic()
    last: dict[str, Any] | None = None
    while time.monotonic() - t0 < timeout:
        last = read_database(pgdata) or last
        if last and last["not_done"] == last["failed"]:
            break
        time.sleep(2.0)
    return last or {}, time.monotonic() - t0


def latency_table(samples: list[Sample], bucket: float) -> list[dict[str, Any]]:
    """p50 and p95 (ms) of answered requests per bucket of `bucket` seconds and per operation."""
    rows: dict[tuple[int, str], list[float]] = {}
    errors: dict[int, int] = {}
    for s in samples:
        b = int(s.at // bucket)
        if s.status and s.status < 500:
            rows.setdefault((b, s.op), []).append(s.ms)
            rows.setdefault((b, "all"), []).append(s.ms)
        else:
            errors[b] = errors.get(b, 0) + 1
    out = []
    for b in sorted({k[0] for k in rows} | set(errors)):
        row: dict[str, Any] = {"from_s": b * bucket, "errors": errors.get(b, 0)}
        for op in ("all", "ingest", "search", "context"):
            values = rows.get((b, op), [])
            row[op] = {"n": len(values), "p50_ms": round(percentile(values, 50), 1) if values else None,
                       "p95_ms": round(percentile(values, 95), 1) if values else None}  # fmt: skip
        out.append(row)
    return out


def summarize(load: Load, db: dict[str, Any], window: tuple[float, float], grace: float) -> dict[str, Any]:
    lo, hi = window[0], window[1] + grace
    server_errors = [s for s in load.samples if s.status >= 500]
    no_answer = [s for s in load.samples if s.status == 0]
    outside = [s for s in server_errors + no_answer if not lo <= s.at <= hi]
    stored_ids: set[str] = db.pop("_external_ids", set())
    lost = sorted(load.accepted - stored_ids)
    answered = [s.ms for s in load.samples if 0 < s.status < 500]
    return {
        "requests": len(load.samples),
        "by_status": {str(k): v for k, v in sorted(_count(s.status for s in load.samples).items())},
        "accepted_messages": len(load.accepted),
        "sent_messages": len(load.sent),
        "stored_messages": db.get("messages"),
        "stored_twice": (db.get("messages") or 0) - (db.get("distinct_external_ids") or 0),
        "accepted_not_stored": len(lost),
        "stored_not_accepted": len(stored_ids - load.accepted),  # a 5xx or a cut answer after the row was stored
        "extracted": (db.get("messages") or 0) - (db.get("not_done") or 0),
        "not_extracted": db.get("not_done"),
        "failed": db.get("failed"),
        "without_facts": db.get("without_facts"),
        "facts": db.get("facts"),
        "duplicate_facts": (db.get("facts_mentioned_twice") or 0) + (db.get("facts_stored_twice") or 0),
        "claimed_again": db.get("claimed_again"),
        "server_errors": len(server_errors),
        "no_answer": len(no_answer),
        "errors_outside_fault_window": len(outside),
        "p50_ms": round(percentile(answered, 50), 1) if answered else None,
        "p95_ms": round(percentile(answered, 95), 1) if answered else None,
    }


def _count(values: Any) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def run(*, duration: float, clients: int, think: float, grace: float, settle_timeout: float) -> dict[str, Any]:
    with own_directory("load-faults") as directory:
        pgdata = directory / "pgdata"
        stack = ServeStack(var_dir=directory / "var", web_workers=2, env={
            "DATABASE_URL": None, "CELERY_BROKER_URL": None, "MEMORY_SITE_PGDATA": str(pgdata),
            "API_RATE_LIMIT": "1000000/min", "EXTRACTION_SWEEP_AFTER_SECONDS": "30",
            "EXTRACTION_SWEEP_INTERVAL_SECONDS": "10"}).start()  # fmt: skip
        try:
            stack.wait_healthy(timeout=900)  # a first start builds the database and loads the models
            key = json.loads((stack.var_dir / "demo_credentials.json").read_text())["api_key"]
            return _drive(stack, key, pgdata, duration=duration, clients=clients, think=think, grace=grace,
                          settle_timeout=settle_timeout)  # fmt: skip
        finally:
            stack.stop()


def _drive(stack: ServeStack, key: str, pgdata: Path, *, duration: float, clients: int, think: float,
           grace: float, settle_timeout: float) -> dict[str, Any]:  # fmt: skip
    import itertools

    load = Load(stack, key)
    counter = itertools.count()
    threads = [threading.Thread(target=client, args=(load, i, think, counter), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    events: list[dict[str, Any]] = []
    time.sleep(max(duration / 2 - 10, 1))
    window = inject_faults(load, events)
    load.stop.wait(max(duration - (time.monotonic() - load.started), 0))
    load.stop.set()
    for t in threads:
        t.join(timeout=60)
    load_seconds = time.monotonic() - load.started
    db, settle_seconds = settle(pgdata, settle_timeout)
    summary = summarize(load, db, window, grace)
    return {
        "duration_s": round(load_seconds, 1),
        "clients": clients,
        "think_s": think,
        "fault_window_s": [round(window[0], 1), round(window[1] + grace, 1)],
        "events": events,
        "settle_s": round(settle_seconds, 1),
        "reconciliation": summary,
        "per_minute": latency_table(load.samples, 60.0),
        "per_10s": latency_table(load.samples, 10.0),
        "pass": bool(
            summary["accepted_not_stored"] == 0 and summary["stored_twice"] == 0 and summary["not_extracted"] == 0
            and summary["duplicate_facts"] == 0 and summary["errors_outside_fault_window"] == 0
        ),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=float, default=300.0, help="seconds of load (default 300)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause of a client between rounds, s")
    parser.add_argument("--grace", type=float, default=10.0, help="seconds the fault window lasts after health")
    parser.add_argument("--settle-timeout", type=float, default=900.0)
    parser.add_argument("--name", default=dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ"))
    args = parser.parse_args(argv)
    result = run(duration=args.duration, clients=args.clients, think=args.think, grace=args.grace,
                 settle_timeout=args.settle_timeout)  # fmt: skip
    result["name"] = args.name
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"load-faults-{args.name}.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")
    svg = RESULTS_DIR / f"load-faults-{args.name}.svg"
    svg.write_text(render_svg(result), encoding="utf-8")
    print(json.dumps(result["reconciliation"], indent=1))
    print(f"pass: {result['pass']}; results: {path.relative_to(ROOT)} and {svg.relative_to(ROOT)}")
    return result


if __name__ == "__main__":
    main()
