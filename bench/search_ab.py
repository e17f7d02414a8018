"""Two or more variants of the search service, compared on the scale subject in alternating blocks.

    .venv/bin/python -m bench.search_ab --variant new=. --variant old=/path/to/other/checkout
    .venv/bin/python -m bench.search_ab --variant thread=. --variant inline=.:SEARCH_EMBED_IN_THREAD=false
    .venv/bin/python -m bench.search_ab --size 1000 --messages --variant new=. --variant old=/path/to/other/checkout
    .venv/bin/python -m bench.search_ab --variant kept=. --variant sync=.:@server=sync,@client=new
    .venv/bin/python -m bench.search_ab --after-write change --variant new=. --variant old=/path/to/other/checkout

The subject is the scale subject of 10,000 facts, or with --size the one of 100 or 1,000. Each variant is a
gunicorn of 2 workers serving as `make run` does (threads, a client's connection kept alive; the client keeps
its connection), started from a checkout (its code; this virtualenv) with extra environment variables; options
`@server=sync` and `@client=new` give the bench's former set-up (sync workers, a new connection a request). On
the scale database `bench.search_latency` builds (run that first). Blocks of 20 queries go to each variant in
turn, the order rotating, then to the embedder alone in this process: every variant is timed at nearly the same
moments of a shared machine, whose speed moves by a third within minutes. Reported: p50 / p95 of each variant's
wall times, its p50 over the first variant's, and over the embedder alone. With --after-write, each timed search
follows a write to the subject (WRITES), as an agent that stores each turn searches.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import (
    ROOT,
    BenchContext,
    _free_port,
    _stop,
    _wait_http,
    database_url_for,
    django_setup,
    percentile,
)
from bench.search_latency import BLOCK, SCALE_DB, SCALE_TENANT, SIZES, WARMUP, _vocabulary, small_subject
from memory_site.management.commands.serve import WEB_WORKER_ARGS


@dataclass
class Variant:
    name: str
    checkout: Path
    env: dict[str, str]
    options: dict[str, str] = field(default_factory=dict)  # @server=sync, @client=new
    ctx: BenchContext | None = None
    proc: subprocess.Popen[bytes] | None = None
    wall: list[float] = field(default_factory=list)


def parse_variant(text: str) -> Variant:
    """NAME=CHECKOUT[:VAR=VALUE[,VAR=VALUE...]]"""
    name, _, rest = text.partition("=")
    checkout, _, env = rest.partition(":")
    pairs = dict(item.split("=", 1) for item in env.split(",") if item)
    options = {k[1:]: pairs.pop(k) for k in list(pairs) if k.startswith("@")}
    return Variant(name=name, checkout=Path(checkout or ".").resolve(), env=pairs, options=options)


def _start(variant: Variant, db_url: str, api_key: str, log_dir: Path) -> None:
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "MEMORY_SITE_VAR_DIR": str(ROOT / "var"),  # the exported ONNX model and the secret key, shared
        "API_RATE_LIMIT": "1000000/min",
        "LOG_LEVEL": "WARNING",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        **variant.env,
    }
    server_args = ("--worker-class", "sync") if variant.options.get("server") == "sync" else WEB_WORKER_ARGS
    log = open(log_dir / f"bench-ab-{variant.name}-{os.getpid()}.log", "wb")  # noqa: SIM115
    variant.proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "memory_site.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "2", *server_args, "--timeout", "120"],
        cwd=variant.checkout, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    base_url = f"http://127.0.0.1:{port}"
    _wait_http(base_url, variant.proc)
    variant.ctx = BenchContext(
        base_url=base_url, api_key=api_key, database_url=db_url, conversations=[],
        client=variant.options.get("client", "keepalive"),
    )  # fmt: skip


# --after-write: before each timed search, one write to the subject's first fact (not timed). `touch` sets a
# column to its own value (bench.search_latency's write: logged, nothing search reads changes); `change` gives
# the fact an expiry ten years out or takes it away, in turn (a change search reads: the fact's row is new).
WRITES = {
    "touch": "UPDATE facts_fact SET mention_count = mention_count WHERE id = %s",
    "change": "UPDATE facts_fact SET expires_at = CASE WHEN expires_at IS NULL "
    "THEN now() + interval '10 years' END WHERE id = %s",
}


def _writer(mode: str, subject: str) -> Any:
    """What writes to `subject` before each search (`mode` of WRITES), or None."""
    if mode == "none":
        return None
    from django.db import connection

    from conversations.models import Subject

    pk = Subject.objects.get(tenant__name=SCALE_TENANT, external_id=subject).pk
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(id) FROM facts_fact WHERE subject_id = %s", [pk])
        (fact_id,) = cursor.fetchone()

    def write() -> None:
        with connection.cursor() as cursor:
            cursor.execute(WRITES[mode], [fact_id])

    return write


def _timed(variant: Variant, subject: str, queries: list[str], options: dict[str, Any], write: Any) -> None:
    assert variant.ctx is not None
    for q in queries:
        if write is not None:
            write()
        variant.wall.append(variant.ctx.search(subject, q, **options)[1])


def run(
    variants: list[Variant], *, queries: int, size: int = 10_000, messages: bool = False, after_write: str = "none"
) -> dict[str, Any]:
    import random

    db_url = database_url_for(SCALE_DB)
    django_setup(db_url)
    from django.conf import settings

    from bench.common import api_key_for_bench
    from facts.embedding import embed_query, limit_torch_threads

    limit_torch_threads(settings.WEB_TORCH_THREADS)  # as the web workers run it
    api_key = api_key_for_bench(SCALE_TENANT)
    small_subject()
    subject = dict((n, s) for s, n in SIZES)[size]
    options = {"limit": 10, "include_messages": messages}
    (ROOT / "var").mkdir(exist_ok=True)
    vocab = _vocabulary()
    rng = random.Random(11)
    qs = [" ".join(rng.choice(vocab[:300]) for _ in range(rng.randint(2, 5))) + "?" for _ in range(queries + WARMUP)]
    embed_alone: list[float] = []
    write = _writer(after_write, subject)
    try:
        for variant in variants:
            _start(variant, db_url, api_key, ROOT / "var")
        for variant in variants:  # each worker's first searches, and its background read of the subject
            assert variant.ctx is not None
            for q in qs[:WARMUP] * 2:
                variant.ctx.search(subject, q, **options)
        time.sleep(1.0)
        for i, start in enumerate(range(WARMUP, len(qs), BLOCK)):
            block = qs[start : start + BLOCK]
            for variant in variants[i % len(variants) :] + variants[: i % len(variants)]:
                _timed(variant, subject, block, options, write)
            for q in block:
                t0 = time.perf_counter()
                embed_query(q)
                embed_alone.append((time.perf_counter() - t0) * 1000)
    finally:
        for variant in variants:
            if variant.proc is not None:
                _stop(variant.proc)
    first = percentile(variants[0].wall, 50)
    e50 = percentile(embed_alone, 50)
    return {
        "subject_facts": size,
        "include_messages": messages,
        "after_write": after_write,
        "queries": queries,
        "block": BLOCK,
        "embed_alone_p50": round(e50, 2),
        "variants": {
            v.name: {
                "checkout": str(v.checkout),
                "env": v.env,
                "options": v.options,
                "p50": round(percentile(v.wall, 50), 2),
                "p95": round(percentile(v.wall, 95), 2),
                "p50_over_first": round(percentile(v.wall, 50) / first, 3),
                "p50_over_embed_alone": round(percentile(v.wall, 50) / e50, 2),
                "p95_over_embed_alone": round(percentile(v.wall, 95) / e50, 2),
            }
            for v in variants
        },
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True, help="NAME=CHECKOUT[:VAR=VALUE,...]")
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--size", type=int, default=10_000, choices=[n for _, n in SIZES], help="the subject's facts")
    parser.add_argument("--messages", action="store_true", help="include_messages in every search")
    parser.add_argument("--after-write", default="none", choices=["none", *WRITES], help="a write before each search")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    result = run(
        [parse_variant(v) for v in args.variant],
        queries=args.queries, size=args.size, messages=args.messages, after_write=args.after_write,
    )  # fmt: skip
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
