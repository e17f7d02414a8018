"""Search latency at scale: one subject with 10k facts in a database of N facts (default 1M), through HTTP.

Run on its own (`python -m bench.search_latency --facts 1000000`) or from bench.run, which starts it in a
subprocess because it works on its own database, `memory_site_scale`, on the same server.

Generation: random unit vectors (384 dims) and synthetic sentences drawn from a Zipf-distributed
vocabulary are COPYed (binary) into a staging table and expanded into facts_fact with SQL
(tsvector computed by PostgreSQL, every other column from a template fact made by the ORM). Indexes
are dropped for the load and rebuilt after it, except the HNSW index: building HNSW over 1M vectors on
2 shared cores takes far longer than the benchmark budget, and the read path does not need it
(SEARCH_VECTOR_MODE=exact scans the subject's rows through the btree on (subject, status, tier)).
The data set is kept between runs and only regenerated when its size differs or with --fresh.

Reported: search p50/p95/p99 over HTTP for the 10k-fact subject (one query at a time, warm-up discarded),
server-side took_ms, and the embedder alone on the same queries, in blocks of 20 alternating with the searches
(the same moments of the machine); ratio p50 / embed p50. Then torch's encode of the same queries, for
reference, and searches each right after a write to the subject (its facts held in memory then stale).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

SUBJECT_FACTS = 10_000
SUBJECTS_OTHER_SIZE = 1_000
SCALE_DB = os.environ.get("BENCH_SCALE_DATABASE_NAME", "memory_site_scale")
SCALE_TENANT = "scale-bench"
HOT_SUBJECT = "scale-hot-user"
QUERIES = 200
WARMUP = 10
BLOCK = 20  # searches, then the embedder alone on the same queries


def _vocabulary(n: int = 6000) -> list[str]:
    """Pronounceable pseudo-words plus common English nouns, deterministic."""
    import random

    rng = random.Random(42)
    common = [
        "coffee",
        "tea",
        "dog",
        "cat",
        "park",
        "office",
        "meeting",
        "doctor",
        "order",
        "refund",
        "address",
        "city",
        "trip",
        "flight",
        "hotel",
        "birthday",
        "music",
        "guitar",
        "piano",
        "book",
        "movie",
        "game",
        "garden",
        "kitchen",
        "school",
        "teacher",
        "project",
        "budget",
        "invoice",
        "contract",
        "phone",
        "laptop",
        "camera",
        "bike",
        "car",
        "train",
        "beach",
        "mountain",
        "river",
        "sister",
        "brother",
        "mother",
        "father",
        "friend",
        "allergy",
        "medicine",
        "dinner",
        "lunch",
        "breakfast",
        "recipe",
        "painting",
        "concert",
        "museum",
        "festival",
        "holiday",
    ]
    consonants, vowels = "bcdfghjklmnprstvwz", "aeiou"
    words = list(common)
    seen = set(words)
    while len(words) < n:
        w = "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(rng.randint(2, 4)))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


def _sentences(count: int, seed: int, vocab: list[str]) -> list[str]:
    import numpy as np

    rng = np.random.default_rng(seed)
    ranks = np.minimum(rng.zipf(1.3, size=(count, 12)) - 1, len(vocab) - 1)
    lengths = rng.integers(6, 13, size=count)
    return ["I " + " ".join(vocab[r] for r in row[:n]) + "." for row, n in zip(ranks, lengths, strict=True)]


def generate(total: int, *, fresh: bool = False) -> dict[str, Any]:
    """Fill memory_site_scale with `total` facts (one subject with 10k); skip when already that size."""
    from django.db import connection

    from conversations.services import subject_get_or_create, tenant_get_or_create
    from facts.extraction.base import Candidate
    from facts.services import fact_insert

    started = time.perf_counter()
    tenant = tenant_get_or_create(name=SCALE_TENANT)
    hot = subject_get_or_create(tenant=tenant, external_id=HOT_SUBJECT)
    with connection.cursor() as cursor:
        # Not the 100-fact subject's copies (small_subject): counted, they made every run generate the data again.
        cursor.execute(
            "SELECT count(*) FROM facts_fact WHERE subject_id NOT IN "
            "(SELECT id FROM conversations_subject WHERE tenant_id = %s AND external_id = %s)",
            [tenant.pk, SMALL_SUBJECT],
        )
        existing = int(cursor.fetchone()[0])
        cursor.execute("SELECT count(*) FROM facts_fact WHERE subject_id = %s", [hot.pk])
        hot_existing = int(cursor.fetchone()[0])
    hot_size = min(SUBJECT_FACTS, total)
    if not fresh and existing == total and hot_existing == hot_size:
        return {"generated": False, "facts": existing, "hot_subject_facts": hot_existing, "seconds": 0.0}

    vocab = _vocabulary()
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE facts_fact CASCADE")
    template = fact_insert(
        subject=hot,
        candidate=Candidate(message_id=0, text="template fact", type="other"),
        embedding=[0.0] * 383 + [1.0],
    )
    # Subjects: the hot one, then others of SUBJECTS_OTHER_SIZE facts each.
    others = max(0, total - hot_size)
    n_other_subjects = (others + SUBJECTS_OTHER_SIZE - 1) // SUBJECTS_OTHER_SIZE
    subject_ids = [hot.pk]
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO conversations_subject (created_at, updated_at, tenant_id, external_id, memory_paused, "
            "last_consolidated_message_count) SELECT now(), now(), %s, 'scale-user-' || g, false, 0 "
            "FROM generate_series(1, %s) g ON CONFLICT DO NOTHING",
            [tenant.pk, n_other_subjects],
        )
        cursor.execute(
            "SELECT id FROM conversations_subject WHERE tenant_id = %s AND external_id LIKE 'scale-user-%%' "
            "ORDER BY id LIMIT %s",
            [tenant.pk, n_other_subjects],
        )
        subject_ids += [int(r[0]) for r in cursor.fetchall()]
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'facts_fact' "
            "AND indexname NOT IN ('facts_fact_pkey', 'facts_fact_uid_key')"
        )
        indexes = list(cursor.fetchall())
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
    try:
        return _load(total, hot, hot_size, others, subject_ids, indexes, template, vocab, started)
    except BaseException:
        # Never leave the database without its indexes (a later run would find none to rebuild).
        with connection.cursor() as cursor:
            for _, ddl in indexes:
                if "hnsw" not in ddl.lower():
                    cursor.execute(ddl.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS", 1))
        raise


def _load(
    total: int,
    hot: Any,
    hot_size: int,
    others: int,
    subject_ids: list[int],
    indexes: list[tuple[str, str]],
    template: Any,
    vocab: list[str],
    started: float,
) -> dict[str, Any]:
    import numpy as np
    import psycopg
    from pgvector.psycopg import register_vector

    print(f"  scale: generating {total} facts ({len(subject_ids)} subjects) ...", flush=True)

    dsn = os.environ["DATABASE_URL"]
    batch = 50_000
    rng = np.random.default_rng(7)
    with psycopg.connect(dsn, autocommit=True) as conn:
        register_vector(conn)
        # Keep vectors inline: a TOASTed vector costs a detoast per row on every exact scan (~6 page reads
        # per row; measured 70 ms for 10k rows against ~15 ms inline). The app's table should do the same.
        conn.execute("ALTER TABLE facts_fact ALTER COLUMN embedding SET STORAGE PLAIN")
        # With the vector inline the row passes the TOAST threshold and the tsvector would move out of line
        # instead (~18 buffer reads a row for a keyword scan): keep it inline too, compressed if need be.
        conn.execute("ALTER TABLE facts_fact ALTER COLUMN search_vector SET STORAGE MAIN")
        conn.execute("DROP TABLE IF EXISTS scale_staging")
        conn.execute("CREATE UNLOGGED TABLE scale_staging (subject_id bigint, t text, e vector(384), age int)")
        plan = [(hot.pk, hot_size)] + [
            (sid, min(SUBJECTS_OTHER_SIZE, others - i * SUBJECTS_OTHER_SIZE)) for i, sid in enumerate(subject_ids[1:])
        ]
        rows: list[tuple[int, str, Any, int]] = []
        done = 0

        def flush() -> None:
            with (
                conn.cursor() as cur,
                cur.copy("COPY scale_staging (subject_id, t, e, age) FROM STDIN (FORMAT BINARY)") as cp,
            ):
                cp.set_types(["int8", "text", "vector", "int4"])
                for row in rows:
                    cp.write_row(row)
            rows.clear()

        for sid, n in plan:
            texts = _sentences(n, seed=sid, vocab=vocab)
            vecs = rng.standard_normal((n, 384)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            ages = rng.integers(0, 720, size=n)
            for t, v, a in zip(texts, vecs, ages, strict=True):
                rows.append((sid, t, v, int(a)))
            done += n
            if len(rows) >= batch:
                flush()
                print(f"    staged {done}", flush=True)
        if rows:
            flush()
        staged = time.perf_counter()
        cols = [
            r[0]
            for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'facts_fact' "
                "AND column_name <> 'id' AND is_generated = 'NEVER' ORDER BY ordinal_position"  # not embedding_bits
            ).fetchall()
        ]
        overrides = {
            "uid": "gen_random_uuid()",
            "subject_id": "s.subject_id",
            "text": "s.t",
            "normalized_text": "lower(s.t)",
            "search_text": "s.t",
            "search_vector": "setweight(to_tsvector('english', s.t), 'A') || setweight(to_tsvector('simple', s.t), 'B')",
            "embedding": "s.e",
            "created_at": "now() - s.age * interval '1 day'",
            "updated_at": "now() - s.age * interval '1 day'",
            "valid_from": "now() - s.age * interval '1 day'",
        }
        select = ", ".join(overrides.get(c, f"tpl.{c}") for c in cols)
        conn.execute(
            f"INSERT INTO facts_fact ({', '.join(cols)}) SELECT {select} FROM scale_staging s "
            "CROSS JOIN (SELECT * FROM facts_fact WHERE id = %s) tpl",
            [template.pk],
        )
        conn.execute(f"DELETE FROM facts_fact WHERE id = {template.pk}")
        loaded = time.perf_counter()
        print(f"  scale: loaded in {loaded - staged:.0f}s, rebuilding indexes ...", flush=True)
        rebuilt: list[str] = []
        skipped: list[str] = []
        for name, ddl in indexes:
            if "hnsw" in ddl.lower():
                skipped.append(name)
                continue
            conn.execute(ddl)
            rebuilt.append(name)
        conn.execute("DROP TABLE scale_staging")
        conn.execute("VACUUM ANALYZE facts_fact")
    return {
        "generated": True,
        "facts": total,
        "hot_subject_facts": hot_size,
        "subjects": len(subject_ids),
        "seconds": round(time.perf_counter() - started, 1),
        "load_seconds": round(loaded - staged, 1),
        "indexes_rebuilt": rebuilt,
        "indexes_skipped": skipped,
        "embedding_storage": "embedding PLAIN, search_vector MAIN (both inline)",
    }


SMALL_SUBJECT = "scale-small-user"
SIZES = ((SMALL_SUBJECT, 100), ("scale-user-1", SUBJECTS_OTHER_SIZE), (HOT_SUBJECT, SUBJECT_FACTS))


def small_subject(size: int = 100) -> None:
    """A subject of `size` facts (copies of scale-user-1's first ones), made once: subjects of every size are timed;
    then each timed subject's messages (bench.scale_messages), made once."""
    from bench.scale_messages import scale_messages

    _small_subject(size)
    scale_messages(SIZES, SCALE_TENANT)


def _small_subject(size: int) -> None:
    from django.db import connection

    from conversations.services import subject_get_or_create, tenant_get_or_create

    tenant = tenant_get_or_create(name=SCALE_TENANT)
    small = subject_get_or_create(tenant=tenant, external_id=SMALL_SUBJECT)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM facts_fact WHERE subject_id = %s", [small.pk])
        if int(cursor.fetchone()[0]) == size:
            return
        cursor.execute("DELETE FROM facts_fact WHERE subject_id = %s", [small.pk])
        cursor.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'facts_fact' "
            "AND column_name NOT IN ('id', 'uid', 'subject_id') AND is_generated = 'NEVER'"
        )
        cols = [c for (c,) in cursor.fetchall()]
        names = ", ".join(cols)
        cursor.execute(
            f"INSERT INTO facts_fact (uid, subject_id, {names}) SELECT gen_random_uuid(), %s, {names} FROM facts_fact "
            "WHERE subject_id = (SELECT id FROM conversations_subject WHERE tenant_id = %s AND external_id = "
            "'scale-user-1') ORDER BY id LIMIT %s",
            [small.pk, tenant.pk, size],
        )


