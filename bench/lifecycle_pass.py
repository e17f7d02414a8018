"""One lifecycle pass over 1M facts: facts/s, the job's peak memory, and search latency right after it.

Data: the scale test's generator (bench.search_latency.generate: one subject of 10k facts, the rest in subjects of
1k, ages spread over two years) in a database of its own, `memory_site_lifecycle_src`, then given a mix of types
(the eleven, by id), an expiry on 1 % and a pin on 1 %. Each run copies it (CREATE DATABASE ... TEMPLATE) to
`memory_site_lifecycle` and times `manage.py lifecycle --json` there, in a process of its own (its peak RSS is the
job's; CPU seconds of that process and of the PostgreSQL server beside the wall time), twice: the first pass over fresh data (every score computed and written, the archive and vector drops of two
years at once) and a second at the same clock (the steady state of a nightly run: nothing left to do but look).
Then search latency over HTTP for the 10k-fact subject (bench.search_latency.measure), right after the passes
(`--queries 0` skips it).

    python -m bench.lifecycle_pass [--facts 1000000] [--queries 100] [--fresh] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DB = "memory_site_lifecycle_src"
RUN_DB = "memory_site_lifecycle"
TYPES = ["other", "preference", "event", "inquiry", "complaint", "profile", "relationship", "health", "commitment",
         "decision", "legal"]  # fmt: skip


def prepare(total: int, fresh: bool) -> dict[str, Any]:
    """In this process: the source database, migrated, generated and given a mix of types, expiries and pins."""
    from bench.common import database_ensure, django_setup

    django_setup(database_ensure(SOURCE_DB))
    from django.core.management import call_command
    from django.db import connection

    from bench import search_latency

    call_command("migrate", interactive=False, verbosity=0)
    gen = search_latency.generate(total, fresh=fresh)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(DISTINCT type) FROM (SELECT type FROM facts_fact LIMIT 1000) s")
        mixed = int(cursor.fetchone()[0]) > 1
    if gen.get("generated") or not mixed:  # a generation interrupted before its mix is mixed now
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE facts_fact SET type = (%s::text[])[1 + (id %% 11)], "
                "expires_at = CASE WHEN id %% 100 = 7 THEN created_at + interval '30 days' END, pinned = (id %% 100 = 3)",
                [TYPES],
            )
            cursor.execute("VACUUM ANALYZE facts_fact")
    connection.close()
    return gen


def copy_database() -> str:
    import psycopg

    from bench.common import database_url_for

    with psycopg.connect(database_url_for("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{RUN_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{RUN_DB}" TEMPLATE "{SOURCE_DB}"')
    return database_url_for(RUN_DB)


def server_cpu_s(connection: Any) -> float:
    """CPU seconds (user + system) of the PostgreSQL server this connection is on, so far: its processes alive now
    and those it reaped (parallel workers, autovacuum), from /proc (the server is on this machine; 0 if not)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW data_directory")
        data_dir = Path(str(cursor.fetchone()[0]))
    try:
        postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0

    def stat(pid: int | str) -> list[str]:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    try:
        own = stat(postmaster)
    except OSError:
        return 0.0
    ticks = int(own[11]) + int(own[12]) + int(own[13]) + int(own[14])  # its own and its reaped children's
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = stat(entry.name)
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def one_pass(url: str, now: str) -> dict[str, Any]:
    """`manage.py lifecycle --json` in a process of its own; wall time, counts, its peak RSS."""
    out = ROOT / "var" / f".lifecycle-pass-{os.getpid()}.json"
    code = (
        "import json, os, resource, sys, time, io, django; django.setup(); "
        "from django.core.management import call_command; from policies.models import LifecycleRun; "
        "from django.db import connection; from bench.lifecycle_pass import server_cpu_s; "
        "buf = io.StringIO(); pg0 = server_cpu_s(connection); t0 = time.perf_counter(); c0 = time.process_time(); "
        f"call_command('lifecycle', '--json', '--now', {now!r}, stdout=buf); wall = time.perf_counter() - t0; "
        "cpu = time.process_time() - c0; pg = server_cpu_s(connection) - pg0; "
        "run = LifecycleRun.objects.order_by('-pk').first(); "
        f"json.dump({{'wall_s': wall, 'cpu_s': cpu, 'pg_cpu_s': pg, "
        "'counts': json.loads(buf.getvalue().splitlines()[-1]), "
        "'facts_scanned': run.facts_scanned, 'details': run.details, 'load_avg': os.getloadavg(), "
        f"'peak_rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}, open({str(out)!r}, 'w'))"
    )
    from bench.common import BENCH_BROKER

    # The pass asks for profile rebuilds by task: onto the bench's broker (no worker runs them during the pass).
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "memory_site.settings",
           "CELERY_BROKER_URL": BENCH_BROKER}  # fmt: skip
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True)
    result = json.loads(out.read_text())
    out.unlink()
    result["facts_per_s"] = round(result["facts_scanned"] / result["wall_s"]) if result["wall_s"] else None
    for key in ("wall_s", "cpu_s", "pg_cpu_s"):
        result[key] = round(result[key], 1)
    result["load_avg"] = [round(x, 1) for x in result["load_avg"]]
    result["peak_rss_mb"] = round(result["peak_rss_mb"], 1)
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--fresh", action="store_true", help="regenerate the source data set")
    parser.add_argument("--prepare-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", default="")
    args = parser.parse_args(argv)
    if args.prepare_only:
        print(json.dumps(prepare(args.facts, args.fresh)))
        return {}
    started = time.perf_counter()
    cmd = [sys.executable, "-m", "bench.lifecycle_pass", "--prepare-only", "--facts", str(args.facts)]
    prepared = subprocess.run([*cmd, *(["--fresh"] if args.fresh else [])], cwd=ROOT, check=True,
                              capture_output=True, text=True)  # fmt: skip
    generation = json.loads(prepared.stdout.strip().splitlines()[-1])
    url = copy_database()
    copied = time.perf_counter()
    import datetime as dt

    now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    first = one_pass(url, now)
    second = one_pass(url, now)
    print(f"  lifecycle: first pass {first}\n  lifecycle: second pass {second}", flush=True)
    from bench import search_latency
    from bench.common import running_service

    latency: dict[str, Any] = {}
    if args.queries:
        with running_service(database=RUN_DB, conversations=[], tenant=search_latency.SCALE_TENANT) as ctx:
            latency = search_latency.measure(ctx, queries=args.queries)
    result = {
        "facts": args.facts,
        "generation": generation,
        "copy_s": round(copied - started, 1),
        "first_pass": first,
        "second_pass": second,
        "target_facts_per_s": 20_000,
        "search_after": {k: latency.get(k) for k in ("queries", "search_ms", "embed_ms", "p50_over_embed_p50")},
        "children_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
