"""Searches while an agent writes to the same subject: issue 26's "p95 <= 3x the embedder with a write every
second to the same subject".

A writer thread, once a second, stores a new fact in the hot subject (a copy of one of its rows with a text of
its own: the vector is not what is timed) and updates another (its values unchanged): the change log grows
and every web worker's held copy of the subject goes stale, as under an agent that stores each turn. The
searches run meanwhile in blocks, each followed by the embedder alone on the same queries (same moment of a
shared machine). The facts written are deleted afterwards: the scale database stays as generated.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

WRITE_EVERY_SECONDS = 1.0
SEARCHES = 200
BLOCK = 20


def measure_with_writes(
    ctx: Any, *, subject: str, tenant: str, queries: list[str], embed_ms: Callable[[str], float]
) -> dict[str, Any]:
    from django.db import connection

    from bench.common import percentile
    from conversations.models import Subject
    from facts.models import Fact

    pk = Subject.objects.get(tenant__name=tenant, external_id=subject).pk
    with connection.cursor() as cursor:  # the rows the writes copy and update: ids the subject has
        cursor.execute("SELECT id FROM facts_fact WHERE subject_id = %s ORDER BY id LIMIT 51", [pk])
        *sources, updated = [row[0] for row in cursor.fetchall()]
    columns = [f.column for f in Fact._meta.concrete_fields if not f.primary_key]
    copied = ", ".join("%s" if c == "text" else "gen_random_uuid()" if c == "uid" else c for c in columns)
    insert = f"INSERT INTO facts_fact ({', '.join(columns)}) SELECT {copied} FROM facts_fact WHERE id = %s RETURNING id"
    words = [w for q in queries for w in q.rstrip("?").split()]
    stop = threading.Event()
    written: list[int] = []
    errors: list[BaseException] = []

    def writer() -> None:
        from django.db import connection as own  # this thread's connection

        rng = random.Random(5)
        try:
            while not stop.wait(WRITE_EVERY_SECONDS):
                text = "I noted " + " ".join(rng.choice(words) for _ in range(8)) + "."
                with own.cursor() as cursor:
                    cursor.execute(insert, [text, sources[len(written) % len(sources)]])
                    written.append(int(cursor.fetchone()[0]))
                    cursor.execute("UPDATE facts_fact SET mention_count = mention_count WHERE id = %s", [updated])
        except BaseException as exc:  # reported below: a bench whose writes failed measured nothing
            errors.append(exc)
        finally:
            own.close()

    wall: list[float] = []
    embed_alone: list[float] = []
    thread = threading.Thread(target=writer, name="bench-writer", daemon=True)
    started = time.perf_counter()
    thread.start()
    try:
        rounds = queries * (SEARCHES // max(len(queries), 1) + 1)
        for start in range(0, SEARCHES, BLOCK):
            block = rounds[start : start + BLOCK]
            wall += [ctx.search(subject, q, limit=10)[1] for q in block]
            embed_alone += [embed_ms(q) for q in block]
    finally:
        stop.set()
        thread.join()
        seconds = time.perf_counter() - started
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM facts_fact WHERE id = ANY(%s)", [written])
    if errors:
        raise RuntimeError("the bench's writes failed") from errors[0]
    e50 = percentile(embed_alone, 50)
    p95 = percentile(wall, 95)
    return {
        "searches": len(wall),
        "writes": len(written),
        "seconds": round(seconds, 1),
        "p50": round(percentile(wall, 50), 2),
        "p95": round(p95, 2),
        "embed_p50": round(e50, 2),
        "embed_p95": round(percentile(embed_alone, 95), 2),
        "p95_over_embed_p50": round(p95 / e50, 2) if e50 else None,
        "timed": f"a new fact and an update every {WRITE_EVERY_SECONDS:g} s to the subject while it is searched; "
        f"embedder alone in alternating blocks of {BLOCK}",
    }
