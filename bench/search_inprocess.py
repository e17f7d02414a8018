"""Search variants compared in this process on the scale subjects: statements, CPU and time after the embedding.

    .venv/bin/python -m bench.search_inprocess --variant base='{"cache.min_facts": 2001}' --variant new='{}'

Each variant is a SEARCH_TUNING object; blocks of 10 queries go to each in turn (the order rotating), through
run_search on the database `bench.search_latency` builds (run that first), for the subjects of 100, 1,000 and
10,000 facts, facts only and with messages. Per search: SQL statements, CPU time of the request's thread (load
robust), and wall times: the whole search, its statements, and what follows the query's embedding (`post`: the
critical path once the embedding is there, the statements and work the embedding cannot hide). Medians.
With --after-write (bench.search_ab's WRITES), a write to the subject before each search (not timed):

    .venv/bin/python -m bench.search_inprocess --after-write change --sizes 10000 \
        --variant base='{"cache.refresh_max_facts": 0}' --variant new='{}'
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from bench.common import database_url_for, django_setup
from bench.search_ab import WRITES, _writer
from bench.search_latency import SCALE_DB, SCALE_TENANT, SIZES, WARMUP, _vocabulary, small_subject

BLOCK = 10


class _StatementTimer:
    def __init__(self) -> None:
        self.ms: list[float] = []

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.ms.append((time.perf_counter() - t0) * 1000)


def run(
    variants: dict[str, dict[str, Any]], *, queries: int, sizes: list[int], after_write: str = "none"
) -> dict[str, Any]:
    django_setup(database_url_for(SCALE_DB))
    from django.conf import settings
    from django.db import connection

    from conversations.models import Subject
    from facts.embedding import limit_torch_threads
    from facts.retrieval import query_vector, vector_cache
    from facts.retrieval.config import search_config
    from facts.retrieval.search import run_search

    limit_torch_threads(settings.WEB_TORCH_THREADS)
    small_subject()
    embedded_at: list[float] = []
    embed = query_vector.embed_query

    def timed_embed(text: str) -> list[float] | None:  # when the embedding thread has the vector
        vector = embed(text)
        embedded_at.append(time.perf_counter())
        return vector

    query_vector.embed_query = timed_embed  # type: ignore[assignment]
    rng = random.Random(11)
    vocab = _vocabulary()
    qs = [" ".join(rng.choice(vocab[:300]) for _ in range(rng.randint(2, 5))) + "?" for _ in range(queries + WARMUP)]

    def use(tuning: dict[str, Any]) -> None:
        settings.SEARCH_TUNING = tuning
        search_config.cache_clear()

    out: dict[str, Any] = {}
    for name, size in SIZES:
        if size not in sizes:
            continue
        subject_id = Subject.objects.get(tenant__name=SCALE_TENANT, external_id=name).pk
        write = _writer(after_write, name)
        for messages in (False, True):

            def one(
                query: str, subject_id: int = subject_id, messages: bool = messages, write: Any = write
            ) -> dict[str, float]:
                if write is not None:
                    write()
                timer = _StatementTimer()
                embedded_at.clear()
                with connection.execute_wrapper(timer):
                    cpu0, wall0 = time.thread_time(), time.perf_counter()
                    run_search(subject_id=subject_id, query=query, limit=10, include_messages=messages, min_relevance=0)
                    cpu1, wall1 = time.thread_time(), time.perf_counter()
                post = wall1 - (embedded_at[-1] if embedded_at else wall0)
                return {"stmts": len(timer.ms), "cpu": (cpu1 - cpu0) * 1000, "sql": sum(timer.ms),
                        "post": post * 1000, "wall": (wall1 - wall0) * 1000}  # fmt: skip

            for tuning in variants.values():
                use(tuning)
                for q in qs[:WARMUP]:
                    one(q)
            vector_cache.loads_wait()
            got: dict[str, list[dict[str, float]]] = {k: [] for k in variants}
            for i, start in enumerate(range(WARMUP, len(qs), BLOCK)):
                names = list(variants)
                for k in names[i % len(names) :] + names[: i % len(names)]:
                    use(variants[k])
                    got[k] += [one(q) for q in qs[start : start + BLOCK]]
            key = f"{size}{' +messages' if messages else ''}"
            out[key] = {
                k: {
                    m: round(
                        statistics.fmean(x[m] for x in r) if m == "stmts" else statistics.median(x[m] for x in r), 2
                    )
                    for m in ("stmts", "cpu", "sql", "post", "wall")
                }
                for k, r in got.items()
            }
            print(key, out[key], flush=True)
    query_vector.embed_query = embed  # type: ignore[assignment]
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True, help="NAME=SEARCH_TUNING JSON, e.g. new={}")
    parser.add_argument("--queries", type=int, default=80)
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--after-write", default="none", choices=["none", *WRITES], help="a write before each search")
    args = parser.parse_args(argv)
    variants = {name: json.loads(tuning) for name, _, tuning in (v.partition("=") for v in args.variant)}
    sizes = [int(s) for s in args.sizes.split(",")]
    result = run(variants, queries=args.queries, sizes=sizes, after_write=args.after_write)
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
