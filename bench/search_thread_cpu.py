"""The search request's own thread, in process: CPU before the query starts embedding and after its vector is there.

    BENCH_SCALE_DATABASE_NAME=... .venv/bin/python -m bench.search_thread_cpu --queries 150 \\
        --variant early= --variant late=SEARCH_EMBED_EARLY=false

Each search goes through the whole Django stack (Django's test client: middleware, DRF, authentication with the
Redis rate-limit script, the view, rendering) on this thread, on the scale database `bench.search_latency` built
(its subjects of 100, 1,000 and 10,000 facts). Thread CPU (`time.thread_time`) is load-robust: it counts what this
thread ran, not what it waited for. Per request: the CPU before the embedding was started, the CPU after its
vector was first read, the whole request's CPU, and the wall time the thread waited for the vector (0: the
embedding was not on the critical path). Variants (settings overridden) alternate in blocks of 10 queries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

from bench.common import database_url_for, django_setup
from bench.search_latency import SCALE_DB, SCALE_TENANT, SIZES, _vocabulary

BLOCK = 10
SUBJECTS = {str(size): name for name, size in SIZES}


class Probe:
    """Notes, for the current request, the thread CPU when its query embedding starts and when its vector is first
    read, and how long that read waited (wraps the embedding service's public class)."""

    def __init__(self) -> None:
        from facts.retrieval import query_vector

        self.started: float | None = None
        self.read: float | None = None
        self.waited = 0.0
        probe, cls = self, query_vector.QueryVector
        init, result = cls.__init__, cls.result

        def init_noted(self: Any, *args: Any, **kwargs: Any) -> None:
            if probe.started is None:
                probe.started = time.thread_time()
            init(self, *args, **kwargs)

        def result_noted(self: Any) -> Any:
            t0 = time.perf_counter()
            vector = result(self)
            if probe.read is None:
                probe.waited, probe.read = time.perf_counter() - t0, time.thread_time()
            return vector

        cls.__init__, cls.result = init_noted, result_noted  # type: ignore[method-assign]

    def reset(self) -> None:
        self.started, self.read, self.waited = None, None, 0.0


def run(variants: dict[str, dict[str, str]], *, queries: int) -> dict[str, Any]:
    os.environ.setdefault("API_RATE_LIMIT", "1000000/min")
    django_setup(database_url_for(SCALE_DB))
    from django.db import connection
    from django.test import Client, override_settings

    from bench.common import api_key_for_bench
    from conversations.models import Subject

    api_key = api_key_for_bench(SCALE_TENANT)
    subjects = {
        size: name
        for size, name in SUBJECTS.items()
        if Subject.objects.filter(tenant__name=SCALE_TENANT, external_id=name).exists()
    }
    client = Client(HTTP_AUTHORIZATION=f"Bearer {api_key}", SERVER_NAME="127.0.0.1")
    probe = Probe()
    vocab = _vocabulary()
    rng = random.Random(11)
    qs = [" ".join(rng.choice(vocab[:300]) for _ in range(rng.randint(2, 5))) + "?" for _ in range(queries)]
    rows: dict[str, dict[str, list[tuple[float, ...]]]] = {v: {s: [] for s in subjects} for v in variants}

    def search(subject: str, q: str) -> tuple[float, ...]:
        probe.reset()
        statements = [0]

        def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            statements[0] += 1
            return execute(sql, params, many, context)

        w0, c0 = time.perf_counter(), time.thread_time()
        with connection.execute_wrapper(count):
            response = client.post(f"/api/v1/users/{subject}/search", {"query": q, "limit": 10}, "application/json")
        c1, w1 = time.thread_time(), time.perf_counter()
        assert response.status_code == 200, response.content
        before = (probe.started or c1) - c0
        after = c1 - (probe.read or c1)
        return (c1 - c0) * 1e3, before * 1e3, after * 1e3, probe.waited * 1e3, (w1 - w0) * 1e3, statements[0]

    for name in subjects.values():  # warm: the embedder, the subjects held in memory, the key known
        for q in qs[:5]:
            search(name, q)
    time.sleep(1.0)
    names = list(variants)
    for i, start in enumerate(range(0, len(qs), BLOCK)):
        for variant in names[i % len(names) :] + names[: i % len(names)]:
            with override_settings(**{k: _value(v) for k, v in variants[variant].items()}):
                for size, name in subjects.items():
                    rows[variant][size] += [search(name, q) for q in qs[start : start + BLOCK]]
    fields = [
        "cpu_total_ms",
        "cpu_before_embedding_ms",
        "cpu_after_vector_ms",
        "waited_for_vector_ms",
        "wall_ms",
        "sql",
    ]
    return {
        variant: {
            size: {f: round(statistics.median(r[k] for r in found), 3) for k, f in enumerate(fields)}
            for size, found in by_size.items()
        }
        for variant, by_size in rows.items()
    }


def _value(text: str) -> Any:
    return {"true": True, "false": False}.get(text.lower(), text)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True, help="NAME=[SETTING=VALUE,...]")
    parser.add_argument("--queries", type=int, default=150)
    args = parser.parse_args(argv)
    variants = {}
    for text in args.variant:
        name, _, rest = text.partition("=")
        variants[name] = dict(item.split("=", 1) for item in rest.split(",") if item)
    result = run(variants, queries=args.queries)
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