def measure_sizes(ctx: Any, *, queries: int) -> dict[str, Any]:
    """p50 over the embedder alone for subjects of 100, 1,000 and 10,000 facts, facts only and with messages."""
    small_subject()
    out: dict[str, Any] = {}
    for subject, size in SIZES:
        for with_messages in (False, True):
            got = measure(ctx, queries=queries, subject=subject, include_messages=with_messages, after_writes=False)
            out[f"{size}{' +messages' if with_messages else ''}"] = {
                "p50": got["search_ms"]["p50"],
                "p95": got["search_ms"]["p95"],
                "embed_p50": got["embed_ms"]["p50"],
                "p50_over_embed_p50": got["p50_over_embed_p50"],
                "p95_over_embed_p50": round(got["search_ms"]["p95"] / got["embed_ms"]["p50"], 2)
                if got["embed_ms"]["p50"]
                else None,
            }
    return out


def measure_listing(ctx: Any, *, subject: str = HOT_SUBJECT, pages: int = 20) -> dict[str, Any]:
    """The facts API's pages of the 10k-fact subject, newest first (GET users/{user}/facts, 50 a page, following
    next_cursor), over HTTP: p50 and p95 of a page, and that no fact came twice."""
    from urllib.parse import quote

    from bench.common import percentile

    ms: list[float] = []
    ids: list[int] = []
    for _ in range(2):  # twice over the same pages: the second reads them from a warm cache
        cursor, ids = "", []
        for _ in range(pages):
            started = time.perf_counter()
            page = ctx.get(f"/api/v1/users/{quote(subject, safe='')}/facts" + (f"?cursor={cursor}" if cursor else ""))
            ms.append((time.perf_counter() - started) * 1000)
            ids += [f["id"] for f in page["results"]]
            cursor = page["next_cursor"]
            if not cursor:
                break
    return {
        "pages": len(ms),
        "facts": len(ids),
        "facts_twice": len(ids) - len(set(ids)),
        "p50": round(percentile(ms, 50), 2),
        "p95": round(percentile(ms, 95), 2),
    }


def measure(
    ctx: Any,
    *,
    queries: int = QUERIES,
    subject: str = HOT_SUBJECT,
    include_messages: bool = False,
    after_writes: bool = True,
) -> dict[str, Any]:
    """Search p50/p95 over HTTP for one subject, and the embedder alone on the same queries. Every candidate is
    returned (min_relevance 0): random facts would otherwise mostly abstain, which is less work to time."""
    import random

    from django.conf import settings

    from bench.common import percentile
    from bench.search_after_write import measure_with_writes
    from facts.embedding import embed_query, limit_torch_threads

    # The embedder alone in the web workers' configuration (WEB_TORCH_THREADS intra-op threads, see wsgi.py).
    limit_torch_threads(settings.WEB_TORCH_THREADS)

    def embed_ms(query: str) -> float:
        t0 = time.perf_counter()
        embed_query(query)
        return (time.perf_counter() - t0) * 1000

    vocab = _vocabulary()
    rng = random.Random(11)
    qs = [" ".join(rng.choice(vocab[:300]) for _ in range(rng.randint(2, 5))) + "?" for _ in range(queries + WARMUP)]
    wall: list[float] = []
    took: list[float] = []
    counts: list[int] = []
    embed_alone: list[float] = []
    # Blocks of searches, each followed by the same queries through the embedder alone: both timed at nearly the
    # same moment of a shared machine whose speed moves by a third within minutes (timed one loop after the
    # other, the ratio moved between 2.05 and 3.08 in one afternoon). Not one embedding after each search: the
    # next search then starts with its caches taken by this process's embedding (~0.9 ms slower).
    # Warm-up: each web worker's first search of the subject is answered by PostgreSQL while a background thread
    # reads the subject into that worker's memory (~0.2 s); the steady state is measured once that is done.
    options = {"limit": 10, "min_relevance": 0, "include_messages": include_messages}
    for q in qs[:WARMUP]:
        ctx.search(subject, q, **options)
        embed_ms(q)
    time.sleep(1.0)
    for start in range(WARMUP, len(qs), BLOCK):
        block = qs[start : start + BLOCK]
        for q in block:
            answer, ms = ctx.search(subject, q, **options)
            wall.append(ms)
            took.append(float(answer["took_ms"]))
            counts.append(len(answer["results"]))
        embed_alone += [embed_ms(q) for q in block]
    # For reference: torch's sentence-transformers encode of the same model, which the web workers used before
    # the ONNX Runtime encoder (and which the read-path target's "about 9 ms for MiniLM" was measured with).
    # Searches while the subject is written to, before the torch encodes below take this process's caches.
    with_writes = (
        measure_with_writes(ctx, subject=subject, tenant=SCALE_TENANT, queries=qs[WARMUP:], embed_ms=embed_ms)
        if after_writes
        else None
    )
    runtime, settings.EMBEDDINGS_QUERY_RUNTIME = settings.EMBEDDINGS_QUERY_RUNTIME, "torch"
    try:
        torch_ms = [embed_ms(q) for q in qs][WARMUP:] if after_writes else [0.0]
    finally:
        settings.EMBEDDINGS_QUERY_RUNTIME = runtime
    p50 = percentile(wall, 50)
    e50 = percentile(embed_alone, 50)
    t50 = percentile(torch_ms, 50)
    return {
        "queries": len(wall),
        "limit": 10,
        "results_per_query_mean": round(statistics.fmean(counts), 2),
        "search_ms": {
            "p50": round(p50, 2),
            "p95": round(percentile(wall, 95), 2),
            "p99": round(percentile(wall, 99), 2),
            "server_took_p50": round(percentile(took, 50), 2),
            "server_took_p95": round(percentile(took, 95), 2),
        },
        "embed_ms": {
            "p50": round(e50, 2),
            "p95": round(percentile(embed_alone, 95), 2),
            "runtime": runtime,
            "timed": f"same queries, blocks of {BLOCK} alternating with the searches",
        },
        "p50_over_embed_p50": round(p50 / e50, 2) if e50 else None,
        "embed_torch_ms": {"p50": round(t50, 2), "p95": round(percentile(torch_ms, 95), 2)},
        "with_writes_ms": with_writes,
        "p50_over_embed_torch_p50": round(p50 / t50, 2) if t50 else None,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=1_000_000, help="total facts in the database (default 1M)")
    parser.add_argument("--queries", type=int, default=QUERIES)
    parser.add_argument("--fresh", action="store_true", help="regenerate the data set")
    parser.add_argument("--out", default="", help="write the JSON result to this path")
    args = parser.parse_args(argv)
    from bench.common import running_service

    with running_service(database=SCALE_DB, args=args, conversations=[], tenant=SCALE_TENANT) as ctx:
        gen = generate(args.facts, fresh=args.fresh)
        print(f"  scale: {gen}", flush=True)
        from django.conf import settings

        result = {
            "database": SCALE_DB,
            "facts": gen["facts"],
            "hot_subject_facts": gen["hot_subject_facts"],
            "generation": gen,
            "vector_mode": settings.SEARCH_VECTOR_MODE,
            "hnsw_index": "not built (exact per-subject scan)",
            **measure(ctx, queries=args.queries),
            "by_subject_size": measure_sizes(ctx, queries=args.queries // 2),
            "facts_api_pages_ms": measure_listing(ctx),
        }
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main()
